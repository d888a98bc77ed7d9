"""Glicko-2 ratings with their uncertainty, one game at a time: the pure rating engine.

No Django, no database (``.importlinter``: like the rules, the brackets and the prices). The
site's ratings (``records.rating``) feed it the stored games in order; the backtest
(``bench/rating_backtest.py``) feeds it synthetic histories.

Why Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012)
    Each person has a rating, a *deviation* (RD: how sure the rating is, in rating points)
    and a volatility (how erratic his results are). A result against a sure opponent moves a
    rating more than one against an unsure one; an unsure rating moves more than a sure one;
    the deviation shrinks with each game and grows back while a person does not play. The
    backtest compared it with the plain Elo the site had (K 32) and with "always 50 %": it
    predicts the next frame and the next match better on every synthetic history (the
    figures are in the README). Its one pass over the games in order is what makes the site's
    incremental path and a rebuild give the same numbers.

Games one at a time
    Glicko-2 rates "periods"; here every game is a period of its own: the time since a
    person's previous game widens his deviation first, ``φ² + σ² · days / PERIOD_DAYS``
    (never past ``INITIAL_RD``, a newcomer's, unless it was wider), then the game adds its
    own ``σ²`` (Glickman's step 6) and its result narrows it. So the volatility σ is what
    keeps a rating moving, as Elo's K does: a regular's deviation settles near 45 points at
    σ 0.03. A game of several players (cork) is his results against each of the others in
    one period, as Glicko-2 rates several games of a period.

Where a person starts
    From his sports class (разряд, ``START_BY_CLASS``) with the deviation ``CLASS_RD``; a
    novice — most of a club's players, who have no class — at 1500 with ``INITIAL_RD``. A
    rating is provisional while its deviation is above ``PROVISIONAL_RD`` or it has fewer
    than ``PROVISIONAL_GAMES`` games.

A handicap game
    The game is rated as the handicap made it: the caller passes the expected score the
    handicap leaves (``Result.expected``, from ``records.odds``), so beating a head start
    that made the game even counts as beating an equal, not as beating a stronger player.

The constants, as the backtest chose them (``bench/rating_backtest.py --tune``: the mean
log-loss over its six synthetic histories, frames / matches, one constant changed at a time)
    ``INITIAL_VOLATILITY`` 0.03, not Glickman's 0.06: with a game a period, 0.06 keeps the
    ratings too jumpy for a club's many frames; 0.03 predicts every synthetic history better
    (0.5310 → 0.5275 a frame, 0.4412 → 0.4311 a match; with ``CLASS_RD`` below, the two
    from 0.5319 and 0.4434), 0.02–0.03 alike, 0.03 the best where people change (improvers,
    sandbaggers).
    ``CLASS_RD`` 200, not 250: a narrower start predicts better still (100–150 best), but
    only because the backtest's classes place a player within about 110 points of the truth;
    a club's classes are older and looser (a sandbagger claims a low one), so 200.
    ``TAU`` (0.2–1.2) and ``PERIOD_DAYS`` (7–120) change nothing the backtest can see (under
    0.0003), so Glickman's 0.5 and a month stay. ``START_BY_CLASS`` stays: the backtest's
    classes are its own assumption, which it cannot tune. ``PROVISIONAL_RD`` 110 and
    ``PROVISIONAL_GAMES`` 10 stay: in the backtest a rating's error (RMS, against the true
    strength) is 110 points before 5 games, 97 at 5–9, 90 at 10–19 (RD 100), 72 at 20–49.

>>> a, b = Skill(), Skill()
>>> a2 = rate(a, [Result(b, 1.0)])
>>> round(a2.rating), round(a2.deviation)
(1662, 290)
>>> round(rate(b, [Result(a, 0.0)]).rating)
1338
>>> opponents = [Skill(1400, 30), Skill(1550, 100), Skill(1700, 300)]
>>> example = rate(Skill(1500, 200, 0.06), [Result(opponents[0], 1.0),  # Glickman's example
...     Result(opponents[1], 0.0), Result(opponents[2], 0.0)])
>>> round(example.rating, 2), round(example.deviation, 2), round(example.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's own units to rating points
INITIAL = 1500.0
INITIAL_RD = 350.0  # a person of no known class
CLASS_RD = 200.0  # a person whose class says roughly where he stands
INITIAL_VOLATILITY = 0.03  # Glickman's: 0.06 (see "The constants" above)
TAU = 0.5  # how fast the volatility may change (Glickman: 0.3–1.2)
PERIOD_DAYS = 30.0  # the time in which a deviation grows by one volatility
PROVISIONAL_RD = 110.0
PROVISIONAL_GAMES = 10
# The class (players.SkillClass's keys) -> where a newcomer starts.
START_BY_CLASS = {"3": 1600.0, "2": 1700.0, "1": 1800.0, "cms": 1950.0, "ms": 2100.0}
EPSILON = 1e-6


@dataclass(frozen=True)
class Skill:
    """A person's rating, its deviation and volatility, his rated games and the day (any
    epoch) the deviation stands as of: his last game, or the day ``at`` widened it to (None
    before his first game)."""

    rating: float = INITIAL
    deviation: float = INITIAL_RD
    volatility: float = INITIAL_VOLATILITY
    games: int = 0
    last_played: float | None = None

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_RD or self.games < PROVISIONAL_GAMES

    @property
    def mu(self) -> float:
        return (self.rating - INITIAL) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    def at(self, day: float | None) -> Skill:
        """This skill as of ``day``: its deviation widened by the time since the last game."""
        if day is None or self.last_played is None or day <= self.last_played:
            return self
        periods = (day - self.last_played) / PERIOD_DAYS
        phi = math.sqrt(self.phi**2 + self.volatility**2 * periods)
        return Skill(
            self.rating,
            min(phi * SCALE, max(self.deviation, INITIAL_RD)),
            self.volatility,
            self.games,
            day,
        )


def start(skill_class: str | None) -> Skill:
    """A newcomer's skill: from his class when he has one.

    >>> start("cms").rating, start("cms").deviation, start("novice").rating, start(None).deviation
    (1950.0, 200.0, 1500.0, 350.0)
    """
    if skill_class in START_BY_CLASS:
        return Skill(START_BY_CLASS[skill_class], CLASS_RD, INITIAL_VOLATILITY)
    return Skill(INITIAL, INITIAL_RD, INITIAL_VOLATILITY)


@dataclass(frozen=True)
class Result:
    """One result of a game against one opponent: ``score`` 1, ½ or 0; ``expected`` the
    expected score the game's handicap left (None: as the two skills say)."""

    opponent: Skill
    score: float
    expected: float | None = None


def g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi**2)


def expected_score(skill: Skill, opponent: Skill) -> float:
    """Glicko-2's expected score of ``skill`` against ``opponent`` (the opponent's
    deviation flattens it)."""
    return 1.0 / (1.0 + math.exp(-g(opponent.phi) * (skill.mu - opponent.mu)))


def win_probability(skill: Skill, opponent: Skill) -> float:
    """The probability that ``skill`` wins one frame: both deviations flatten it.

    >>> round(win_probability(Skill(1700, 50), Skill(1500, 50)), 3)
    0.755
    >>> round(win_probability(Skill(1700, 350), Skill(1500, 350)), 3)
    0.65
    """
    spread = math.sqrt(skill.phi**2 + opponent.phi**2)
    return 1.0 / (1.0 + math.exp(-g(spread) * (skill.mu - opponent.mu)))


def rate(skill: Skill, results: list[Result], day: float | None = None) -> Skill:
    """``skill`` after one game's ``results`` (Glicko-2's step for one period), played on
    ``day``. No results: the skill as of that day."""
    skill = skill.at(day)
    if not results:
        return skill
    mu, phi, sigma = skill.mu, skill.phi, skill.volatility
    info = 0.0  # 1 / v
    gain = 0.0  # Σ g (s − E)
    for result in results:
        weight = g(result.opponent.phi)
        expected = result.expected
        if expected is None:
            expected = expected_score(skill, result.opponent)
        expected = min(max(expected, 1e-9), 1 - 1e-9)
        info += weight * weight * expected * (1.0 - expected)
        gain += weight * (result.score - expected)
    v = 1.0 / info
    delta = v * gain
    sigma = _volatility(phi, sigma, v, delta)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Skill(
        INITIAL + SCALE * new_mu,
        SCALE * new_phi,
        sigma,
        skill.games + 1,
        skill.last_played if day is None else day,
    )


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Glickman's step 5: the new volatility (the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(100):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
