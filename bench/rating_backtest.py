"""Backtest of the ratings: how well each predicts the next frame and the next match (issue 33).

    .venv/bin/python bench/rating_backtest.py           # six synthetic histories and the demo
    .venv/bin/python bench/rating_backtest.py --smoke   # small histories, the demo without its
                                                        # billing history (the same games:
                                                        # it adds none): seconds, no verdict
    .venv/bin/python bench/rating_backtest.py --tune    # the engine's constants, one at a time
    .venv/bin/python bench/rating_backtest.py --no-demo # the synthetic histories only

The synthetic histories are club histories with known true strengths (on the rating scale:
a 200-point gap wins 76 % of frames), deterministic from ``--seed``. Players of every class
come to the club on some evenings, some join late, some take months off, and whoever is there
plays whoever is free: a match is a race to N frames (a sequence of frames between two
players). A frame is played ball by ball, each ball won with the probability that makes the
true strengths' frame odds (``odds.unit_probability``), so a head start in balls ("8–7") acts
as it does at the table. The histories:

    steady       nobody changes; races to 1–5
    improvers    two in five of the lower classes gain 150–450 points over some months
    sandbaggers  six strong players claim a low class and play 300 points below their strength
                 for their first four months, then at full strength
    handicaps    pyramid frames with a head start in balls (8–7, 8–6 …) the club chooses for
                 the weaker from its current ratings (its own Elo with a start by class, so
                 the histories do not depend on the engine measured)
    long-races   races to 5–9, most with a head start in frames the club chooses likewise
                 ("race 7 vs 5")
    cork         evenings of «Пробка» for 3–6 players (each pair of a game is one result,
                 the order of finish drawn from the true strengths) beside two-player races

and the demo club's history: the finished games and matches ``manage.py load_demo_club``
makes, in a throwaway SQLite database (whatever DATABASE_URL says), each family of games
rated on its own (its results are the demo marker's random strokes, so nobody there is
stronger: "always 50 %" is the truth there and the other two can only lose to it).

Three predictors see each history in order, and before each frame and each match is played
say the probability that its first-named player wins it:

    engine  records.glicko: a newcomer starts from his class, each frame is rated as it
            comes (a handicap frame with ``Result.expected`` from ``odds.with_handicap``,
            a cork game as the results against each other player); a frame's probability is
            ``glicko.win_probability`` (through the head start: ``odds.with_handicap``), a
            match's ``odds.race`` of it from the frames each needs
    elo     what the site had (records/rating.py up to 41d5cc6): every rating starts at 1500,
            K 32, a handicap game rated as an even one (expected ½), a cork game K/(N−1)
            Σ(S − E); its probabilities through the same head-start and race arithmetic
    even    always 50 %

Printed: the log-loss (natural log, lower is better; 50 % everywhere gives ln 2 = 0.6931) of
the frames and of the matches, one line per history:

    log-loss <history>: engine <x>, elo <y>, even <z>
    log-loss <history> matches: engine <x>, elo <y>, even <z>

then where the engine's gain comes from (beside it the engine with every newcomer at 1500,
and Elo from the club's start by class), the accuracy (the share of results the predictor's
favourite won, a 50 % call counting half), the calibration (by decile of the prediction:
the mean predicted and the observed rate of the first-named player's wins) and, on the
synthetic histories, how far the engine's rating is from the truth by the games a person has
played (what the provisional mark is for). Exit status 1 if the engine's log-loss is not
below Elo's, frames and matches, on every synthetic history (the demo's are shown, not
judged).
"""

from __future__ import annotations

import argparse
import io
import math
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from records import glicko, odds  # noqa: E402

LOGISTIC = math.log(10) / 400  # the rating scale: a gap of d points wins 1/(1+10^(−d/400))
TARGET = 8  # the pyramid's balls to win a frame
MAX_HEAD_START = 4  # the club gives at most "8–4"
CLIP = 1e-6

# The synthetic club's classes: (key, mean true strength, its spread, share of the players).
CLASSES = [
    ("novice", 1250, 110, 30),
    ("3", 1450, 70, 24),
    ("2", 1575, 70, 20),
    ("1", 1700, 70, 14),
    ("cms", 1850, 70, 8),
    ("ms", 2000, 70, 4),
]
# The club's own ratings, from which it chooses head starts: Elo K 32 from a start by class.
CLUB_START = {"novice": 1350, "3": 1450, "2": 1550, "1": 1650, "cms": 1800, "ms": 1950}
CLUB_K = 32.0


def frame_odds(strength_a: float, strength_b: float) -> float:
    return 1.0 / (1.0 + math.exp(-LOGISTIC * (strength_a - strength_b)))


# --- what a history is ------------------------------------------------------------------------


@dataclass(frozen=True)
class Handicap:
    """A frame's own handicap: the ``weaker`` ("a" or "b") needs ``target − head_start``
    balls, the other ``target + returned``; ``target`` 0: a handicap meant to make the game
    even, of a kind the odds cannot read (the demo's «Снимание шаров рукой» …): 50 %."""

    target: int
    head_start: int
    returned: int
    weaker: str

    def apply(self, p_a: float) -> float:
        """a's probability of winning the frame, from his probability in an even frame."""
        if not self.target:
            return 0.5
        if self.weaker == "a":
            return odds.with_handicap(p_a, self.target, self.head_start, self.returned)
        return 1.0 - odds.with_handicap(1.0 - p_a, self.target, self.head_start, self.returned)

    def flipped(self) -> Handicap:
        return Handicap(
            self.target, self.head_start, self.returned, "b" if self.weaker == "a" else "a"
        )


@dataclass
class Match:
    """A race between a and b: a needs ``need_a`` frames, b ``need_b`` (a head start in frames
    makes them differ); ``frames`` the frames' results for a (1, ½ or 0), in order; ``won``
    whether a won the match (1, 0; None: the frames say)."""

    day: float
    a: str
    b: str
    need_a: int
    need_b: int
    frames: list[float]
    handicap: Handicap | None = None
    won: float | None = None

    @property
    def result(self) -> float:
        if self.won is not None:
            return self.won
        return 1.0 if sum(f == 1 for f in self.frames) >= self.need_a else 0.0


@dataclass
class Cork:
    """A game of several players: ``places`` (person, place; 0 the best), equal places drawn."""

    day: float
    places: list[tuple[str, int]]


@dataclass
class History:
    name: str
    classes: dict[str, str | None]  # person -> his class (None: none known)
    events: list[Match | Cork]
    synthetic: bool = True
    truth: dict[str, Person] = field(default_factory=dict)  # person -> his true strength

    @property
    def frames(self) -> int:
        frames = sum(len(e.frames) for e in self.events if isinstance(e, Match))
        return frames + sum(
            len(list(combinations(e.places, 2))) for e in self.events if isinstance(e, Cork)
        )

    @property
    def matches(self) -> int:
        return sum(isinstance(e, Match) for e in self.events)


# --- the synthetic histories ------------------------------------------------------------------


@dataclass
class Person:
    name: str
    skill_class: str  # what he says
    strength: float  # his true strength when he joins
    joined: float
    activity: float  # the share of evenings he comes
    gain: float = 0.0  # an improver: points gained from ``ramp[0]`` to ``ramp[1]``
    ramp: tuple[float, float] = (0.0, 1.0)
    sandbag: tuple[float, float] = (0.0, 0.0)  # (until which day, how many points below)
    away: tuple[float, float] = (0.0, 0.0)  # (from, to): months off

    def true(self, day: float) -> float:
        start, end = self.ramp
        progress = min(max((day - start) / (end - start), 0.0), 1.0)
        below = self.sandbag[1] if day < self.sandbag[0] else 0.0
        return self.strength + self.gain * progress - below

    def present(self, day: float, rng: random.Random) -> bool:
        if day < self.joined or self.away[0] <= day < self.away[1]:
            return False
        return rng.random() < self.activity


@dataclass(frozen=True)
class Spec:
    name: str
    races: tuple[int, ...] = (1, 2, 3, 3, 4, 5)  # race to N, drawn from these
    improvers: float = 0.0  # the share of novices, 3rd and 2nd classes who improve
    sandbaggers: int = 0
    handicaps: float = 0.0  # the share of matches played with a head start in balls
    frame_head_starts: float = 0.0  # the share of matches with a head start in frames
    cork: float = 0.0  # the chance of an evening's cork game


SPECS = [
    Spec("steady"),
    Spec("improvers", improvers=0.4),
    Spec("sandbaggers", sandbaggers=6),
    Spec("handicaps", handicaps=0.8),
    Spec("long-races", races=(5, 6, 7, 8, 9), frame_head_starts=0.7),
    Spec("cork", races=(1, 1, 2, 3), cork=0.8),
]


def people(spec: Spec, rng: random.Random, count: int, days: int) -> list[Person]:
    crowd = []
    weights = [share for *_rest, share in CLASSES]
    for number in range(count):
        key, mean, spread, _share = rng.choices(CLASSES, weights)[0]
        person = Person(
            name=f"p{number:03d}",
            skill_class=key,
            strength=rng.gauss(mean, spread),
            # two in three are there from the start, the others join along the way
            joined=0.0 if rng.random() < 0.65 else rng.uniform(0, days * 0.8),
            activity=rng.choice([0.05, 0.1, 0.2, 0.3, 0.5]),
        )
        if rng.random() < 0.15:  # months off
            leaves = rng.uniform(person.joined, days)
            person.away = (leaves, leaves + rng.uniform(60, 180))
        if spec.improvers and key in ("novice", "3", "2") and rng.random() < spec.improvers:
            begins = person.joined + rng.uniform(0, days * 0.4)
            person.gain = rng.uniform(150, 450)
            person.ramp = (begins, begins + rng.uniform(90, 300))
        crowd.append(person)
    for person in rng.sample(crowd, spec.sandbaggers):
        # strong, says he is of a low class, plays below his strength, then does not
        person.skill_class = rng.choice(["novice", "3"])
        person.strength = rng.gauss(1800, 80)
        person.activity = max(person.activity, 0.2)
        person.sandbag = (person.joined + 120, 300.0)
    return crowd


class Club:
    """The club's own ratings, from which it chooses the head starts (Elo K 32, start by
    class; a handicap frame rated as an even one, as the site's Elo did)."""

    def __init__(self, crowd):
        self.ratings = {p.name: float(CLUB_START[p.skill_class]) for p in crowd}

    def odds(self, a: str, b: str) -> float:
        return frame_odds(self.ratings[a], self.ratings[b])

    def record(self, a: str, b: str, score: float, even: bool) -> None:
        expected = 0.5 if even else self.odds(a, b)
        self.ratings[a] += CLUB_K * (score - expected)
        self.ratings[b] -= CLUB_K * (score - expected)


def play_frame(rng: random.Random, p_a: float, handicap: Handicap | None) -> float:
    """One frame ball by ball: each ball to a with the probability that makes ``p_a`` his
    odds of an even frame; the head start counts as balls already on the weaker's shelf."""
    if handicap is None:
        return 1.0 if rng.random() < p_a else 0.0  # an even race of balls: the same odds
    q = odds.unit_probability(p_a, handicap.target)
    need_a, need_b = handicap.target, handicap.target
    if handicap.weaker == "a":
        need_a, need_b = need_a - handicap.head_start, need_b + handicap.returned
    else:
        need_a, need_b = need_a + handicap.returned, need_b - handicap.head_start
    while need_a > 0 and need_b > 0:
        if rng.random() < q:
            need_a -= 1
        else:
            need_b -= 1
    return 1.0 if need_a <= 0 else 0.0


def synthetic(spec: Spec, seed: int, count: int, days: int) -> History:
    rng = random.Random(f"{spec.name}:{seed}")
    crowd = people(spec, rng, count, days)
    by_name = {p.name: p for p in crowd}
    club = Club(crowd)
    events: list[Match | Cork] = []
    for evening in range(days):
        day = float(evening)
        here = [p.name for p in crowd if p.present(day, rng)]
        rng.shuffle(here)
        if spec.cork and len(here) >= 3 and rng.random() < spec.cork:
            size = rng.randint(3, min(6, len(here)))
            players, here = here[:size], here[size:]
            # the order of finish: Plackett–Luce, which makes each pair's odds the Elo curve's
            drawn = {
                n: LOGISTIC * by_name[n].true(day) - math.log(-math.log(rng.random()))
                for n in players
            }
            order = sorted(players, key=drawn.get, reverse=True)
            events.append(Cork(day, [(n, order.index(n)) for n in players]))
            for x, y in combinations(players, 2):
                club.record(x, y, 1.0 if order.index(x) < order.index(y) else 0.0, False)
        for a, b in zip(here[0::2], here[1::2], strict=False):
            events.append(match(spec, rng, club, day, by_name[a], by_name[b]))
    return History(spec.name, {p.name: p.skill_class for p in crowd}, events, True, by_name)


def match(spec, rng, club, day, a: Person, b: Person) -> Match:
    race_to = rng.choice(spec.races)
    p_club = club.odds(a.name, b.name)
    weaker = "a" if p_club < 0.5 else "b"
    stronger_odds = max(p_club, 1 - p_club)
    need = {"a": race_to, "b": race_to}
    handicap = None
    if spec.handicaps and rng.random() < spec.handicaps:
        fair = odds.fair_handicap(stronger_odds, TARGET, MAX_HEAD_START)
        if fair.head_start:
            handicap = Handicap(TARGET, fair.head_start, 0, weaker)
    if spec.frame_head_starts and rng.random() < spec.frame_head_starts:
        need[weaker] -= odds.fair_race(stronger_odds, race_to).head_start
    frames: list[float] = []
    won = {"a": 0, "b": 0}
    while won["a"] < need["a"] and won["b"] < need["b"]:
        score = play_frame(rng, frame_odds(a.true(day), b.true(day)), handicap)
        frames.append(score)
        won["a" if score else "b"] += 1
        club.record(a.name, b.name, score, handicap is not None)
    return Match(day, a.name, b.name, need["a"], need["b"], frames, handicap)


# --- the predictors ---------------------------------------------------------------------------


class Predictor:
    """A predictor's calls; a match's from its frame's probability: the race of the frames
    each needs."""

    label = ""

    def match(self, p_frame: float, need_a: int, need_b: int) -> float:
        return odds.race(p_frame, need_a, need_b)


class Engine(Predictor):
    """records.glicko, a frame at a time."""

    label = "engine"

    def __init__(self, classes):
        self.classes = classes
        self.skills: dict[str, glicko.Skill] = {}

    def stored(self, name: str) -> glicko.Skill:
        skill = self.skills.get(name)
        return skill if skill is not None else glicko.start(self.classes.get(name))

    def now(self, name: str, day: float) -> glicko.Skill:
        return self.stored(name).at(day)

    def frame(self, a: str, b: str, day: float, handicap: Handicap | None) -> float:
        p = glicko.win_probability(self.now(a, day), self.now(b, day))
        return handicap.apply(p) if handicap else p

    def record(self, a: str, b: str, day: float, handicap: Handicap | None, score: float):
        now_a, now_b = self.now(a, day), self.now(b, day)
        expected_a = expected_b = None
        if handicap is not None:
            expected_a = handicap.apply(glicko.expected_score(now_a, now_b))
            expected_b = handicap.flipped().apply(glicko.expected_score(now_b, now_a))
        self.skills[a] = glicko.rate(self.stored(a), [glicko.Result(now_b, score, expected_a)], day)
        self.skills[b] = glicko.rate(
            self.stored(b), [glicko.Result(now_a, 1 - score, expected_b)], day
        )

    def cork(self, day: float, places: list[tuple[str, int]]):
        now = {name: self.now(name, day) for name, _place in places}
        for name, place in places:
            results = [
                glicko.Result(now[other], _score(place, other_place))
                for other, other_place in places
                if other != name
            ]
            self.skills[name] = glicko.rate(self.stored(name), results, day)


class Elo(Predictor):
    """The site's Elo (records/rating.py up to 41d5cc6)."""

    label = "elo"
    INITIAL, K = 1500.0, 32.0

    def __init__(self, classes):
        self.ratings: dict[str, float] = {}

    def expected(self, a: str, b: str) -> float:
        return frame_odds(self.ratings.get(a, self.INITIAL), self.ratings.get(b, self.INITIAL))

    def frame(self, a, b, day, handicap):
        p = self.expected(a, b)
        return handicap.apply(p) if handicap else p

    def record(self, a, b, day, handicap, score):
        change = self.K * (score - (0.5 if handicap is not None else self.expected(a, b)))
        self.ratings[a] = self.ratings.get(a, self.INITIAL) + change
        self.ratings[b] = self.ratings.get(b, self.INITIAL) - change

    def cork(self, day, places):
        changes = {
            name: self.K
            / (len(places) - 1)
            * sum(
                _score(place, op) - self.expected(name, other)
                for other, op in places
                if other != name
            )
            for name, place in places
        }
        for name, change in changes.items():
            self.ratings[name] = self.ratings.get(name, self.INITIAL) + change


class Even(Predictor):
    label = "even"

    def __init__(self, classes):
        pass

    def match(self, p_frame, need_a, need_b):
        return 0.5

    def frame(self, a, b, day, handicap):
        return 0.5

    def record(self, a, b, day, handicap, score):
        pass

    def cork(self, day, places):
        pass


class EngineWithoutClass(Engine):
    """The engine with every newcomer at 1500 ± INITIAL_RD: what the class start gives."""

    label = "engine, no class"

    def __init__(self, classes):
        super().__init__({})


class EloByClass(Elo):
    """Elo with the club's start by class: what Glicko-2 gives beyond it."""

    label = "elo by class"

    def __init__(self, classes):
        self.ratings = {name: float(CLUB_START.get(c, self.INITIAL)) for name, c in classes.items()}


PREDICTORS = (Engine, Elo, Even)
ASIDES = (EngineWithoutClass, EloByClass)  # printed apart: where the engine's gain comes from


def _score(place: int, other_place: int) -> float:
    return 1.0 if place < other_place else 0.5 if place == other_place else 0.0


# --- the backtest -----------------------------------------------------------------------------


@dataclass
class Calls:
    """A predictor's calls on one history: (probability, result) of frames and of matches."""

    frames: list[tuple[float, float]] = field(default_factory=list)
    matches: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class Error:
    """The engine's rating against the truth, before each frame of a synthetic history:
    (games rated, deviation, rating − true strength)."""

    rows: list[tuple[int, float, float]] = field(default_factory=list)


def backtest(
    history: History, predictors=PREDICTORS, error: Error | None = None
) -> dict[str, Calls]:
    models = [kind(history.classes) for kind in predictors]
    calls = {model.label: Calls() for model in models}
    engine = next((m for m in models if isinstance(m, Engine)), None)
    for event in history.events:
        day = event.day
        if isinstance(event, Cork):
            for (x, px), (y, py) in combinations(event.places, 2):
                for model in models:
                    calls[model.label].frames.append((model.frame(x, y, day, None), _score(px, py)))
            for model in models:
                model.cork(day, event.places)
            continue
        a, b, handicap = event.a, event.b, event.handicap
        for model in models:
            p = model.match(model.frame(a, b, day, handicap), event.need_a, event.need_b)
            calls[model.label].matches.append((p, event.result))
        for score in event.frames:
            if error is not None and engine is not None and history.truth:
                skill = engine.now(a, day)
                error.rows.append(
                    (skill.games, skill.deviation, skill.rating - history.truth[a].true(day))
                )
            for model in models:
                calls[model.label].frames.append((model.frame(a, b, day, handicap), score))
                model.record(a, b, day, handicap, score)
    return calls


def log_loss(calls: list[tuple[float, float]]) -> float:
    if not calls:
        return float("nan")
    total = 0.0
    for p, result in calls:
        p = min(max(p, CLIP), 1 - CLIP)
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / len(calls)


def accuracy(calls: list[tuple[float, float]]) -> float:
    if not calls:
        return float("nan")
    right = 0.0
    for p, result in calls:
        if p == 0.5 or result == 0.5:
            right += 0.5
        else:
            right += (p > 0.5) == (result == 1)
    return right / len(calls)


def calibration(calls: list[tuple[float, float]], bins: int = 10) -> list[tuple[float, float]]:
    """(mean predicted, observed rate) of each decile of the calls sorted by prediction."""
    ordered = sorted(calls)
    if len(ordered) < bins:
        return []
    rows = []
    for index in range(bins):
        part = ordered[index * len(ordered) // bins : (index + 1) * len(ordered) // bins]
        rows.append((sum(p for p, _r in part) / len(part), sum(r for _p, r in part) / len(part)))
    return rows


# --- the demo club ----------------------------------------------------------------------------


def demo_history(smoke: bool) -> History:
    """The demo club's finished games and matches, read from a throwaway SQLite database after
    ``manage.py load_demo_club`` (with ``smoke`` without its billing history, the slow part)."""
    from unittest import mock

    os.environ["DATABASE_URL"] = (
        f"sqlite:///{Path(tempfile.gettempdir()) / 'luza_backtest.sqlite3'}"
    )
    os.environ["DJANGO_SETTINGS_MODULE"] = "clubsite.settings"
    import django

    django.setup()
    from django.core.management import call_command

    from bench.support import throwaway_database

    with throwaway_database(announce=False):
        if smoke:
            with mock.patch(
                "clubsite.management.commands.load_demo_club.load_demo_history", return_value=0
            ):
                call_command("load_demo_club", stdout=io.StringIO())
        else:
            call_command("load_demo_club", stdout=io.StringIO())
        return read_demo()


def read_demo() -> History:
    from games import rules
    from games.models import Game, GameStatus, Seat
    from tournaments.models import Frame
    from tournaments.models import Match as MatchRow

    games = list(
        Game.everywhere.filter(status=GameStatus.FINISHED)
        .order_by("finished_at", "id")
        .values_list("id", "finished_at", "variant", "settings")
    )
    seats = defaultdict(list)
    for game_id, player_id, skill_class, outcome, score in (
        Seat.everywhere.filter(game__status=GameStatus.FINISHED)
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "player__skill_class", "outcome", "score")
    ):
        seats[game_id].append((player_id, skill_class, outcome, score))
    frames = dict(Frame.everywhere.values_list("game_id", "match_id"))
    matches = {
        row[0]: row
        for row in MatchRow.everywhere.values_list(
            "id",
            "player_a_id",
            "player_b_id",
            "race_to",
            "head_start_a",
            "head_start_b",
            "winner",
            "kind",
            "status",
        )
    }
    classes: dict[str, str | None] = {}
    events: list[Match | Cork] = []
    open_matches: dict[int, Match] = {}
    for game_id, finished_at, key, settings in games:
        variant = rules.get_variant(key)
        family = variant.family.key
        rated = [seat for seat in seats[game_id] if seat[0] is not None]
        for player_id, skill_class, *_rest in rated:
            classes[f"{family}/{player_id}"] = skill_class or None
        if len({seat[0] for seat in rated}) < 2:
            continue
        day = finished_at.timestamp() / 86400
        places = _places(variant, rated)
        if len(seats[game_id]) > 2:
            events.append(Cork(day, [(f"{family}/{pid}", place) for pid, place in places]))
            continue
        (a, place_a), (b, place_b) = places
        handicap = _handicap(variant, settings)
        score = _score(place_a, place_b)
        match_id = frames.get(game_id)
        row = matches.get(match_id)
        if row is None or row[7] != "played" or row[8] != "finished" or {a, b} != {row[1], row[2]}:
            events.append(
                Match(day, f"{family}/{a}", f"{family}/{b}", 1, 1, [score], handicap, score)
            )
            continue
        # a tournament's match, its players in the match's order: a its player A
        if a != row[1]:
            a, b, score = b, a, 1 - score
            handicap = handicap.flipped() if handicap else None
        if match_id not in open_matches:
            open_matches[match_id] = Match(
                day,
                f"{family}/{a}",
                f"{family}/{b}",
                row[3] - row[4],
                row[3] - row[5],
                [],
                handicap,
                1.0 if row[6] == "a" else 0.0,
            )
            events.append(open_matches[match_id])
        open_matches[match_id].frames.append(score)
    return History("demo", classes, events, synthetic=False)


def _places(variant, seats):
    """(player_id, place) of the rated seats: the winners first, then by final score (of a
    two-player game its outcome alone, as the site's ratings read it)."""
    from games.models import Outcome

    top = {Outcome.WIN, Outcome.DRAW}
    sign = 1 if variant.lower_score_wins else -1

    def key(seat):
        _pid, _class, outcome, score = seat
        won = outcome in top
        if len(seats) == 2:
            return (0 if won else 1,)
        return (0 if won else 1, 0 if won or score is None else sign * score, score is None)

    keys = sorted({key(seat) for seat in seats})
    placed, seen = [], set()
    for seat in seats:
        if seat[0] not in seen:
            seen.add(seat[0])
            placed.append((seat[0], keys.index(key(seat))))
    return placed


def _handicap(variant, settings) -> Handicap | None:
    """A two-player game's handicap as the odds read it: a head start or returned pots of a
    pyramid game in balls (points) of its target; any other handicap a game meant to be
    even (50 %, as the site's Elo read every handicap)."""
    from games.rules import SettingsError

    try:
        parsed = variant.settings_from_dict(settings or {})
    except SettingsError:  # settings no longer valid: read as an even game's
        parsed = None
    handicap = getattr(parsed, "handicap", None)
    head_start, returned = (getattr(handicap, name, 0) for name in ("head_start", "returned_pots"))
    if head_start or returned:
        weaker = "a" if handicap.weaker_seat == 0 else "b"
        return Handicap(parsed.target, head_start, returned, weaker)
    if variant.always_handicap or (settings or {}).get("handicap") not in (None, "", "none"):
        return Handicap(0, 0, 0, "a")
    return None


# --- the report -------------------------------------------------------------------------------


def report(results: dict[str, dict[str, Calls]], histories: list[History]) -> bool:
    """Prints the figures; True when the engine beats Elo on every synthetic history."""
    labels = [kind.label for kind in PREDICTORS]
    beaten = True
    for history in histories:
        calls = results[history.name]
        for kind, suffix in (("frames", ""), ("matches", " matches")):
            losses = {label: log_loss(getattr(calls[label], kind)) for label in labels}
            if not getattr(calls["engine"], kind):
                print(f"log-loss {history.name}{suffix}: none played")
                continue
            print(
                f"log-loss {history.name}{suffix}: "
                + ", ".join(f"{label} {losses[label]:.4f}" for label in labels)
            )
            if history.synthetic and not losses["engine"] < losses["elo"]:
                beaten = False
    print()
    print("accuracy (the share of results the predictor's favourite won; a 50 % call counts half)")
    header = "  ".join(f"{label:>7s}" for label in labels)
    print(f"  {'history':12s}  frames: {header}   matches: {header}")
    for history in histories:
        calls = results[history.name]
        cells = [
            "  ".join(f"{100 * accuracy(getattr(calls[label], kind)):6.1f}%" for label in labels)
            for kind in ("frames", "matches")
        ]
        print(f"  {history.name:12s}          {cells[0]}            {cells[1]}")
    print()
    print(
        "calibration (by decile of the prediction: mean predicted % → observed %"
        " of the first-named's wins)"
    )
    for history in histories:
        for kind in ("frames", "matches"):
            for label in ("engine", "elo"):
                rows = calibration(getattr(results[history.name][label], kind))
                if rows:
                    cells = " ".join(f"{100 * p:3.0f}→{100 * r:3.0f}" for p, r in rows)
                    print(f"  {history.name:12s} {kind:7s} {label:6s} {cells}")
    return beaten


def report_asides(results: dict[str, dict[str, Calls]], histories: list[History]) -> None:
    """The engine beside itself without the class start, and Elo beside itself with one."""
    columns = ["engine", *(kind.label for kind in ASIDES), "elo"]
    print()
    print(
        "where the engine's gain comes from (log-loss, frames / matches): the engine with every"
        " newcomer at 1500, and Elo from the class start"
    )
    print(f"  {'history':12s}  " + "  ".join(f"{label:>17s}" for label in columns))
    for history in histories:
        calls = results[history.name]
        cells = [
            f"{log_loss(calls[label].frames):.4f} / {log_loss(calls[label].matches):.4f}"
            for label in columns
        ]
        print(f"  {history.name:12s}  " + "  ".join(f"{cell:>17s}" for cell in cells))


def report_error(error: Error) -> None:
    """The engine's rating against the truth by the games a person had rated before."""
    if not error.rows:
        return
    offset = sum(diff for _g, _d, diff in error.rows) / len(error.rows)
    print()
    print(
        "the engine's rating against the truth, before each frame of the synthetic histories "
        f"(its mean offset {offset:+.0f} taken out)"
    )
    print(
        f"  {'games':>9s}  {'frames':>7s}  {'RMS error':>9s}  {'mean RD':>7s}"
        "  within 2 RD  provisional"
    )
    buckets = [(0, 0), (1, 4), (5, 9), (10, 19), (20, 49), (50, 99), (100, 10**9)]
    for low, high in buckets:
        rows = [(d, diff - offset) for g, d, diff in error.rows if low <= g <= high]
        if not rows:
            continue
        rms = math.sqrt(sum(diff * diff for _d, diff in rows) / len(rows))
        deviation = sum(d for d, _diff in rows) / len(rows)
        within = sum(abs(diff) <= 2 * d for d, diff in rows) / len(rows)
        provisional = sum(
            d > glicko.PROVISIONAL_RD or g < glicko.PROVISIONAL_GAMES
            for g, d, _x in error.rows
            if low <= g <= high
        )
        span = f"{low}–{high}" if high < 10**9 else f"{low}+"
        print(
            f"  {span:>9s}  {len(rows):7d}  {rms:9.0f}  {deviation:7.0f}  {100 * within:10.0f}%"
            f"  {100 * provisional / len(rows):10.0f}%"
        )


# --- tuning -----------------------------------------------------------------------------------

# The constants swept by --tune, one at a time around the module's values.
SWEEPS = {
    "TAU": [0.2, 0.3, 0.5, 0.8, 1.2],
    "PERIOD_DAYS": [7.0, 15.0, 30.0, 60.0, 120.0],
    "CLASS_RD": [100.0, 150.0, 200.0, 250.0, 300.0],
    "INITIAL_VOLATILITY": [0.015, 0.02, 0.03, 0.045, 0.06],
}


def tune(histories: list[History]) -> None:
    """The engine's log-loss (frames and matches, the mean over the histories) as each
    constant of records.glicko is changed, the others as they are."""
    print("the engine's mean log-loss over the synthetic histories, frames / matches:")
    for name, values in SWEEPS.items():
        kept = getattr(glicko, name)
        cells = []
        for value in values:
            setattr(glicko, name, value)  # read as each newcomer starts (glicko.start)
            frames, matches = [], []
            for history in histories:
                calls = backtest(history, (Engine,))["engine"]
                frames.append(log_loss(calls.frames))
                matches.append(log_loss(calls.matches))
            mark = "*" if value == kept else " "
            cells.append(
                f"{value:g}{mark} {sum(frames) / len(frames):.4f}/{sum(matches) / len(matches):.4f}"
            )
        setattr(glicko, name, kept)
        print(f"  {name:18s} " + "   ".join(cells))


# --- the run ----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small histories: seconds, no verdict")
    parser.add_argument("--tune", action="store_true", help="sweep the engine's constants")
    parser.add_argument("--no-demo", action="store_true", help="the synthetic histories only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--days", type=int, default=540)
    args = parser.parse_args()
    if args.smoke:
        args.players, args.days = 16, 60
    began = time.perf_counter()
    histories = [synthetic(spec, args.seed, args.players, args.days) for spec in SPECS]
    if args.tune:
        tune(histories)
        print(f"run time {time.perf_counter() - began:.1f} s")
        return 0
    if not args.no_demo:
        histories.append(demo_history(args.smoke))
    print(
        f"rating backtest: seed {args.seed}, {args.players} players over {args.days} days"
        " per synthetic history"
    )
    print(f"  {'history':12s}  {'people':>6s}  {'frames':>7s}  {'matches':>7s}")
    for history in histories:
        print(
            f"  {history.name:12s}  {len(history.classes):6d}  {history.frames:7d}"
            f"  {history.matches:7d}"
        )
    print()
    error = Error()
    results = {
        h.name: backtest(h, PREDICTORS + ASIDES, error if h.synthetic else None) for h in histories
    }
    beaten = report(results, histories)
    report_asides(results, histories)
    report_error(error)
    print()
    print(f"run time {time.perf_counter() - began:.1f} s")
    if args.smoke:
        print("smoke run: no verdict")
        return 0
    if beaten:
        print("the engine's log-loss is below Elo's on every synthetic history, frames and matches")
        return 0
    print("FAILED: the engine's log-loss is not below Elo's on every synthetic history")
    return 1


if __name__ == "__main__":
    sys.exit(main())
