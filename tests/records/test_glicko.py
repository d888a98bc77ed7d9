"""The rating engine (records.glicko): Glickman's own worked example, the deviation over time
off, the provisional rule, the start by class, the handicap's expected score (plain Python:
no database)."""

import doctest
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from players.models import SkillClass
from records import glicko
from records.glicko import Result, Skill, rate, start, win_probability

PROPERTY = settings(max_examples=60, deadline=None)


def test_the_documented_examples_run_as_doctests():
    result = doctest.testmod(glicko)
    assert result.attempted >= 8 and result.failed == 0


def test_glickmans_worked_example(monkeypatch):
    """ "Example of the Glicko-2 system" (Glickman, 2012), step by step to its figures: a
    player rated 1500, RD 200, volatility 0.06 (τ 0.5) beats a 1400 (RD 30), loses to a 1550
    (RD 100) and to a 1700 (RD 300) in one period: 1464.06, RD 151.52, volatility 0.05999."""
    monkeypatch.setattr(glicko, "TAU", 0.5)
    player = Skill(1500, 200, 0.06)
    after = rate(
        player,
        [
            Result(Skill(1400, 30), 1.0),
            Result(Skill(1550, 100), 0.0),
            Result(Skill(1700, 300), 0.0),
        ],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    # and on Glickman's own scale: μ' −0.2069, φ' 0.8722
    assert after.mu == pytest.approx(-0.2069, abs=0.0001)
    assert after.phi == pytest.approx(0.8722, abs=0.0001)
    assert after.games == 1


def test_the_example_once_more_at_the_sites_tau_moves_only_the_volatility():
    """τ only bounds how fast the volatility may change: at the site's τ the example's rating
    is the same to the point."""
    results = [
        Result(Skill(1400, 30), 1.0),
        Result(Skill(1550, 100), 0.0),
        Result(Skill(1700, 300), 0.0),
    ]
    assert rate(Skill(1500, 200, 0.06), results).rating == pytest.approx(1464.06, abs=0.5)


def test_the_deviation_grows_with_time_off_and_is_capped():
    regular = Skill(1650, 60, 0.06, games=80, last_played=100.0)
    month, year, decade = (regular.at(100.0 + days) for days in (30, 365, 3650))
    assert regular.deviation < month.deviation < year.deviation < decade.deviation
    assert month.deviation == pytest.approx(
        glicko.SCALE * (regular.phi**2 + 0.06**2 * 30 / glicko.PERIOD_DAYS) ** 0.5
    )
    assert regular.at(100.0 + 10**7).deviation == glicko.INITIAL_RD  # never past a newcomer's
    # The deviation stands as of the day it was widened to: widening again adds nothing.
    assert (month.rating, month.games, month.last_played) == (1650, 80, 130.0)
    assert month.at(130.0) == month
    # the same day, a day before the last game, or no day at all: as it is
    assert regular.at(100.0) == regular.at(50.0) == regular.at(None) == regular


def test_after_time_off_a_result_moves_the_rating_more():
    regular = Skill(1650, 60, 0.06, games=80, last_played=0.0)
    opponent = Skill(1650, 60)
    next_day = rate(regular, [Result(opponent, 1.0)], day=1.0)
    a_year_later = rate(regular, [Result(opponent, 1.0)], day=366.0)
    assert a_year_later.rating - 1650 > next_day.rating - 1650 > 0
    assert next_day.last_played == 1.0 and a_year_later.last_played == 366.0


def test_a_deviation_wider_than_a_newcomers_is_not_narrowed_by_time():
    assert Skill(1500, 400, last_played=0.0).at(30.0).deviation == 400


@pytest.mark.parametrize(
    "deviation, games, provisional",
    [
        (350, 0, True),
        (glicko.PROVISIONAL_RD + 1, 500, True),  # many games, still unsure
        (60, glicko.PROVISIONAL_GAMES - 1, True),  # sure, too few games
        (glicko.PROVISIONAL_RD, glicko.PROVISIONAL_GAMES, False),
        (60, 200, False),
    ],
)
def test_provisional_until_the_deviation_is_small_and_enough_games(deviation, games, provisional):
    assert Skill(1500, deviation, games=games).provisional is provisional


def test_a_newcomer_who_plays_on_stops_being_provisional():
    skill, opponent = start("2"), Skill(1550, 60)
    for game in range(100):
        if not skill.provisional:
            break
        skill = rate(skill, [Result(opponent, float(game % 2))], day=float(game))
    assert glicko.PROVISIONAL_GAMES <= skill.games < 100
    assert skill.deviation <= glicko.PROVISIONAL_RD


def test_a_newcomer_starts_from_his_class():
    ladder = [start(key) for key in ("novice", "3", "2", "1", "cms", "ms")]
    assert [s.rating for s in ladder] == sorted({s.rating for s in ladder})  # rising, distinct
    # A novice — no class, most of a club — is anyone: 1500 with the widest deviation.
    assert (ladder[0].rating, ladder[0].deviation) == (1500, glicko.INITIAL_RD)
    assert {s.deviation for s in ladder[1:]} == {glicko.CLASS_RD}
    assert {s.volatility for s in ladder} == {glicko.INITIAL_VOLATILITY}
    assert all(s.games == 0 and s.last_played is None and s.provisional for s in ladder)
    for nobody in (None, "", "grandmaster"):
        assert (start(nobody).rating, start(nobody).deviation) == (1500, glicko.INITIAL_RD)
    assert glicko.CLASS_RD < glicko.INITIAL_RD  # a class says something


def test_a_start_reads_the_constants_as_it_is_made(monkeypatch):
    """What the backtest's --tune relies on: changing a constant changes the next start."""
    monkeypatch.setattr(glicko, "INITIAL_VOLATILITY", 0.05)
    monkeypatch.setattr(glicko, "CLASS_RD", 123.0)
    assert (start("2").deviation, start("2").volatility, start(None).volatility) == (
        123.0,
        0.05,
        0.05,
    )


def test_every_class_of_the_roster_has_a_start():
    assert set(glicko.START_BY_CLASS) | {"novice"} == set(SkillClass.values)


def test_beating_a_head_start_that_made_the_game_even_counts_as_beating_an_equal():
    player = Skill(1400, 80)
    stronger = Skill(1800, 50)
    handicapped = rate(player, [Result(stronger, 1.0, expected=0.5)])
    against_an_equal = rate(player, [Result(Skill(1400, 50), 1.0)])
    assert handicapped.rating == pytest.approx(against_an_equal.rating)
    assert handicapped.rating < rate(player, [Result(stronger, 1.0)]).rating  # even: less


@PROPERTY
@given(
    st.floats(1000, 2400),
    st.floats(30, 350),
    st.floats(1000, 2400),
    st.floats(30, 350),
    st.sampled_from([0.0, 0.5, 1.0]),
)
def test_a_result_moves_a_rating_the_way_it_went(rating, deviation, other, other_rd, score):
    player, opponent = Skill(rating, deviation), Skill(other, other_rd)
    after = rate(player, [Result(opponent, score)])
    expected = glicko.expected_score(player, opponent)
    # (a result a hair from its expectation, 0.5 against 0.4999999…, moves it by less than
    # floating point can tell)
    if score > expected + 1e-9:
        assert after.rating > rating
    elif score < expected - 1e-9:
        assert after.rating < rating
    # a game tells something: the deviation shrinks but for the volatility each game adds
    assert after.deviation < math.hypot(deviation, after.volatility * glicko.SCALE)
    if deviation > 100 and 0.1 < expected < 0.9:  # an unsure rating, a game with news in it
        assert after.deviation < deviation
    assert 0 < win_probability(player, opponent) < 1
    assert win_probability(player, opponent) + win_probability(opponent, player) == (
        pytest.approx(1.0)
    )


def test_the_deviations_flatten_the_odds_toward_even():
    sure = win_probability(Skill(1700, 40), Skill(1500, 40))
    unsure = win_probability(Skill(1700, 300), Skill(1500, 300))
    assert 0.5 < unsure < sure
    assert win_probability(Skill(1600, 50), Skill(1600, 300)) == 0.5


def test_no_results_is_the_skill_as_of_that_day():
    skill = Skill(1600, 80, games=12, last_played=0.0)
    assert rate(skill, [], day=60.0) == skill.at(60.0)
    assert rate(skill, []) == skill
