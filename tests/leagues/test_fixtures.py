"""The league engine: its examples (doctests) and its properties (hypothesis)."""

import datetime as dt
import doctest
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues import fixtures
from leagues.fixtures import Result, Rules, match_dates, round_robin, standings


def test_the_examples():
    assert doctest.testmod(fixtures).failed == 0


@given(st.integers(min_value=2, max_value=24), st.booleans())
def test_each_pair_meets_once_per_round_robin_no_team_twice_a_day(n, double):
    rounds = round_robin(list(range(n)), double=double)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n) * (2 if double else 1)
    pairs = Counter(frozenset(pair) for day in rounds for pair in day)
    assert set(pairs) == {frozenset((a, b)) for a in range(n) for b in range(a + 1, n)}
    assert set(pairs.values()) == {2 if double else 1}
    for day in rounds:
        teams = [team for pair in day for team in pair]
        assert len(teams) == len(set(teams))
        assert len(day) == n // 2  # with a bye, one team rests


@given(st.integers(min_value=2, max_value=24), st.booleans())
def test_home_and_away_balanced_within_one(n, double):
    homes, aways = Counter(), Counter()
    for day in round_robin(list(range(n)), double=double):
        for home, away in day:
            homes[home] += 1
            aways[away] += 1
    for team in range(n):
        assert abs(homes[team] - aways[team]) <= (0 if double else 1)


def test_a_double_round_robin_swaps_home_and_away():
    rounds = round_robin("ABCD", double=True)
    assert rounds[3:] == [[(b, a) for a, b in day] for day in rounds[:3]]


@given(
    st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2030, 1, 1)),
    st.integers(min_value=0, max_value=6),
    st.integers(min_value=1, max_value=20),
    st.sets(st.integers(min_value=0, max_value=200), max_size=10),
)
def test_match_dates_on_the_night_holidays_skipped(start, weekday, count, offsets):
    holidays = {start + dt.timedelta(days=offset) for offset in offsets}
    dates = match_dates(start, weekday, count, holidays)
    assert len(dates) == count
    assert all(day.weekday() == weekday and day >= start for day in dates)
    assert not holidays & set(dates)
    assert dates == sorted(set(dates))
    assert dates[0] - start < dt.timedelta(days=7 * (len(holidays) + 1))


def test_a_bad_weekday_or_team_list_is_refused():
    with pytest.raises(ValueError):
        match_dates(dt.date(2026, 1, 1), 7, 1)
    with pytest.raises(ValueError):
        round_robin(["A", "A"])
    with pytest.raises(ValueError):
        Rules(tie_breaks=("luck",))


def test_points_per_frame_and_a_forfeits_penalty():
    rules = Rules(win=0, draw=0, loss=0, per_frame=1, forfeit_penalty=2)
    table = standings("AB", [Result("A", "B", 3, 2), Result("B", "A", 5, 0, forfeit="A")], rules)
    assert [(row.team, row.points, row.won, row.lost, row.forfeits) for row in table] == [
        ("B", 7, 1, 1, 0),
        ("A", 1, 1, 1, 1),
    ]


def test_head_to_head_breaks_a_tie_on_points_before_frames():
    # A beat B, B beat C, C beat A, and all beat D: A, B and C tie on points and among
    # themselves (one win each), so only the frames part them.
    results = [
        Result("A", "B", 3, 2),
        Result("B", "C", 5, 0),
        Result("C", "A", 3, 2),
        Result("A", "D", 5, 0),
        Result("B", "D", 5, 0),
        Result("C", "D", 5, 0),
    ]
    by_points = standings("ABCD", results, Rules(tie_breaks=("points", "head_to_head")))
    assert [(row.team, row.place) for row in by_points] == [
        ("A", 1),
        ("B", 1),
        ("C", 1),
        ("D", 4),
    ]
    by_frames = standings(
        "ABCD", results, Rules(tie_breaks=("points", "head_to_head", "frames_difference"))
    )
    # frames: A 10:5 (+5), B 12:3 (+9), C 8:7 (+1)
    assert [row.team for row in by_frames] == ["B", "A", "C", "D"]
    assert [row.place for row in by_frames] == [1, 2, 3, 4]


def test_head_to_head_between_two_tied_teams():
    results = [Result("A", "B", 2, 3), Result("A", "C", 5, 0), Result("C", "B", 4, 1)]
    table = standings("ABC", results, Rules(tie_breaks=("points", "head_to_head")))
    # A 2 points, B 2, C 2: all tied, the mini-league among all three is the whole table.
    assert {row.place for row in table} == {1}
    table = standings(
        "ABC",
        results + [Result("B", "C", 3, 2)],
        Rules(tie_breaks=("points", "head_to_head", "frames_won")),
    )
    assert [(row.team, row.points) for row in table][0] == ("B", 4)
    # A and C on 2 points each: A beat C, so A is above C.
    assert [row.team for row in table] == ["B", "A", "C"]


@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5), st.integers(0, 5)))
)
def test_the_standings_count_every_match_twice(matches):
    results = [Result(a, b, x, y) for a, b, x, y in matches if a != b]
    table = standings(range(4), results, Rules())
    assert sum(row.played for row in table) == 2 * len(results)
    assert sum(row.won for row in table) == sum(row.lost for row in table)
    assert [row.place for row in table] == sorted(row.place for row in table)
    points = [row.points for row in table]
    assert points == sorted(points, reverse=True)


# --- line-ups with doubles ------------------------------------------------------------------

DOUBLES_FORMAT = [{"race_to": 2}, {"race_to": 2}, {"race_to": 1, "doubles": True}]


def test_a_player_may_play_one_singles_and_one_doubles_game():
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [1, 2, [1, 2]]) is None
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [1, 2, [3, 4]]) is None


def test_no_player_twice_in_the_singles_nor_twice_in_one_pair_nor_in_two_pairs():
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [1, 1, [2, 3]]) == fixtures.SINGLES_TWICE
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [1, 2, [3, 3]]) == fixtures.SAME_PAIR
    two_pairs = DOUBLES_FORMAT + [{"race_to": 1, "doubles": True}]
    assert fixtures.line_up_refusal(two_pairs, [1, 2, [1, 3], [3, 4]]) == fixtures.DOUBLES_TWICE
    assert fixtures.line_up_refusal(two_pairs, [1, 2, [1, 3], [2, 4]]) is None


def test_a_pair_where_a_player_is_due_or_the_reverse_is_no_line_up():
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [1, 2, 3]) == fixtures.SHAPE
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [[1, 2], 3, [4, 5]]) == fixtures.SHAPE
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [1, 2, [3, 4, 5]]) == fixtures.SHAPE
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, [1, 2]) == fixtures.SHAPE


def test_a_draft_may_leave_choices_out_a_locked_line_up_may_not():
    draft = [None, 2, [3, None]]
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, draft, complete=False) is None
    assert fixtures.line_up_refusal(DOUBLES_FORMAT, draft) == fixtures.MISSING
    # A draft is checked all the same for what it names.
    refused = fixtures.line_up_refusal(DOUBLES_FORMAT, [2, 2, [None, None]], complete=False)
    assert refused == fixtures.SINGLES_TWICE


@given(st.lists(st.one_of(st.none(), st.integers(1, 6), st.lists(st.integers(1, 6), max_size=3))))
def test_the_players_of_a_line_up_each_once_in_order(entries):
    players = fixtures.line_up_players(entries)
    assert len(players) == len(set(players)) and None not in players
    named = [p for e in entries for p in (e if isinstance(e, list) else [e]) if p is not None]
    assert set(players) == set(named)
    assert players == sorted(set(named), key=named.index)
