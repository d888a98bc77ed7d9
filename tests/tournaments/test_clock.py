"""The tournament clock (issue 34 item 3): the pure thresholds and the evening's predicted
end (``tournaments.clock``), then the desk, the TV board and the wall showing a slow match."""

import datetime as dt
import re

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse
from django.utils import timezone

from tournaments import clock, selectors, services
from tournaments.clock import Job
from tournaments.forms import TournamentForm
from tournaments.models import Match, Tournament

from .test_tournaments import make_tournament, start

NOW = dt.datetime(2026, 12, 4, 19, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("race", range(1, 10))
def test_thresholds_are_seven_and_ten_minutes_per_frame_the_race_can_last(race):
    frames = 2 * race - 1
    assert clock.thresholds(race) == (7 * frames, 10 * frames)
    warn, alarm = 7 * frames * 60, 10 * frames * 60
    assert clock.level(warn, race) == ""  # at the threshold: not yet
    assert clock.level(warn + 1, race) == clock.WARN
    assert clock.level(alarm, race) == clock.WARN
    assert clock.level(alarm + 1, race) == clock.ALARM


def test_head_starts_shorten_the_race_and_the_minutes_per_frame_can_be_changed():
    assert clock.max_frames(5, 1, 0) == 8  # 4 + 5 − 1
    assert clock.max_frames(1, 0, 0) == 1 and clock.max_frames(2, 1, 1) == 1
    assert clock.thresholds(3, warn=5, alarm=8) == (25, 40)
    assert clock.level(26 * 60, 3, warn=5, alarm=8) == clock.WARN


def minutes(moment):
    return (moment - NOW).total_seconds() / 60


def test_predicted_end_lays_the_matches_left_on_the_tables():
    # Nothing left: the end is now (or when the last match in play ends).
    assert clock.predicted_end(NOW, [NOW], []) == NOW
    in_play = NOW + dt.timedelta(minutes=25)
    assert clock.predicted_end(NOW, [NOW, in_play], []) == in_play
    # Four semi-final-like matches on two tables, a final after two of them.
    jobs = [Job(k, 30) for k in "abcd"] + [Job("f", 50, after=("a", "d"))]
    laid = clock.schedule(NOW, [NOW, NOW], jobs)
    assert [minutes(laid[k][0]) for k in "abcdf"] == [0, 0, 30, 30, 60]
    assert minutes(clock.predicted_end(NOW, [NOW, NOW], jobs)) == 110
    # One table: one after another.
    assert minutes(clock.predicted_end(NOW, [NOW], jobs)) == 170
    # A match waiting for one already played (not among the jobs) is not held up.
    assert minutes(clock.predicted_end(NOW, [NOW], [Job("x", 20, after=("done",))])) == 20


def test_predicted_end_keeps_a_player_to_one_match_at_a_time():
    # Round robin of three on two tables: every match shares a player with the others.
    jobs = [Job("1", 30, people=(1, 2)), Job("2", 30, people=(1, 3)), Job("3", 30, people=(2, 3))]
    assert minutes(clock.predicted_end(NOW, [NOW, NOW], jobs)) == 90
    # A player busy elsewhere for 40 minutes: his match waits, the other goes first.
    busy = {1: NOW + dt.timedelta(minutes=40)}
    laid = clock.schedule(
        NOW, [NOW], [Job("1", 30, people=(1, 2)), Job("2", 30, people=(3, 4))], busy
    )
    assert minutes(laid["2"][0]) == 0 and minutes(laid["1"][0]) == 40
    ready_later = Job("late", 10, ready_at=NOW + dt.timedelta(minutes=15))
    assert minutes(clock.predicted_end(NOW, [NOW], [ready_later])) == 25


def _called_long_ago(tournament, tables, minutes_ago):
    """The first ready match called to table 1, started ``minutes_ago``."""
    key = selectors.tournament_view(tournament).queue[0].spec.key
    match = services.start_tournament_match(
        tournament=tournament, key=key, table=tables[0], marker=None
    )
    started = timezone.now() - dt.timedelta(minutes=minutes_ago)
    Match.objects.filter(pk=match.pk).update(started_at=started)
    return match


def flag(html):
    """The clock's state and its words as the page shows them."""
    found = re.search(r'data-level="(\w*)"[^>]*>.*?data-clock-flag[^>]*>([^<]*)<', html, re.S)
    return found.groups() if found else None


@pytest.mark.parametrize(
    ("minutes_ago", "level", "word"),
    [(10, "", ""), (40, "warn", "долго"), (55, "alarm", "слишком долго")],
)
def test_the_desk_board_and_wall_flag_a_slow_match(
    admin_client, client, tables, minutes_ago, level, word
):
    """A race to 3 (five frames at most): slow past 35 minutes, too slow past 50."""
    tournament, _players = make_tournament("single", n=4, race_upper=3, race_final=3)
    start(tournament)
    _called_long_ago(tournament, tables, minutes_ago)
    desk = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    board = client.get(reverse("tournaments:board", args=[tournament.pk])).content.decode()
    wall = client.get(reverse("games:wall")).content.decode()
    for html in (desk, board, wall):
        assert "js/match-clock.js" in html
        assert flag(html) == (level, word)
        assert f'data-warn="{35 * 60}" data-alarm="{50 * 60}"' in html
    assert re.search(rf"0:{minutes_ago:02d}:0\d", desk)


def test_the_desk_predicts_the_evenings_end_in_the_clubs_time(admin_client, tables, settings):
    settings.TIME_ZONE = "Europe/Moscow"
    tournament, _players = make_tournament("single", n=4, race_upper=2, race_final=2)
    start(tournament)
    view = selectors.tournament_view(tournament)
    now = timezone.now()
    # No frame recorded: 20 minutes a frame, a race to 2 expected to last 2.5 frames (50
    # minutes); two semi-finals on the three tables at once, then the final: 100 minutes.
    end = selectors.predicted_end(view, 3, now)
    assert (end - now).total_seconds() / 60 == pytest.approx(100)
    desk = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    expected = timezone.localtime(end, timezone.get_fixed_timezone(180)).strftime("%H:%M")
    shown = re.search(r"data-predicted-end[^>]*>[^<]*~(\d\d:\d\d)", desk).group(1)
    # The render is a moment after ``now``: the same minute, or the next.
    later = timezone.localtime(end, timezone.get_fixed_timezone(180)) + dt.timedelta(minutes=1)
    assert shown in (expected, later.strftime("%H:%M"))
    # One table: the two semi-finals one after the other, then the final.
    assert (selectors.predicted_end(view, 1, now) - now).total_seconds() / 60 == pytest.approx(150)


def test_a_tournament_sets_its_own_minutes_per_frame(admin_client, client, tables):
    """Slow past 5 and too slow past 8 minutes a frame: a race to 3 after 25 and 40."""
    tournament, _players = make_tournament("single", n=4, race_upper=3, race_final=3)
    Tournament.objects.filter(pk=tournament.pk).update(slow_minutes=5, too_slow_minutes=8)
    tournament.refresh_from_db()
    start(tournament)
    _called_long_ago(tournament, tables, 30)
    desk = admin_client.get(reverse("tournaments:manage", args=[tournament.pk])).content.decode()
    wall = client.get(reverse("games:wall")).content.decode()
    for html in (desk, wall):
        assert flag(html) == ("warn", "долго")
        assert f'data-warn="{25 * 60}" data-alarm="{40 * 60}"' in html


def test_too_slow_comes_after_slow_in_the_form(admin_client):
    tournament, _players = make_tournament("single", n=4, race_upper=3, race_final=3)
    form = TournamentForm(
        data={**model_to_dict(tournament), "slow_minutes": 9, "too_slow_minutes": 9},
        instance=tournament,
    )
    assert not form.is_valid() and "too_slow_minutes" in form.errors
