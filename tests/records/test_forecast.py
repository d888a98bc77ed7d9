"""The odds as the pages read them (``records.forecast``): of a frame from two skills, a
pyramid game's own handicap counted; of a race before it and from its frame score; the fair
race and the fair game handicap with the odds they leave; a guest and a newcomer."""

import pytest

from records import forecast, glicko, odds
from records.forecast import Side
from tests.factories import player
from tests.helpers import fixed_skills

STRONG = glicko.Skill(1720, 60, games=80)
WEAK = glicko.Skill(1540, 90, games=25)
NEWCOMER = glicko.start(None)


def sides(a=STRONG, b=WEAK):
    return Side("Anna", a), Side("Boris", b)


def test_a_frame_is_the_two_skills_win_probability():
    a, b = sides()
    p = forecast.frame_probability("clockwise", a.skill, b.skill)
    assert p == glicko.win_probability(STRONG, WEAK)
    assert 0.5 < p < 1
    assert forecast.frame_probability("clockwise", b.skill, a.skill) == pytest.approx(1 - p)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_pyramid_head_start_makes_the_frame_a_race_of_balls(seat):
    p = glicko.win_probability(STRONG, WEAK)
    settings = {"weaker_seat": str(seat), "head_start": 2, "returned_pots": 1}
    found = forecast.frame_probability("pyramid_free", STRONG, WEAK, settings)
    if seat == 0:  # the stronger receives it: even more his
        assert found == pytest.approx(odds.with_handicap(p, 8, 2, 1))
        assert found > p
    else:
        assert found == pytest.approx(1 - odds.with_handicap(1 - p, 8, 2, 1))
        assert found < p


def test_a_head_start_in_points_counts_a_ball_as_target_over_8_points():
    p = glicko.win_probability(STRONG, WEAK)
    two_balls = {"weaker_seat": "1", "head_start": 18, "target": 72}  # 72 / 8 = 9 points a ball
    found = forecast.frame_probability("pyramid_classic", STRONG, WEAK, two_balls)
    assert found == pytest.approx(1 - odds.with_handicap(1 - p, 8, 2))
    between = {"weaker_seat": "1", "head_start": 13, "target": 72}  # 13/9 balls: one and more
    middle = forecast.frame_probability("pyramid_classic", STRONG, WEAK, between)
    assert found < middle < 1 - odds.with_handicap(1 - p, 8, 1)


@pytest.mark.parametrize(
    "given",
    [None, {}, {"head_start": 0}, {"weaker_seat": "x", "head_start": 2}, {"head_start": "zwei"}],
)
def test_no_or_bad_settings_leave_the_frame_as_the_skills_say(given):
    p = glicko.win_probability(STRONG, WEAK)
    assert forecast.frame_probability("pyramid_free", STRONG, WEAK, given) == p
    assert forecast.game_handicap("pyramid_free", given) is None


def test_other_games_handicaps_are_not_modelled():
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": "0"}
    p = glicko.win_probability(STRONG, WEAK)
    assert forecast.frame_probability("cue_run", STRONG, WEAK, settings) == p


def test_a_race_before_and_now_from_the_frame_score():
    a, b = sides()
    before = forecast.match_odds("clockwise", a, b, 5)
    p = before.frame
    assert before.race == odds.race(p, 5, 5)
    assert before.now == before.race and not before.started
    two_one = forecast.match_odds("clockwise", a, b, 5, score=(2, 1))
    assert two_one.now == odds.race(p, 3, 4)  # from 2 : 1 up in a race to 5
    assert two_one.race == before.race and two_one.started
    assert two_one.now > before.race
    over = forecast.match_odds("clockwise", a, b, 5, score=(5, 3))
    assert over.now == 1.0 and over.decided
    assert forecast.percents(over.now) == (100, 0)


def test_a_head_start_race_5_vs_4():
    a, b = sides()
    found = forecast.match_odds("clockwise", a, b, 5, head_starts=(0, 1))
    assert found.needs == (5, 4) and found.score == (0, 1)
    assert found.race == odds.race(found.frame, 5, 4)
    assert found.now == found.race and not found.started
    assert forecast.match_odds("clockwise", a, b, 5, head_starts=(0, 9)).needs == (5, 1)


def test_the_fair_race_is_the_head_start_closest_to_even():
    a, b = sides()
    found = forecast.match_odds("clockwise", a, b, 5)
    fair = found.fair
    assert fair.side == "b" and fair.head_start > 0  # the weaker receives it
    assert fair.probability == odds.race(found.frame, 5, 5 - fair.head_start)
    every = [odds.race(found.frame, 5, 5 - h) for h in range(5)]
    assert abs(fair.probability - 0.5) == min(abs(q - 0.5) for q in every)
    assert fair.needs == (5, 5 - fair.head_start)
    # read from the other side: the same race, A receiving it
    mirrored = forecast.match_odds("clockwise", b, a, 5).fair
    assert (mirrored.side, mirrored.head_start) == ("a", fair.head_start)
    assert mirrored.probability == pytest.approx(1 - fair.probability)


def test_equals_need_no_head_start():
    even = forecast.match_odds("clockwise", *sides(WEAK, WEAK), 3)
    assert even.fair == forecast.FairRace("", 0, 0.5, 3)
    assert forecast.percents(even.race) == (50, 50)


def test_the_fair_game_handicap_in_balls():
    p = glicko.win_probability(STRONG, WEAK)
    fair = forecast.fair_handicap("pyramid_free", p)
    expected = odds.fair_handicap(p, 8, 7)
    assert (fair.seat, fair.head_start, fair.in_balls) == (1, expected.head_start, True)
    assert fair.probability == pytest.approx(expected.probability)
    assert fair.shorthand == f"8–{8 - expected.head_start}"
    settings = {"weaker_seat": "1", "head_start": fair.head_start}
    assert forecast.frame_probability("pyramid_free", STRONG, WEAK, settings) == pytest.approx(
        fair.probability
    )
    assert forecast.fair_handicap("pyramid_free", 1 - p).seat == 0
    assert forecast.fair_handicap("clockwise", p) is None


def test_the_fair_game_handicap_in_points_is_the_closest_to_even():
    p = glicko.win_probability(STRONG, WEAK)
    fair = forecast.fair_handicap("pyramid_classic", p, {"target": 51})
    assert (fair.target, fair.in_balls, fair.seat) == (51, False, 1)
    chance = [
        forecast.frame_probability(
            "pyramid_classic", STRONG, WEAK, {"target": 51, "weaker_seat": "1", "head_start": h}
        )
        for h in range(51)
    ]
    assert fair.probability == pytest.approx(chance[fair.head_start])
    assert abs(fair.probability - 0.5) == pytest.approx(min(abs(c - 0.5) for c in chance))


@pytest.mark.parametrize(
    ("probability", "shown"),
    [(0.714, (71, 29)), (0.5, (50, 50)), (0.996, (99, 1)), (0.003, (1, 99)), (0.0, (0, 100))],
)
def test_percentages_add_up_and_say_100_only_once_decided(probability, shown):
    assert forecast.percents(probability) == shown


def test_chances_and_the_flipped_odds():
    a, b = sides(STRONG, NEWCOMER)
    found = forecast.match_odds("clockwise", a, b, 3, score=(1, 0))
    chances = found.now_chances
    assert chances.names == ("Anna", "Boris")
    assert chances.provisional == (False, True)  # a newcomer's odds are uncertain
    assert chances.percents == forecast.percents(found.now)
    flipped = found.flipped()
    assert flipped.now == pytest.approx(1 - found.now)
    assert flipped.now_chances.names == ("Boris", "Anna")
    assert flipped.now_chances.percents == chances.percents[::-1]
    assert flipped.fair.side == "a" and flipped.flipped().fair == found.fair


def test_snapshots_keep_a_skill_and_refuse_anything_else():
    skill = glicko.Skill(1612.345678, 87.654321, 0.061, 14)
    kept = forecast.from_snapshot(forecast.snapshot(skill))
    assert kept.rating == pytest.approx(skill.rating, abs=1e-3)
    assert kept.deviation == pytest.approx(skill.deviation, abs=1e-3)
    assert (kept.games, kept.provisional) == (14, skill.provisional)
    for bad in (None, {}, [], "x", {"rating": "x", "deviation": 1}, {"rating": 1}):
        assert forecast.from_snapshot(bad) is None


@pytest.mark.django_db
def test_a_guest_and_a_newcomer_start_as_the_engine_starts_them(monkeypatch):
    known = fixed_skills(monkeypatch)
    regular, newcomer = player("Регуляр"), player("Новичок", skill_class="cms")
    known[regular.pk] = STRONG
    assert forecast.side("pyramid_free", regular).skill == STRONG
    assert forecast.side("pyramid_free", newcomer).skill == glicko.start("cms")
    guest = forecast.side("pyramid_free", "Гость Гостев")
    assert (guest.name, guest.skill, guest.provisional) == ("Гость Гостев", NEWCOMER, True)
    assert forecast.skill_for("pyramid", None) == NEWCOMER


@pytest.mark.django_db
def test_a_newcomer_without_games_reads_the_real_ratings():
    """No stub: the site's ratings (``records.rating.skill_of``) of a person of no games."""
    cms = player("Мастер", skill_class="cms")
    skill = forecast.side("clockwise", cms).skill
    assert skill == glicko.start("cms") and skill.provisional
