"""Performance ratings and form (issue 33, item 3): worked by hand, read from the stored
games and rating points, a month in the club's time zone, a handicap game as its handicap
made it, the player page and the API."""

import math
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from records import glicko, odds, performance, rating
from tests.factories import T0, finished, player

pytestmark = pytest.mark.django_db


def win(a, b, at, variant="clockwise", **kwargs):
    return finished(variant, [(a, "win", 70, {}), (b, "loss", 30, {})], at=at, **kwargs)


def lucky_after_an_even_record(name, at):
    """``name``: 40 games won and lost in turn against four rivals, then three wins; (him,
    the rivals)."""
    ann, rivals = player(name), [player(f"R{i}") for i in range(4)]
    for i in range(40):
        rival = rivals[i % 4]
        if i % 2:
            win(ann, rival, at)
        else:
            win(rival, ann, at)
        at += timedelta(hours=1)
    for i in range(3):
        win(ann, rivals[i], at)
        at += timedelta(hours=1)
    return ann, rivals


def draw(a, b, at):
    return finished("cue_run", [(a, "draw", 16, {}), (b, "draw", 16, {})], at=at)


def test_the_worked_example_four_opponents_of_1600_and_three_and_a_half_points():
    """Four newcomers of the third class (each 1600 before his only game) and a score of
    3½: each game was expected to give 3.5 / 4 = 0.875, so the performance is
    1600 + 400 · log10(0.875 / 0.125) = 1600 + 400 · log10 7 ≈ 1938, its standard error
    1 / √(4 · (ln 10 / 400)² · 0.875 · 0.125) ≈ 263."""
    ann = player("Ann")
    rivals = [player(f"Rival {i}", skill_class="3") for i in range(4)]
    for i, rival in enumerate(rivals[:3]):
        win(ann, rival, T0 + timedelta(hours=i))
    draw(ann, rivals[3], T0 + timedelta(hours=3))
    [(month, perf)] = performance.monthly("pocketing", ann.pk)
    assert month == T0.date().replace(day=1)
    by_hand = 1600 + 400 * math.log10(7)
    assert round(by_hand) == 1938
    assert perf.rating == pytest.approx(by_hand, abs=0.01)
    assert perf.rating == pytest.approx(odds.performance([(1600, 1)] * 3 + [(1600, 0.5)])[0])
    assert perf.error == pytest.approx(1 / math.sqrt(4 * odds.ELO**2 * 0.875 * 0.125))
    assert round(perf.error) == 263
    assert (perf.games, perf.results, perf.score) == (4, 4, 3.5)
    # The rating he had then: a newcomer's, before his first game.
    assert (perf.before, perf.deviation) == (1500, 350)


def test_each_opponent_counts_at_the_rating_he_had_before_the_game():
    ann, bob = player("Ann"), player("Bob")
    first = win(ann, bob, T0)
    finished("clockwise", [(ann, "loss", 30, {}), (bob, "win", 70, {})], at=T0 + timedelta(1))
    state = rating.recompute("pocketing")
    bob_after_first = glicko.rate(
        glicko.start(None),
        [glicko.Result(glicko.start(None), 0.0)],
        first.finished_at.timestamp() / rating.DAY,
    ).rating
    [(_month, perf)] = performance.monthly("pocketing", ann.pk)
    assert perf.rating == pytest.approx(odds.performance([(1500, 1), (bob_after_first, 0)])[0])
    # not his rating after the second game (what the stored figure says now)
    assert state.rating(bob.pk) != pytest.approx(bob_after_first)


def at_moscow(*args):
    return timezone.make_aware(datetime(*args), timezone=timezone.get_fixed_timezone(180))


def test_months_are_the_clubs_in_its_time_zone():
    """23:30 on 31 March in Moscow is March there (20:30 UTC); 00:30 on 1 April in Moscow
    is April there, though still 31 March in UTC."""
    ann, bob = player("Ann"), player("Bob")
    win(ann, bob, at_moscow(2025, 3, 31, 23, 30))
    win(bob, ann, at_moscow(2025, 4, 1, 0, 30))
    with timezone.override("Europe/Moscow"):
        months = performance.monthly("pocketing", ann.pk)
    assert [(m.isoformat(), p.games, p.score) for m, p in months] == [
        ("2025-04-01", 1, 0.0),
        ("2025-03-01", 1, 1.0),
    ]
    with timezone.override("UTC"):  # a club in London reads both games as March's
        months = performance.monthly("pocketing", ann.pk)
    assert [(m.isoformat(), p.games, p.score) for m, p in months] == [("2025-03-01", 2, 1.0)]


def test_the_last_months_in_which_he_played_newest_first():
    ann, bob = player("Ann"), player("Bob")
    start = datetime(2024, 1, 15, 12, tzinfo=UTC)
    for month in range(9):
        win(ann, bob, start + timedelta(days=31 * month))
    months = performance.monthly("pocketing", ann.pk)
    assert len(months) == performance.MONTHS == 6
    assert [m.month for m, _p in months] == [9, 8, 7, 6, 5, 4]


def test_a_handicap_game_counts_against_the_opponent_the_handicap_made():
    """Bob receives "8–6" from Ann and wins: his opponent counts lower than Ann's rating
    (the head start made her weaker), at the rating that gives Bob the odds the head start
    gave him."""
    ann, bob = player("Ann", skill_class="1"), player("Bob")
    handicap = {"weaker_seat": 1, "head_start": 2, "returned_pots": 0}
    finished("pyramid_free", [(ann, "loss", 6, {}), (bob, "win", 8, {})], settings=handicap)
    found = performance.of_games(
        "pyramid", Game.objects.values_list("pk", flat=True), [ann.pk, bob.pk]
    )
    given = odds.with_handicap(odds.elo_expected(1500, 1800), 8, 2)
    opponent = 1500 - math.log(given / (1 - given)) / odds.ELO
    assert 1500 < opponent < 1800
    assert found[bob.pk].rating == pytest.approx(opponent + odds.PERFECT)
    # Ann lost to a Bob the head start made stronger than his 1500
    assert found[ann.pk].rating == pytest.approx(1500 + (1800 - opponent) - odds.PERFECT)


def test_a_cork_game_is_a_result_against_each_other_player():
    a, b, c = player("A"), player("B"), player("C")
    finished("cork", [(a, "win", 100, {}), (b, "loss", 10, {}), (c, "loss", -5, {})])
    [(_m, perf)] = performance.monthly("cork", a.pk)
    assert (perf.games, perf.results, perf.score) == (1, 2, 2.0)
    [(_m, second)] = performance.monthly("cork", b.pk)
    assert (second.results, second.score) == (2, 1.0)
    assert second.rating == pytest.approx(1500)


def sandbagger(games=15, rating_games=60, name="Сэм Сэндбэггер-Длиннофамильный"):
    """Sam loses nine games in ten to the club's newcomers (a low, sure rating), then beats
    them 15 times in a row, all in the last days: his last games were played far above the
    rating they left him."""
    sam = player(name)
    rivals = [player(f"Соперник {i}") for i in range(6)]
    at = timezone.now() - timedelta(days=10)
    for i in range(rating_games):
        rival = rivals[i % len(rivals)]
        if i % 10 == 0:
            win(sam, rival, at)
        else:
            win(rival, sam, at)
        at += timedelta(hours=1)
    for i in range(games):
        win(sam, rivals[i % len(rivals)], at)
        at += timedelta(hours=1)
    return sam, rivals


def test_form_flags_a_run_far_above_the_rating():
    sam, rivals = sandbagger()
    readings = performance.forms("pocketing", [sam.pk] + [r.pk for r in rivals])
    reading = readings[sam.pk]
    assert reading.games == performance.FORM_GAMES
    assert reading.form.z > odds.FORM_Z and reading.flagged
    assert reading.form.performance > reading.form.rating + 2 * reading.form.deviation
    assert not any(readings[r.pk].flagged for r in rivals)


def test_a_short_lucky_run_is_not_flagged():
    """Three wins in a row over equals, after a long even record: too short to say."""
    ann, _rivals = lucky_after_an_even_record("Ann", T0)
    reading = performance.forms("pocketing", [ann.pk], last=3)[ann.pk]
    assert not reading.flagged
    # and a run shorter than FORM_MIN_GAMES is never flagged, however far above
    sam, _rivals = sandbagger(games=performance.FORM_MIN_GAMES - 1)
    short = performance.forms("pocketing", [sam.pk], last=performance.FORM_MIN_GAMES - 1)
    assert short[sam.pk].form.flagged and not short[sam.pk].flagged


def flat(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&nbsp;", " ").split())


def test_the_player_page_shows_the_months_performance_in_russian_and_english(client):
    ann = player("Ann")
    rivals = [player(f"Rival {i}", skill_class="3") for i in range(4)]
    for i, rival in enumerate(rivals[:3]):
        win(ann, rival, T0 + timedelta(hours=i))
    draw(ann, rivals[3], T0 + timedelta(hours=3))
    url = reverse("players:detail", args=[ann.pk])
    page = client.get(url).content.decode()
    section = flat(page[page.index('id="performance"') : page.index('id="handicap-advice"')])
    assert "Рейтинг игры" in section
    # month, games, score, the performance ± its error, the rating going in ± its deviation
    assert "Март 2025 4 3½ 1938 ± 263 (рейтинг 1500 ± 350)" in section
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    section = flat(
        english[english.index('id="performance"') : english.index('id="handicap-advice"')]
    )
    assert "Performance" in section
    assert "March 2025 4 3½ 1938 ± 263 (rating 1500 ± 350)" in section
    # A player without rated games has no such section.
    assert (
        'id="performance"'
        not in client.get(reverse("players:detail", args=[player("Nobody").pk])).content.decode()
    )
    # The API says the same.
    [month] = client.get(f"/api/v1/players/{ann.pk}/").json()["performances"]
    assert month == {
        "performance": 1938,
        "error": 263,
        "games": 4,
        "results": 4,
        "score": 3.5,
        "rating_before": 1500,
        "deviation_before": 350,
        "family": "pocketing",
        "family_name": rating.family_label("pocketing"),
        "month": "2025-03",
        "tournament": None,
    }


def test_a_score_is_written_as_a_club_writes_it():
    def perf(score):
        return performance.Performance(1500, 100, 4, 4, score, 1500, 100, T0, T0)

    assert [perf(s).score_text for s in (0, 0.5, 1, 3.5, 4)] == ["0", "½", "1", "3½", "4"]


def test_a_month_read_only_in_part_is_not_shown(monkeypatch):
    """Past ``MAX_GAMES`` of his newest games, the oldest month read may go on beyond them:
    it is left out rather than shown in part."""
    ann, bob = player("Ann"), player("Bob")
    start = datetime(2025, 1, 20, 12, tzinfo=UTC)
    for day in range(6):  # three in January, three in February
        win(ann, bob, start + timedelta(days=day * 5))
    monkeypatch.setattr(performance, "MAX_GAMES", 4)
    months = performance.monthly("pocketing", ann.pk)
    assert [(m.month, p.games) for m, p in months] == [(2, 3)]
    monkeypatch.setattr(performance, "MAX_GAMES", 6)
    months = performance.monthly("pocketing", ann.pk)
    assert [(m.month, p.games) for m, p in months] == [(2, 3), (1, 3)]


def test_the_player_pages_months_follow_his_own_next_game():
    ann, bob, cid, dan = (player(name) for name in ("Ann", "Bob", "Cid", "Dan"))
    at = T0
    win(ann, bob, at)
    [family] = performance.player_performances(ann)
    assert family["months"][0][1].games == 1
    win(cid, dan, at + timedelta(hours=1))  # another's game: his months as they were
    assert performance.player_performances(ann)[0]["months"][0][1].games == 1
    win(bob, ann, at + timedelta(hours=2))  # his own: counted at once
    assert performance.player_performances(ann)[0]["months"][0][1].games == 2
