"""The odds of a race, the fair race and a performance rating: pure arithmetic (no Django).

A frame is won with probability ``p`` (``records.glicko.win_probability`` of the two
ratings), each frame on its own. Then the probability of winning a race is exact:

race(p, a, b)
    The probability of winning ``a`` frames before the opponent wins ``b``:
    ``Σ_{k=0}^{b−1} C(a−1+k, k) · p^a · (1−p)^k`` (the last frame is won, k of the others
    lost). "Race to 5" is race(p, 5, 5); "race 5 vs 4" (a head start of one frame to the
    opponent) race(p, 5, 4); from 2 : 1 up in a race to 5, race(p, 3, 4).

A game's own handicap (the pyramid games' head start, "8–7")
    A frame is a race of balls: whoever pockets ``target`` balls first. The ball-by-ball
    probability ``q`` is the one for which race(q, T, T) equals the frame's ``p``
    (``unit_probability``); then a head start of h balls to the weaker, and the first r pots
    of the stronger returned, make his frame race(q, T − h, T + r). A game of points (71,
    61) is read in balls too, a ball being T / 8 points (the clubs' rule of thumb): a
    fraction of a ball lies between its two neighbours.

The fair race
    Of the head starts the weaker may get (0 … N − 1 frames, or 0 … T − 1 balls), the one that
    brings his odds closest to even, with the odds it leaves (``fair_race``, ``fair_handicap``).

A performance rating
    The rating that would have predicted the results: the R for which the expected scores
    against the opponents' ratings (the Elo curve, which Glicko-2's is on its own scale) add up
    to the score made; all won or all lost, 400 points past the best or worst opponent (as
    FIDE's "+400" reads a perfect score). ``performance`` gives it with its standard error;
    ``form`` says whether a run of results is above a rating by more than its uncertainty and
    the run's allow.

>>> round(race(0.6, 5, 5), 3), round(race(0.5, 5, 4), 3), round(race(0.5, 3, 4), 3)
(0.733, 0.363, 0.656)
>>> fair_race(0.7, 5)  # doctest: +ELLIPSIS
Fair(head_start=3, probability=0.420...)
>>> round(performance([(1500, 1), (1500, 0)])[0])
1500
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ELO = math.log(10) / 400  # the Elo curve's slope on the natural-log scale
PERFECT = 400.0  # past the best (worst) opponent, for an unbeaten (winless) run
FORM_Z = 2.0  # a run this many standard deviations above the rating is flagged


def race(p: float, need: int, opponent_needs: int) -> float:
    """The probability of winning ``need`` frames before the opponent wins ``opponent_needs``.

    >>> race(0.5, 1, 1), race(0.3, 0, 4), race(0.9, 3, 0)
    (0.5, 1.0, 0.0)
    """
    if need <= 0:
        return 1.0
    if opponent_needs <= 0:
        return 0.0
    p = min(max(p, 0.0), 1.0)
    total = 0.0
    for k in range(opponent_needs):
        total += math.comb(need - 1 + k, k) * p**need * (1.0 - p) ** k
    return min(total, 1.0)


def unit_probability(p: float, target: int) -> float:
    """The ball-by-ball (point-by-point) probability that makes a race of ``target`` balls a
    frame won with probability ``p``.

    >>> round(unit_probability(0.5, 8), 3), round(race(unit_probability(0.7, 8), 8, 8), 3)
    (0.5, 0.7)
    """
    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        if race(middle, target, target) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def with_handicap(p_weaker: float, target: int, head_start: float = 0, returned: int = 0) -> float:
    """The weaker player's probability of winning a frame to ``target`` balls with a head
    start of ``head_start`` balls (a fraction lies between its two neighbours: a head start
    in points read as balls), the stronger's first ``returned`` pots spotted again.

    >>> round(with_handicap(0.36, 8, 1), 3)   # a 100-point gap at "8–7"
    0.468
    >>> round(with_handicap(0.36, 8, 1.5), 3)
    0.527
    """
    q = unit_probability(p_weaker, target)
    low = int(head_start)
    chance = race(q, target - low, target + returned)
    part = head_start - low
    if part <= 0:
        return chance
    return (1 - part) * chance + part * race(q, target - low - 1, target + returned)


@dataclass(frozen=True)
class Fair:
    """A head start for the weaker player and the odds of the stronger it leaves."""

    head_start: int
    probability: float


def fair_race(p_stronger: float, race_to: int) -> Fair:
    """The head start in frames (0 … race_to − 1) closest to even for a race to ``race_to``."""
    options = [Fair(h, race(p_stronger, race_to, race_to - h)) for h in range(race_to)]
    return min(options, key=lambda fair: (abs(fair.probability - 0.5), fair.head_start))


def fair_handicap(p_stronger: float, target: int, max_head_start: int) -> Fair:
    """The game's own head start in balls (0 … max_head_start) closest to even."""
    q = unit_probability(1.0 - p_stronger, target)  # the weaker's, once: as with_handicap's
    options = [
        Fair(h, 1.0 - race(q, target - h, target))
        for h in range(min(max_head_start, target - 1) + 1)
    ]
    return min(options, key=lambda fair: (abs(fair.probability - 0.5), fair.head_start))


def elo_expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + math.exp(-ELO * (rating - opponent)))


def performance(results: list[tuple[float, float]]) -> tuple[float, float]:
    """(performance rating, its standard error) of ``results``: (opponent's rating, score).

    >>> perf, error = performance([(1600, 1), (1600, 1), (1600, 0), (1600, 0.5)])
    >>> round(perf), round(error)
    (1689, 179)
    >>> round(performance([(1500, 1), (1700, 1)])[0])
    2100
    """
    if not results:
        raise ValueError("no results")
    opponents = [rating for rating, _score in results]
    score = sum(score for _rating, score in results)
    if score <= 0:
        value = min(opponents) - PERFECT
    elif score >= len(results):
        value = max(opponents) + PERFECT
    else:
        low, high = min(opponents) - 2 * PERFECT, max(opponents) + 2 * PERFECT
        for _ in range(60):
            middle = (low + high) / 2
            if sum(elo_expected(middle, rating) for rating in opponents) < score:
                low = middle
            else:
                high = middle
        value = (low + high) / 2
    information = sum(
        ELO**2 * elo_expected(value, rating) * (1 - elo_expected(value, rating))
        for rating in opponents
    )
    return value, 1.0 / math.sqrt(information)


@dataclass(frozen=True)
class Form:
    """A run of results set against a rating: its performance, how many standard deviations
    above the rating it is, and whether that is beyond what the two uncertainties allow."""

    performance: float
    error: float
    rating: float
    deviation: float
    z: float

    @property
    def flagged(self) -> bool:
        return self.z > FORM_Z


def form(results: list[tuple[float, float]], rating: float, deviation: float) -> Form:
    """The run ``results`` against ``rating`` ± ``deviation``.

    >>> form([(1500, 1)] * 9 + [(1500, 0)], 1350, 60).flagged
    True
    >>> form([(1500, 1), (1500, 0)], 1350, 60).flagged
    False
    """
    value, error = performance(results)
    z = (value - rating) / math.sqrt(error**2 + deviation**2)
    return Form(value, error, rating, deviation, z)
