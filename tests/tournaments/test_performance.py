"""A tournament's performance from its frames (issue 33, item 3): on its final places, the
player page and the API; and the desk's warning, before a handicapped tournament, about an
entrant whose last games were played far above his rating."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from records import odds, performance, rating
from records.models import RatingPoint
from tests.factories import T0, finished
from tests.records.test_performance import lucky_after_an_even_record, sandbagger
from tests.tournaments.test_tournaments import make_tournament, play_match, start
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def flat(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&nbsp;", " ").split())


def played(tables, race=3, **fields):
    """A knockout of three, each match a race to ``race`` won 3–0 by player A: Bob (seed 2)
    beats Cid (seed 3), then Ann (seed 1, a bye) beats Bob in the final."""
    tournament, players = make_tournament(n=3, race_final=race, race_upper=race, **fields)
    start(tournament)
    matches = []
    while ready := [i for i in selectors.tournament_view(tournament).items if i.status == "ready"]:
        match = services.start_tournament_match(
            tournament=tournament, key=ready[0].spec.key, table=tables[0], marker=None
        )
        matches.append(play_match(match, "a"))
    tournament.refresh_from_db()
    return tournament, players, matches


def before(player, match):
    """His rating before each frame of ``match``, from his stored points (1500 before his
    first game)."""
    points = RatingPoint.objects.filter(player=player).order_by("finished_at", "game_id")
    history = [(p.game_id, p.rating) for p in points]
    found = []
    for frame in match.frames.order_by("number"):
        earlier = [value for game_id, value in history if game_id < frame.game_id]
        found.append(earlier[-1] if earlier else 1500.0)
    return found


def test_a_tournaments_performance_is_read_from_its_frames(client, tables):
    """Three newcomers (1500 each). Cid lost his three frames to Bob: his performance is 400
    below Bob's lowest rating before a frame — 1500, before the first (Bob only rose
    after it): 1100. Ann won her three frames of the final against Bob: 400 above Bob's
    highest before a frame, his rating after beating Cid. Bob's 3 of 6 is solved against the
    six ratings his opponents had before each frame. A game outside the tournament does
    not count."""
    tournament, (ann, bob, cid), (first, the_final) = played(tables)
    assert [(m.name_a, m.score_a, m.score_b) for m in (first, the_final)] == [
        (bob.full_name, 3, 0),
        (ann.full_name, 3, 0),
    ]
    finished("clockwise", [(cid, "win", 70, {}), (ann, "loss", 30, {})], at=T0)  # outside
    found = selectors.tournament_performances(tournament)
    bob_vs_cid, bob_vs_ann = before(bob, first), before(bob, the_final)
    assert min(bob_vs_cid) == bob_vs_cid[0] == 1500
    assert found[3].rating == pytest.approx(1100)
    assert found[1].rating == pytest.approx(max(bob_vs_ann) + 400)
    assert max(bob_vs_ann) == bob_vs_ann[0] > 1500
    results = [(r, 1) for r in before(cid, first)] + [(r, 0) for r in before(ann, the_final)]
    assert (found[2].rating, found[2].error) == pytest.approx(odds.performance(results))
    assert (found[2].games, found[2].score, found[1].score, found[3].score) == (6, 3, 3, 0)
    assert found[1].error == pytest.approx(odds.performance([(r, 1) for r in bob_vs_ann])[1])
    # The public page's final places: the place, the performance, the rating going in.
    page = flat(client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode())
    ann_perf = f"{round(found[1].rating)} ± {round(found[1].error)}"
    assert f"1 {ann.full_name} {ann_perf} (рейтинг 1500 ± 350)" in page
    assert f"3 {cid.full_name} 1100 ± {round(found[3].error)} (рейтинг 1500 ± 350)" in page
    english = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert f"{ann_perf} (rating 1500 ± 350)" in flat(english.content.decode())
    # The API: per entrant and per place.
    answer = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert answer["entrants"][2]["performance"] | {"error": 0} == {
        "performance": 1100,
        "error": 0,
        "games": 3,
        "results": 3,
        "score": 0.0,
        "rating_before": 1500,
        "deviation_before": 350,
    }
    assert [p["performance"]["performance"] for p in answer["places"]] == [
        round(found[1].rating),
        round(found[2].rating),
        1100,
    ]
    # Her player page lists the tournament with it, and the API too.
    mine = flat(client.get(reverse("players:detail", args=[ann.pk])).content.decode())
    assert f"Кубок 3 декабря 2026 г. 1 {ann_perf} (рейтинг 1500 ± 350)" in mine
    performances = client.get(f"/api/v1/players/{ann.pk}/").json()["performances"]
    assert [
        (
            p["tournament"]["id"],
            p["tournament"]["name"],
            p["tournament"]["club"]["name"],
            p["performance"],
        )
        for p in performances
        if p["tournament"]
    ] == [(tournament.pk, "Кубок", "Luza", round(found[1].rating))]


def test_a_tournament_not_yet_played_shows_no_performance(client):
    tournament, _players = make_tournament(n=3)
    start(tournament)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'class="num performance"' not in page
    answer = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert [e["performance"] for e in answer["entrants"]] == [None, None, None]


def desk(client, tournament, language="ru"):
    response = client.get(
        reverse("tournaments:manage", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def entered(db):
    """Sam, who lost four games in five and then won his last 15, and his six rivals, entered
    in a handicapped tournament (a head start in frames for the weaker) and an even one."""
    sam, rivals = sandbagger()
    tournaments = {}
    for handicap in ("head_start", "none"):
        tournament = Tournament.objects.create(
            name=f"Кубок {handicap}",
            date="2026-12-20",
            format="single",
            variant="clockwise",
            handicap=handicap,
        )
        for who in [sam, *rivals]:
            services.add_entrant(tournament=tournament, player=who)
        services.add_entrant(tournament=tournament, guest_name="Гость Без Рейтинга")
        tournaments[handicap] = tournament
    return sam, rivals, tournaments


def test_the_desk_warns_of_a_sandbagger_before_a_handicapped_tournament(admin_client, entered):
    sam, rivals, tournaments = entered
    html = desk(admin_client, tournaments["head_start"])
    [warning] = re.findall(
        r'<li class="message warning" data-form-warning="\d+">(.*?)</li>', html, re.S
    )
    reading = rating_reading(sam)
    text = flat(warning)
    assert text.startswith(
        f"{sam.full_name}: последние 15 партий сыграны на {round(reading.form.performance)} ± "
        f"{round(reading.form.error)} при рейтинге {round(reading.form.rating)} ± "
        f"{round(reading.form.deviation)} — сильнее, чем позволяет неопределённость; "
        "проверьте фору."
    )
    assert reading.form.performance - reading.form.rating > 2 * reading.form.deviation
    for rival in rivals:
        assert rival.full_name not in warning
    english = flat(desk(admin_client, tournaments["head_start"], "en"))
    assert (
        f"{sam.full_name}: the last 15 games were played at {round(reading.form.performance)}"
        in english
    )
    assert "stronger than the uncertainty allows; check the handicap." in english


def rating_reading(sam):
    return performance.forms(rating.family_of("clockwise"), [sam.pk])[sam.pk]


def test_no_warning_before_an_even_tournament_nor_once_it_runs(admin_client, entered):
    _sam, _rivals, tournaments = entered
    assert "data-form-warning" not in desk(admin_client, tournaments["none"])
    handicapped = tournaments["head_start"]
    assert "data-form-warning" in desk(admin_client, handicapped)
    services.start_tournament(tournament=handicapped, method="rating")
    assert "data-form-warning" not in desk(admin_client, handicapped)


def test_nobody_is_warned_for_a_short_lucky_run(admin_client, db):
    """Three wins in a row after an even record: no warning."""
    ann, rivals = lucky_after_an_even_record("Ann Lucky", timezone.now() - timedelta(days=5))
    tournament = Tournament.objects.create(
        name="Кубок", date="2026-12-20", format="single", variant="clockwise", handicap="head_start"
    )
    for who in [ann, *rivals]:
        services.add_entrant(tournament=tournament, player=who)
    assert "data-form-warning" not in desk(admin_client, tournament)


def test_bad_requests_get_a_4xx(client, admin_client, db):
    assert admin_client.get(reverse("tournaments:manage", args=[999_999])).status_code == 404
    assert client.get(reverse("tournaments:detail", args=[999_999])).status_code == 404
    assert client.get(reverse("players:detail", args=[999_999])).status_code == 404
    assert client.get("/api/v1/players/999999/").status_code == 404
    assert client.get("/api/v1/players/abc/").status_code in (400, 422)
    assert client.get("/api/v1/tournaments/0/").status_code in (400, 404, 422)


def test_a_frame_taken_back_leaves_the_performance_at_once(tables):
    """The performance is cached by the finished frames: the final's last frame reopened at
    the desk, Ann has played two frames of the tournament, not three."""
    tournament, (ann, _bob, _cid), (_first, the_final) = played(tables)
    assert selectors.tournament_performances(tournament)[1].games == 3
    assert selectors.player_tournament_performances(ann, [tournament])[tournament.pk].games == 3
    services.reopen_last_frame(match=the_final, user=None)
    assert selectors.tournament_performances(tournament)[1].games == 2
    assert selectors.player_tournament_performances(ann, [tournament])[tournament.pk].games == 2
