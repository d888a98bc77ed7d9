"""The odds of a game and of a match as the pages show them: read from the two players'
ratings (``records.rating.skill_of``) with the pure engines — ``records.glicko`` for the
probability of one frame, ``records.odds`` for a race, the fair race and a game's own handicap.

Reads only, and nothing is kept between calls: every figure is computed from the skills
asked for (the ratings keep their own store), so no club ever reads another's leftovers.

A seat
    A ``players.Player`` (his skill in the game's rating family, from his class while he has
    no rated game), or a guest (None or his name): nobody the ratings know, so he starts as
    ``glicko.start(None)`` — 1500 ± 350, provisional. A skill stays provisional while its
    deviation is wide or its games few (``glicko.Skill.provisional``): the pages mark it «П»,
    since the odds of a newcomer are uncertain.

A frame (``frame_probability``)
    ``glicko.win_probability`` of the two skills. A pyramid game's own handicap (its settings
    ``weaker_seat``, ``head_start``, ``returned_pots``) makes the frame a race of balls with a
    head start: ``odds.with_handicap`` (where balls score their number, a ball counts as
    target / 8 points: a head start of 9 points in a game to 71 is about one ball). The
    other games' handicaps (strokes given in «Кладка шаров кием», the roles of «Снимание шаров
    рукой») are not modelled: their odds are those of equal terms.

A match (``match_odds``)
    A race to N with head starts: the probability before it, ``race(p, N − h_a, N − h_b)``,
    and now, from the frame score (from 2 : 1 up in a race to 5: ``race(p, 3, 4)``).

The fair race (``fair_race``) and the fair game handicap (``fair_handicap``)
    The head start in frames (or, for the pyramid games, in balls or points before the break)
    for the weaker player that brings the odds closest to even, with the odds it leaves.

>>> even = match_odds("pyramid_free", Side("A", glicko.Skill()), Side("B", glicko.Skill()), 3)
>>> round(even.frame, 3), round(even.race, 3), even.fair
(0.5, 0.5, FairRace(side='', head_start=0, probability=0.5, race_to=3))
"""

from __future__ import annotations

from dataclasses import dataclass

from games import rules
from records import glicko, odds, rating

HEAD_START_GAMES = (rules.ADVICE_HEAD_START_BALLS, rules.ADVICE_HEAD_START_POINTS)
BALLS_PER_FRAME = 8  # a pyramid frame's target in balls; in a game of points a ball is T / 8


@dataclass(frozen=True)
class Side:
    """One side of a game or a match: the name the pages show and the skill the odds read."""

    name: str
    skill: glicko.Skill

    @property
    def provisional(self) -> bool:
        return self.skill.provisional


@dataclass(frozen=True)
class Chances:
    """Two sides' chances as a page shows them: names, whole percentages that add up to 100
    (never 0 or 100 while it is not decided), provisional marks; ``probability`` the first's."""

    names: tuple[str, str]
    percents: tuple[int, int]
    provisional: tuple[bool, bool]
    probability: float


@dataclass(frozen=True)
class FairRace:
    """The head start in frames that brings a race closest to even: ``side`` ("a" or "b", ""
    for none) receives ``head_start``; ``probability`` is A's chance of the race with it."""

    side: str
    head_start: int
    probability: float
    race_to: int

    @property
    def needs(self) -> tuple[int, int]:
        """Frames A and B need with it: "race 5 vs 3"."""
        return (
            self.race_to - (self.head_start if self.side == "a" else 0),
            self.race_to - (self.head_start if self.side == "b" else 0),
        )

    def flipped(self) -> FairRace:
        side = {"a": "b", "b": "a"}.get(self.side, "")
        return FairRace(side, self.head_start, 1.0 - self.probability, self.race_to)


@dataclass(frozen=True)
class FairHandicap:
    """A game's own handicap closest to even: the seat (0 or 1) that receives ``head_start``
    balls (points) before the break; ``probability`` is the first seat's chance of the frame
    with it."""

    seat: int
    head_start: int
    probability: float
    target: int
    in_balls: bool

    @property
    def shorthand(self) -> str:
        """The club's notation of a head start in balls: "8–6"."""
        return f"{self.target}–{self.target - self.head_start}"


@dataclass(frozen=True)
class Odds:
    """The odds of A against B: of one frame, and of a race to ``race_to`` (0: a single game)
    with the frames each needed at the start (``needs``) and has now (``score``, head starts
    included). Probabilities are A's."""

    a: Side
    b: Side
    frame: float
    race_to: int = 0
    needs: tuple[int, int] = (1, 1)
    score: tuple[int, int] = (0, 0)
    fair: FairRace | None = None

    @property
    def is_match(self) -> bool:
        return self.race_to > 0

    @property
    def race(self) -> float:
        """A's chance of the race (the game) before it."""
        return odds.race(self.frame, *self.needs)

    @property
    def remaining(self) -> tuple[int, int]:
        if not self.is_match:
            return self.needs
        return (self.race_to - self.score[0], self.race_to - self.score[1])

    @property
    def now(self) -> float:
        """A's chance of the race from the frame score."""
        return odds.race(self.frame, *self.remaining)

    @property
    def started(self) -> bool:
        """Whether a frame has been won since the start (the odds now differ from before)."""
        return self.is_match and self.remaining != self.needs

    @property
    def decided(self) -> bool:
        return min(self.remaining) <= 0

    def chances(self, probability: float) -> Chances:
        return Chances(
            (self.a.name, self.b.name),
            percents(probability),
            (self.a.provisional, self.b.provisional),
            probability,
        )

    @property
    def frame_chances(self) -> Chances:
        return self.chances(self.frame)

    @property
    def race_chances(self) -> Chances:
        return self.chances(self.race)

    @property
    def now_chances(self) -> Chances:
        return self.chances(self.now)

    @property
    def fair_chances(self) -> Chances | None:
        return self.chances(self.fair.probability) if self.fair is not None else None

    def flipped(self) -> Odds:
        """The same odds read from B's side (a page that shows B first: the frame's seats)."""
        return Odds(
            self.b,
            self.a,
            1.0 - self.frame,
            self.race_to,
            self.needs[::-1],
            self.score[::-1],
            self.fair.flipped() if self.fair is not None else None,
        )


def percents(probability: float) -> tuple[int, int]:
    """Whole percentages of the two sides, adding up to 100; 0 and 100 only when decided.

    >>> percents(0.714), percents(0.996), percents(1.0), percents(0.5)
    ((71, 29), (99, 1), (100, 0), (50, 50))
    """
    first = round(probability * 100)
    if 0.0 < probability < 1.0:
        first = min(99, max(1, first))
    return first, 100 - first


# --- the seats' skills ---------------------------------------------------------------------


def skill_for(family: str, seat) -> glicko.Skill:
    """A Player's skill in ``family``; a guest's (None, or a name): a newcomer's of no class."""
    if seat is None or isinstance(seat, str):
        return glicko.start(None)
    return rating.skill_of(family, seat.pk, seat.skill_class)


def side(variant: str, seat, name: str | None = None) -> Side:
    """A seat of ``variant`` (a Player or a guest's name) as a Side."""
    if name is None:
        name = seat if isinstance(seat, str) else seat.display_name if seat is not None else ""
    return Side(name, skill_for(rating.family_of(variant), seat))


def snapshot(skill: glicko.Skill) -> dict:
    """A skill as stored with a match at its start (JSON)."""
    return {
        "rating": round(skill.rating, 3),
        "deviation": round(skill.deviation, 3),
        "volatility": round(skill.volatility, 6),
        "games": skill.games,
    }


def from_snapshot(data) -> glicko.Skill | None:
    """The skill ``snapshot`` stored (None for anything else)."""
    try:
        return glicko.Skill(
            float(data["rating"]),
            float(data["deviation"]),
            float(data.get("volatility", glicko.INITIAL_VOLATILITY)),
            int(data.get("games", 0)),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


# --- a frame -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameHandicap:
    """A pyramid game's own handicap in force: who receives it (seat 0 or 1), the head start
    (balls, or points), the stronger's pots returned, of a frame to ``target``."""

    seat: int
    head_start: int
    returned: int
    target: int
    in_balls: bool

    @property
    def units(self) -> tuple[float, int]:
        """(the head start, the frame's target) in balls: a game of points counts a ball as
        ``target / 8`` points (the club's rule of thumb, as the handicap advice's)."""
        if self.in_balls:
            return float(self.head_start), self.target
        return self.head_start * BALLS_PER_FRAME / self.target, BALLS_PER_FRAME


def game_handicap(variant: str, settings=None) -> GameHandicap | None:
    """The handicap ``settings`` give a game of ``variant`` (settings as the start form and a
    match write them: seat 0 is the first seat, player A); None without one, for a game whose
    handicap is not a head start, or for settings the game refuses."""
    game = rules.get_variant(variant)
    if game.handicap_advice not in HEAD_START_GAMES or not settings:
        return None
    try:
        parsed = game.settings_from_dict({**settings, "players": 2})
        handicap, target = parsed.handicap, parsed.target
    except (rules.SettingsError, AttributeError, TypeError, ValueError):
        return None
    if not handicap.active:
        return None
    in_balls = game.handicap_advice == rules.ADVICE_HEAD_START_BALLS
    return GameHandicap(
        handicap.weaker_seat, handicap.head_start, handicap.returned_pots, target, in_balls
    )


def receiver_chance(p: float, head_start: float, target: int, returned: int = 0) -> float:
    """The chance of a frame to ``target`` balls of the player who receives ``head_start``
    balls (a fraction: between its two neighbours) and ``returned`` pots, ``p`` his chance
    on equal terms (``odds.with_handicap``)."""
    return odds.with_handicap(p, target, head_start, returned)


def frame_probability(variant: str, a: glicko.Skill, b: glicko.Skill, settings=None) -> float:
    """The first seat's (A's) chance of one frame, the game's own handicap included."""
    p = glicko.win_probability(a, b)
    handicap = game_handicap(variant, settings)
    if handicap is None:
        return p
    head_start, target = handicap.units
    if handicap.seat == 0:
        return receiver_chance(p, head_start, target, handicap.returned)
    return 1.0 - receiver_chance(1.0 - p, head_start, target, handicap.returned)


# --- the fair race and the fair game handicap ----------------------------------------------


def fair_race(p: float, race_to: int) -> FairRace:
    """The head start in frames for the weaker (A's frame chance ``p``) closest to even."""
    if p >= 0.5:
        fair = odds.fair_race(p, race_to)
        return FairRace("b" if fair.head_start else "", fair.head_start, fair.probability, race_to)
    fair = odds.fair_race(1.0 - p, race_to)
    return FairRace(
        "a" if fair.head_start else "", fair.head_start, 1.0 - fair.probability, race_to
    )


def handicap_target(variant: str, settings=None) -> tuple[int, int] | None:
    """(the frame's target, the largest head start the game allows) of a head start game
    (None for another), with ``settings``' target (classic pyramid: 71, or 51…)."""
    game = rules.get_variant(variant)
    if game.handicap_advice not in HEAD_START_GAMES:
        return None
    base = {k: v for k, v in (settings or {}).items() if k not in ("head_start", "players")}
    try:
        target = game.settings_from_dict({**base, "players": 2, "head_start": 0}).target
    except (rules.SettingsError, AttributeError, TypeError, ValueError):
        target = game.settings_from_dict({"players": 2}).target
    field = next(f for f in game.settings_fields if f.name == "head_start")
    largest = target - 1 if field.max_value is None else min(field.max_value, target - 1)
    return target, largest


def fair_handicap(variant: str, p: float, settings=None) -> FairHandicap | None:
    """The pyramid game's head start before the break (balls, or points) for the weaker
    closest to even, with the first seat's frame chance it leaves; ``p`` is the first seat's
    chance on equal terms. None for a game without a head start."""
    found = handicap_target(variant, settings)
    if found is None:
        return None
    target, largest = found
    in_balls = rules.get_variant(variant).handicap_advice == rules.ADVICE_HEAD_START_BALLS
    seat = 1 if p >= 0.5 else 0  # the weaker receives it
    stronger = max(p, 1.0 - p)
    if in_balls:
        fair = odds.fair_handicap(stronger, target, largest)
        head_start, chance = fair.head_start, fair.probability
    else:  # each head start in points, as a fraction of a ball of target / 8 points
        q = odds.unit_probability(1.0 - stronger, BALLS_PER_FRAME)
        by_ball = [odds.race(q, BALLS_PER_FRAME - n, BALLS_PER_FRAME) for n in range(9)]

        def weaker(points):
            balls = min(points * BALLS_PER_FRAME / target, BALLS_PER_FRAME)
            low = min(int(balls), BALLS_PER_FRAME - 1)
            return by_ball[low] + (balls - low) * (by_ball[low + 1] - by_ball[low])

        options = [(abs(0.5 - weaker(h)), h) for h in range(largest + 1)]
        head_start = min(options)[1]
        chance = 1.0 - weaker(head_start)
    first = chance if seat == 1 else 1.0 - chance
    return FairHandicap(seat, head_start, first, target, in_balls)


# --- a game, a match ------------------------------------------------------------------------


def game_odds(variant: str, a: Side, b: Side, settings=None) -> Odds:
    """The odds of one game (a frame) between ``a`` and ``b``."""
    return Odds(a, b, frame_probability(variant, a.skill, b.skill, settings))


def match_odds(
    variant: str,
    a: Side,
    b: Side,
    race_to: int,
    head_starts: tuple[int, int] = (0, 0),
    score: tuple[int, int] | None = None,
    settings=None,
) -> Odds:
    """The odds of a race to ``race_to`` with ``head_starts`` (frames counted won before the
    first one), from the frame ``score`` (head starts included; None: not started), each
    frame played with ``settings`` (a pyramid game's own handicap counts)."""
    race_to = max(1, int(race_to))
    head_a, head_b = (min(max(0, int(h)), race_to - 1) for h in head_starts)
    p = frame_probability(variant, a.skill, b.skill, settings)
    needs = (race_to - head_a, race_to - head_b)
    score = (head_a, head_b) if score is None else (int(score[0]), int(score[1]))
    return Odds(a, b, p, race_to, needs, score, fair_race(p, race_to))
