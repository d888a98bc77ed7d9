"""The ladder's rules as the regulation says them: a challenge reaches K places above, the
winner takes the higher place, a place is lost for inactivity; each refusal names its rule."""

import doctest
from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from ladder import rules
from ladder.rules import DROP, JOIN, LEAVE, NOW, WIN, Move, Past, Rules, refusal, standing

DAY = timedelta(days=1)
FOUR = ["Ann", "Bob", "Cid", "Dan"]


def test_the_examples_in_the_docstrings():
    failures, tried = doctest.testmod(rules)
    assert tried and not failures


def test_the_challenger_who_wins_takes_the_place_and_those_between_go_down_one():
    moves = [Move(JOIN, p) for p in FOUR + ["Eve"]]
    assert standing([*moves, Move(WIN, "Eve", "Bob")]) == ["Ann", "Eve", "Bob", "Cid", "Dan"]


def test_a_win_from_above_changes_nothing():
    moves = [Move(JOIN, p) for p in FOUR]
    assert standing([*moves, Move(WIN, "Ann", "Dan")]) == FOUR


def test_the_last_place_cannot_drop_and_a_player_who_leaves_is_taken_out():
    moves = [Move(JOIN, p) for p in FOUR]
    assert standing([*moves, Move(DROP, "Dan")]) == FOUR
    assert standing([*moves, Move(LEAVE, "Bob")]) == ["Ann", "Cid", "Dan"]


def test_each_rule_says_why_it_blocks():
    r = Rules(reach=2, max_open=1, rematch_days=14)
    assert refusal(r, FOUR, "Ann", "Bob", NOW, []).code == "not_above"
    assert refusal(r, FOUR, "Zed", "Bob", NOW, []).code == "not_on_ladder"
    gap = refusal(r, FOUR, "Dan", "Ann", NOW, [])
    assert (gap.code, gap.numbers) == ("out_of_reach", {"reach": 2, "gap": 3})
    busy = [Past("Cid", "Bob", NOW - DAY, True)]
    assert refusal(r, FOUR, "Cid", "Ann", NOW, busy).code == "too_many_mine"
    assert refusal(r, FOUR, "Dan", "Bob", NOW, busy).code == "too_many_theirs"
    assert refusal(r, FOUR, "Cid", "Bob", NOW, busy).code == "already_open"


def test_a_rematch_waits_and_says_until_when():
    r = Rules(rematch_days=14)
    met = [Past("Dan", "Cid", NOW - 10 * DAY, False)]
    blocked = refusal(r, FOUR, "Dan", "Cid", NOW, met)
    assert blocked.code == "rematch"
    assert blocked.until == NOW + 4 * DAY
    assert refusal(r, FOUR, "Dan", "Cid", NOW + 4 * DAY, met) is None


@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from([WIN, DROP]))))
def test_the_places_are_always_everyone_once(changes):
    players = list(range(8))
    moves = [Move(JOIN, p) for p in players]
    moves += [Move(kind, a, b) for a, b, kind in changes]
    assert sorted(standing(moves)) == players


@given(st.integers(0, 7), st.integers(0, 7))
def test_a_win_moves_only_the_players_between(low, high):
    players = list(range(8))
    after = standing([*(Move(JOIN, p) for p in players), Move(WIN, low, high)])
    top, bottom = min(low, high), max(low, high)
    assert after[:top] == players[:top]
    assert after[bottom + 1 :] == players[bottom + 1 :]


def test_an_idle_player_goes_just_below_the_player_named():
    moves = [Move(JOIN, p) for p in FOUR]
    assert standing([*moves, Move(DROP, "Ann", "Cid")]) == ["Bob", "Cid", "Ann", "Dan"]
    assert standing([*moves, Move(DROP, "Cid", "Ann")]) == ["Ann", "Bob", "Dan", "Cid"]


def test_inactivity_costs_one_place_per_period():
    r = Rules(inactive_days=30)
    assert rules.drops_due(r, NOW - 29 * DAY, 0, NOW) == 0
    assert rules.drops_due(r, NOW - 30 * DAY, 0, NOW) == 1
    assert rules.next_drop(r, NOW, 1) == NOW + 60 * DAY
