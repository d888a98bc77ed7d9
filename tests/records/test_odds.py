"""The odds of a race, the head starts, the fair race and the performance rating
(records.odds): properties over many cases, and a few figures by hand (plain Python: no
database)."""

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from records import odds
from records.odds import (
    fair_handicap,
    fair_race,
    form,
    performance,
    race,
    unit_probability,
    with_handicap,
)

PROPERTY = settings(max_examples=150, deadline=None)
probabilities = st.floats(0.0, 1.0)
inner = st.floats(0.001, 0.999)  # a frame neither side is sure of
middle = st.floats(0.2, 0.8)  # far enough from sure for a frame more to show in a float
# (at 0.95 a race to 1 against 12 and against 13 are both 1.0 to the last bit)
frames = st.integers(1, 12)


def test_the_documented_examples_run_as_doctests():
    result = doctest.testmod(odds)
    assert result.attempted >= 10 and result.failed == 0


def test_a_race_by_hand():
    # race to 2 at p: win both (p²), or win two of the first three with the last (2p²q)
    p = 0.6
    assert race(p, 2, 2) == pytest.approx(p**2 + 2 * p**2 * (1 - p))
    assert race(p, 1, 3) == pytest.approx(1 - (1 - p) ** 3)  # one frame before losing three
    assert race(0.5, 5, 5) == pytest.approx(0.5)
    assert race(0.5, 3, 4) == pytest.approx(0.65625)  # from 2 : 1 up in a race to 5


@PROPERTY
@given(probabilities, frames, frames)
def test_one_of_the_two_wins_the_race(p, a, b):
    assert race(p, a, b) + race(1 - p, b, a) == pytest.approx(1.0, abs=1e-9)


@PROPERTY
@given(probabilities, probabilities, frames, frames)
def test_a_better_frame_makes_a_better_race(p, q, a, b):
    low, high = sorted((p, q))
    assert race(low, a, b) <= race(high, a, b) + 1e-12


@PROPERTY
@given(middle, frames, frames)
def test_needing_fewer_frames_helps(p, a, b):
    assert race(p, a, b) < race(p, a, b + 1)  # the opponent needs one more
    if a > 1:
        assert race(p, a - 1, b) > race(p, a, b)


@given(frames)
def test_an_even_race_at_even_odds_is_a_coin_toss(n):
    assert race(0.5, n, n) == pytest.approx(0.5, abs=1e-12)


@PROPERTY
@given(inner, frames)
def test_a_longer_race_favours_the_favourite_more(p, n):
    if p > 0.5:
        assert race(p, n + 1, n + 1) >= race(p, n, n) - 1e-12


@PROPERTY
@given(inner, st.integers(1, 71))
def test_the_ball_by_ball_probability_gives_back_the_frame(p, target):
    q = unit_probability(p, target)
    assert 0 <= q <= 1
    assert race(q, target, target) == pytest.approx(p, abs=1e-9)


@PROPERTY
@given(st.floats(0.01, 0.99), st.integers(2, 15), st.data())
def test_a_bigger_head_start_helps_the_weaker(p, target, data):
    head_start = data.draw(st.integers(0, target - 2))
    assert with_handicap(p, target, head_start) < with_handicap(p, target, head_start + 1)
    assert with_handicap(p, target, head_start, 0) < with_handicap(p, target, head_start, 1)
    assert with_handicap(p, target, 0) == pytest.approx(p, abs=1e-9)  # no head start: as it was


def test_the_clubs_head_starts_by_hand():
    # 8–7 and 8–6 for a player who wins 36 % of even frames (a gap of 100 points)
    p = 1 / (1 + 10 ** (100 / 400))
    q = unit_probability(p, 8)
    assert with_handicap(p, 8, 1) == pytest.approx(race(q, 7, 8))
    assert with_handicap(p, 8, 2) == pytest.approx(race(q, 6, 8))
    assert 0.36 < with_handicap(p, 8, 1) < with_handicap(p, 8, 2)


@PROPERTY
@given(st.floats(0.5, 0.999), st.integers(1, 11))
def test_the_fair_race_is_the_closest_to_even_of_all_head_starts(p, race_to):
    fair = fair_race(p, race_to)
    assert 0 <= fair.head_start < race_to
    assert fair.probability == race(p, race_to, race_to - fair.head_start)
    for head_start in range(race_to):
        assert abs(fair.probability - 0.5) <= abs(race(p, race_to, race_to - head_start) - 0.5)


@PROPERTY
@given(st.floats(0.5, 0.99), st.integers(2, 15), st.integers(0, 20))
def test_the_fair_handicap_is_the_closest_to_even_of_all_head_starts(p, target, most):
    fair = fair_handicap(p, target, most)
    assert 0 <= fair.head_start <= min(most, target - 1)
    for head_start in range(min(most, target - 1) + 1):
        stronger = 1 - with_handicap(1 - p, target, head_start)
        assert abs(fair.probability - 0.5) <= abs(stronger - 0.5) + 1e-12


def test_an_even_game_needs_no_head_start():
    assert fair_race(0.5, 5).head_start == 0
    assert fair_handicap(0.5, 8, 4).head_start == 0
    assert fair_race(0.9, 5).head_start > fair_race(0.6, 5).head_start


results = st.lists(
    st.tuples(st.floats(1000, 2400), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=30
)


@PROPERTY
@given(results)
def test_the_performance_rating_expects_the_score_made(run):
    value, error = performance(run)
    score = sum(s for _r, s in run)
    opponents = [r for r, _s in run]
    if 0 < score < len(run):
        expected = sum(odds.elo_expected(value, r) for r in opponents)
        assert expected == pytest.approx(score, abs=1e-6)
    elif score == 0:
        assert value == min(opponents) - odds.PERFECT
    else:
        assert value == max(opponents) + odds.PERFECT
    assert error > 0 and math.isfinite(error)


def test_the_performance_of_half_the_points_against_one_rating_is_that_rating():
    value, error = performance([(1650, 1), (1650, 0)] * 5)
    assert value == pytest.approx(1650, abs=0.01)
    # more games, a smaller error
    assert performance([(1650, 1), (1650, 0)] * 20)[1] < error
    with pytest.raises(ValueError):
        performance([])


def test_form_flags_a_run_far_above_the_rating():
    run = [(1500, 1)] * 9 + [(1500, 0)]  # 9 of 10 against 1500s: a 1880 performance
    flagged = form(run, rating=1350, deviation=60)
    assert flagged.flagged and flagged.z > odds.FORM_Z
    assert flagged.performance == pytest.approx(performance(run)[0])


def test_form_does_not_flag_a_short_lucky_run():
    lucky = form([(1500, 1)] * 3, rating=1350, deviation=60)  # three wins: +400, but three
    assert not lucky.flagged
    assert lucky.performance == 1900 and lucky.z > 0


def test_form_allows_for_an_unsure_rating():
    run = [(1500, 1)] * 9 + [(1500, 0)]
    assert form(run, 1350, 60).flagged
    assert not form(run, 1350, 350).flagged  # a newcomer's rating could be that far off


@PROPERTY
@given(st.floats(1200, 2000), st.integers(1, 15), st.floats(30, 350))
def test_form_never_flags_a_run_at_or_below_the_rating(rating, games, deviation):
    run = [(rating, 1), (rating, 0)] * games  # half the points against one's own rating
    assert not form(run, rating, deviation).flagged
    assert not form([(rating, 0)] * games, rating, deviation).flagged
