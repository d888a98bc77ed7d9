"""Tournament sign-up and check-in from the players' phones; the desk's approvals and
no-show candidates; "you're up" and the predicted start of a player's next match."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import selectors as game_selectors
from games import services as game_services
from games.models import Game
from live import publishing
from me import fragments, selectors
from players.models import Player
from tables.models import Table
from tests.factories import GameFactory, TableFactory, UserFactory, record
from tests.tournaments.test_tournaments import play_match
from toolbox.roles import ADMINS
from tournaments import selectors as tournament_selectors
from tournaments import services
from tournaments.models import EntryStatus, Match, MatchStatus, Tournament

pytestmark = pytest.mark.django_db


def open_tournament(**overrides):
    fields = {"variant": "clockwise", "registration_open": True, "date": timezone.localdate()}
    return Tournament.objects.create(name="Кубок", format="single", **fields | overrides)


def phone_of(player):
    client = Client()
    client.force_login(player.user)
    return client


def others(n, prefix="Игрок"):
    return [Player.objects.create(full_name=f"{prefix} {i:02d}") for i in range(1, n + 1)]


def test_a_player_signs_up_from_the_tournament_page_and_withdraws_before_the_draw(lena):
    tournament = open_tournament(registration_limit=2)
    phone = phone_of(lena)
    page = phone.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "data-sign-up-button" in page and "Осталось мест: 2" in page
    phone.post(reverse("me:sign_up", args=[tournament.pk]))
    assert tournament.entrants.get().player == lena
    page = phone.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "data-my-entry" in page and "Осталось мест: 1" in page
    phone.post(reverse("me:sign_up", args=[tournament.pk]))  # twice: refused
    assert tournament.entrants.count() == 1
    phone.post(reverse("me:withdraw", args=[tournament.pk]))
    assert tournament.entrants.count() == 0


def test_sign_up_refused_when_closed_full_late_or_drawn(lena, sokol):
    closed = open_tournament(registration_open=False)
    late = open_tournament(registration_deadline=timezone.now() - dt.timedelta(minutes=1))
    full = open_tournament(registration_limit=1)
    services.sign_up(tournament=full, player=sokol)
    for tournament in (closed, late, full):
        phone_of(lena).post(reverse("me:sign_up", args=[tournament.pk]))
        assert not tournament.entrants.filter(player=lena).exists()
    drawn = open_tournament()
    for player in [lena, *others(3)]:
        services.sign_up(tournament=drawn, player=player)
    services.start_tournament(tournament=drawn, method="rating")
    phone_of(lena).post(reverse("me:withdraw", args=[drawn.pk]))
    assert drawn.entrants.filter(player=lena).exists()  # after the draw: the desk withdraws


def test_a_sign_up_that_needs_approval_waits_for_the_admins(lena):
    tournament = open_tournament(registration_approval=True)
    phone_of(lena).post(reverse("me:sign_up", args=[tournament.pk]))
    entrant = tournament.entrants.get()
    assert entrant.status == EntryStatus.PENDING
    admin = Client()
    admin.force_login(UserFactory(username="adm", groups=[ADMINS]))
    page = admin.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    assert "data-approve" in page
    admin.post(reverse("tournaments:approve", args=[tournament.pk, entrant.pk]))
    entrant.refresh_from_db()
    assert entrant.status == EntryStatus.ENTERED
    # A player cannot approve (nor reach the desk).
    assert (
        phone_of(lena).get(reverse("tournaments:manage", args=[tournament.pk])).status_code == 403
    )


def check_in_tournament(policy, now):
    start = (now + dt.timedelta(minutes=30)).astimezone(timezone.get_current_timezone())
    return open_tournament(
        date=start.date(), start_time=start.time(), checkin_minutes=60, absent_policy=policy
    )


@pytest.mark.parametrize("policy", ["drop", "walkover"])
def test_at_the_start_those_not_checked_in_are_dropped_or_lose_by_walkover(lena, sokol, policy):
    now = timezone.now()
    tournament = check_in_tournament(policy, now)
    players = [lena, sokol, *others(3)]
    for player in players:
        services.sign_up(tournament=tournament, player=player)
    phone = phone_of(lena)
    page = phone.get(reverse("me:home")).content.decode()
    assert "data-check-in" in page
    phone.post(reverse("me:check_in", args=[tournament.pk]))
    admin = UserFactory(username="adm", groups=[ADMINS])
    for entrant in tournament.entrants.exclude(player=sokol).exclude(player=lena):
        services.check_in(entrant=entrant, by_desk=True)
    services.start_tournament(tournament=tournament, method="rating")
    sokol_entry = tournament.entrants.get(player=sokol)
    page = Client().get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    if policy == "drop":
        assert sokol_entry.status == EntryStatus.DROPPED and sokol_entry.seed is None
        assert "Не отметился: не попал в сетку" in page
        assert len(tournament_selectors.entrant_rows(tournament.pk)) == 4
    else:
        assert sokol_entry.absent and sokol_entry.seed is not None
        view = tournament_selectors.tournament_view(tournament)
        lost = [i for i in view.items if sokol_entry.seed in (i.seed_a, i.seed_b)]
        assert lost[0].status == "finished" and lost[0].kind == "walkover"
        assert "не отметились к началу — неявка" in page
    assert admin.pk


def test_check_in_before_the_window_is_refused(lena):
    now = timezone.now()
    start = (now + dt.timedelta(hours=3)).astimezone(timezone.get_current_timezone())
    tournament = open_tournament(date=start.date(), start_time=start.time(), checkin_minutes=30)
    services.sign_up(tournament=tournament, player=lena)
    phone_of(lena).post(reverse("me:check_in", args=[tournament.pk]))
    assert tournament.entrants.get().checked_in_at is None


def running(players, tables=1):
    tournament = open_tournament(race_upper=2, race_final=2)
    for player in players:
        services.sign_up(tournament=tournament, player=player)
    entrants = list(tournament.entrants.order_by("pk"))
    services.start_tournament(
        tournament=tournament, method="manual", manual=[e.pk for e in entrants]
    )
    for number in range(1, tables + 1):
        TableFactory(number=number)
    return tournament


def test_the_called_match_says_you_are_up_with_its_table_and_is_flagged_if_not_started(lena, sokol):
    tournament = running([lena, sokol, *others(2)])
    view = tournament_selectors.tournament_view(tournament)
    first = next(
        i
        for i in view.queue
        if lena.pk in (view.entrants[i.seed_a].player_id, view.entrants[i.seed_b].player_id)
    )
    up = selectors.up_now(lena)
    assert up is not None and up.key.startswith("offer-") and up.table == 1  # offered a table
    admin = UserFactory(username="adm", groups=[ADMINS])
    table = Table.objects.get(number=1)
    services.start_tournament_match(
        tournament=tournament, key=first.spec.key, table=table, marker=admin
    )
    up = selectors.up_now(lena)
    assert up.key.startswith("match-") and up.table == 1
    assert "Ваш матч вызван: стол 1" in fragments.render_live(lena)[1]
    # Not begun 10 minutes after the call: the desk flags it.
    Match.objects.filter(status=MatchStatus.IN_PROGRESS).update(
        started_at=timezone.now() - dt.timedelta(minutes=11)
    )
    desk = Client()
    desk.force_login(admin)
    page = desk.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    assert "data-no-show" in page and "неявка?" in page


def test_you_are_up_is_gone_from_his_page_at_the_matchs_first_stroke(
    lena, sokol, django_capture_on_commit_callbacks, monkeypatch
):
    """Issue 31 item 4: «Ваш выход» stayed on his page after the match's first stroke (until
    the page's next sweep): the first stroke is published to the players' pages at once."""
    tournament = running([lena, sokol, *others(2)])
    view = tournament_selectors.tournament_view(tournament)
    seed = tournament.entrants.get(player=lena).seed
    item = next(i for i in view.queue if seed in (i.seed_a, i.seed_b))
    admin = UserFactory(username="adm", groups=[ADMINS])
    match = services.start_tournament_match(
        tournament=tournament, key=item.spec.key, table=Table.objects.get(number=1), marker=admin
    )
    assert "me-up" in fragments.render_live(lena)[1]
    published = []
    monkeypatch.setattr(publishing, "publish_now", published.append)
    game = tournament_selectors.current_frame(match).game
    with django_capture_on_commit_callbacks(execute=True):
        game = record(game, admin, a_stroke(game))
    players = {seat.player_id for seat in game.seats.all()}
    assert lena.pk in players and published[-1] == [f"player.{pk}" for pk in sorted(players)]
    assert selectors.up_now(lena) is None and "me-up" not in fragments.render_live(lena)[1]
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):  # the next strokes: not told
        record(game, admin, a_stroke(game))
    assert not [topics for topics in published if f"player.{lena.pk}" in topics]


def a_stroke(game):
    """A legal stroke of the game as it stands (no foul), as its console's button sends it."""
    state = game_selectors.game_state(game)
    variant = game_selectors.variant_of(game)
    return next(a for a in variant.legal_actions(state) if not a.fouls).event()


def test_the_predicted_start_counts_the_queue_ahead_and_the_clubs_frame_durations(lena):
    # Lena is seed 7: her match (2 v 7) is the last of round 1.
    players = [*others(6), lena, *others(1, prefix="Гость")]
    tournament = running(players, tables=1)
    admin = UserFactory(username="adm", groups=[ADMINS])
    # One match played to build the club's history: its frames last what they last.
    view = tournament_selectors.tournament_view(tournament)
    first = view.queue[0]
    table = Table.objects.get(number=1)
    match = services.start_tournament_match(
        tournament=tournament, key=first.spec.key, table=table, marker=admin
    )
    play_match(match, "a", admin)
    games = Game.objects.filter(match_frame__match=match)
    for game in games:  # every frame took 12 minutes
        Game.objects.filter(pk=game.pk).update(
            started_at=game.finished_at - dt.timedelta(minutes=12)
        )
    minutes, counted = tournament_selectors.frame_minutes("clockwise", 2)
    assert minutes == 12 and counted == games.count()
    now = timezone.now()
    [nxt] = selectors.next_matches(lena, now)
    # Ahead of hers: the other ready matches before it in the desk's queue, on the one table,
    # each a race to 2 (2.5 frames expected at 12 min = 30 min).
    view = tournament_selectors.tournament_view(tournament)
    keys = [i.spec.key for i in view.queue]
    ahead = keys.index(nxt.item.spec.key)
    assert ahead >= 1 and nxt.ahead == ahead
    assert abs((nxt.starts_at - now).total_seconds() / 60 - 30 * ahead) < 1
    # A frame under a minute was not timed (typed in after the fact): not counted.
    quick = games.first()
    Game.objects.filter(pk=quick.pk).update(started_at=quick.finished_at - dt.timedelta(seconds=20))
    assert tournament_selectors.frame_minutes("clockwise", 2) == (12, games.count() - 1)
    # Without any history: the fallback per frame.
    Game.objects.filter(match_frame__isnull=False).update(finished_at=None)
    assert tournament_selectors.frame_minutes("clockwise", 2) == (20.0, 0)


def test_the_predicted_start_waits_for_an_opponent_still_playing_elsewhere(lena):
    """Issue 31 item 4: with a table free, his match was predicted to start now while his
    opponent was still playing at another table. No frame is timed yet: 20 min a frame."""
    players = [lena, *others(3)]
    tournament = running(players, tables=3)
    view = tournament_selectors.tournament_view(tournament)
    seed = tournament.entrants.get(player=lena).seed
    mine = next(i for i in view.queue if seed in (i.seed_a, i.seed_b))
    rival_seed = mine.seed_b if mine.seed_a == seed else mine.seed_a
    rival = Player.objects.get(pk=view.entrants[rival_seed].player_id)
    # Her opponent plays a game of his own at table 3: one frame, 20 min, left.
    own = GameFactory(
        table=Table.objects.get(number=3), variant="pyramid_free", seats=[rival, "Гость"]
    )
    now = timezone.now()
    [nxt] = selectors.next_matches(lena, now)
    assert nxt.item.spec.key == mine.spec.key and nxt.table is None  # not offered: he plays
    assert abs((nxt.starts_at - now).total_seconds() / 60 - 20) < 0.1
    assert nxt.ahead == 1  # the other match takes a free table first
    # A round robin: her next match's players both play their first ones (a race to 2:
    # 2.5 frames at 20 min), so it starts when those end, though table 3 is free now.
    robin = Tournament.objects.create(
        name="Круг", format="round_robin", variant="clockwise", race_group=2, groups=1,
        registration_open=True, date=timezone.localdate(),
    )  # fmt: skip
    game_services.abandon_game(game=own, user=None)  # (his game is over)
    for player in [lena, *others(3, prefix="Круг")]:
        services.sign_up(tournament=robin, player=player)
    entrants = [entrant.pk for entrant in robin.entrants.order_by("pk")]
    services.start_tournament(tournament=robin, method="manual", manual=entrants)
    admin = UserFactory(username="adm", groups=[ADMINS])
    first, second, *_rest = tournament_selectors.tournament_view(robin).queue
    for item, number in ((first, 1), (second, 2)):
        services.start_tournament_match(
            tournament=robin, key=item.spec.key, table=Table.objects.get(number=number),
            marker=admin,
        )  # fmt: skip
    now = timezone.now()
    nxt = next(n for n in selectors.next_matches(lena, now) if n.tournament == robin)
    assert nxt.item.status == "in_progress"  # her first match: in play
    view = tournament_selectors.tournament_view(robin)
    seed = robin.entrants.get(player=lena).seed
    later = [i for i in view.queue if seed in (i.seed_a, i.seed_b)][0]
    busy = {i.seed_a for i in view.in_play} | {i.seed_b for i in view.in_play}
    assert {later.seed_a, later.seed_b} <= busy  # both of its players are playing now
    free = len(tournament_selectors.free_tables_for_matches())
    assert free == 1
    start, ahead, minutes = tournament_selectors.predicted_start(view, later.spec.key, free, now)
    assert minutes == 20 and ahead == 0
    assert abs((start - now).total_seconds() / 60 - 50) < 0.1


def test_an_answer_goes_back_to_a_page_of_this_site_only(lena):
    tournament = open_tournament()
    response = phone_of(lena).post(
        reverse("me:sign_up", args=[tournament.pk]), {"next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response.url == reverse("me:home")
    response = phone_of(lena).post(
        reverse("me:withdraw", args=[tournament.pk]), {"next": f"/tournaments/{tournament.pk}/"}
    )
    assert response.url == f"/tournaments/{tournament.pk}/"
