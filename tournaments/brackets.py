"""Tournament brackets: a pure engine (plain Python, no Django, no I/O), like ``games.rules``.

Entrants are known here only by their seed, 1 … N (1 = the top seed). The Django side keeps
which player holds which seed.

Formats
    ``single_elimination(n)`` — the olympic system. The bracket has the next power of two
    slots; the top seeds get the byes; the standard seeding order (1–16, 8–9, …) keeps the
    top seeds apart until the last rounds. A bye is not a match: N entrants play N − 1.
    ``double_elimination(n)`` — «до двух поражений»: an upper bracket as above, a lower
    bracket where the losers drop in, and the grand final; if the lower bracket's winner
    takes the first final a second one (the reset) is played: 2N − 2 or 2N − 1 matches.
    Losers of upper round r + 1 drop into the lower bracket in the order of ``DROP_ORDERS``
    (the crossover): those orders were chosen by an exhaustive search over the usual ones
    (natural, reverse, half shift, reverse half shift, pair flip, rotations) so that the
    first lower round where two players *can* meet again is as late as possible
    (``REMATCH_FREE_LOWER_ROUNDS``).
    ``round_robin(n, groups=1, advance=0)`` — everyone plays everyone in his group (the
    circle method gives the rounds); with ``advance`` > 0 the first ``advance`` of every
    group go on to a single-elimination knockout (group winners are its top seeds; group
    mates meet again as late as the bracket allows: ``_knockout_slots``).

State
    ``compute(bracket, results, withdrawn)`` derives everything from the stored results: who
    plays each match, which are ready, the champion, the places and the group standings.
    A result is ``Result(winner="a"|"b", score_a, score_b, kind)`` with ``kind`` one of
    ``played``, ``walkover`` (неявка) or ``withdrawal``. A withdrawn entrant loses every
    later match by withdrawal without it being stored (derived, so undoing stays simple).
    Walkovers and withdrawals count as wins and losses but their frames count for nothing.

Standings (round robin)
    Wins first; entrants level on wins are ordered by the wins in the matches among
    themselves (head-to-head), then by frame difference, then by frames won, then by seed.

Undo
    ``check_undo(bracket, results, key, started)`` raises ``BracketError`` (with a
    translatable reason) when a match that depends on ``key`` has been played or started.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from games.rules.base import Message, gettext_noop

SINGLE = "single"
DOUBLE = "double"
ROUND_ROBIN = "round_robin"
FORMATS = (SINGLE, DOUBLE, ROUND_ROBIN)

UPPER = "upper"
LOWER = "lower"
FINAL = "final"
GROUP = "group"
BRACKETS = (UPPER, LOWER, FINAL, GROUP)

PLAYED = "played"
WALKOVER = "walkover"
WITHDRAWAL = "withdrawal"
RESULT_KINDS = (PLAYED, WALKOVER, WITHDRAWAL)

WAITING = "waiting"  # a side is not known yet
READY = "ready"  # both players known, no result yet
FINISHED = "finished"
VOID = "void"  # the grand final reset when the upper bracket's winner took the first final

MIN_ENTRANTS = 3
MAX_ENTRANTS = 128

# Bracket size → the order in which the losers of upper round r + 1 (r = 1, 2, …) drop
# into lower round 2r. See the module docstring.
DROP_ORDERS = {
    4: ("natural",),
    8: ("reverse", "natural"),
    16: ("reverse", "natural", "natural"),
    32: ("reverse", "half_shift", "natural", "natural"),
    64: ("reverse", "half_shift", "reverse_half_shift", "natural", "natural"),
    128: ("reverse", "half_shift", "reverse_half_shift", "natural", "natural", "natural"),
}
# Bracket size → how many lower rounds no pair can meet a second time in, with those orders.
REMATCH_FREE_LOWER_ROUNDS = {4: 1, 8: 2, 16: 3, 32: 4, 64: 6, 128: 7}


class BracketError(Exception):
    """A request the bracket refuses. ``code`` is stable; ``message`` is translatable."""

    def __init__(self, code: str, message: Message):
        super().__init__(message.render())
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Source:
    """Where a side of a match comes from."""

    kind: str  # "seed" | "winner" | "loser" | "rank"
    ref: object  # seed number | match key | (group, rank)


@dataclass(frozen=True)
class MatchSpec:
    key: str  # stable: "U2.3", "L4.1", "F1", "F2", "G1.2.1", "K1.1"
    stage: str  # "knockout" | "groups"
    bracket: str  # upper | lower | final | group
    round: int  # within its bracket (1-based); the grand finals are rounds 1 and 2
    index: int  # within its round (1-based)
    number: int  # the match number, 1 … M in playing order
    a: Source
    b: Source
    group: int | None = None
    reset: bool = False  # the grand final's second match


@dataclass(frozen=True)
class Bracket:
    format: str
    entrants: int
    matches: tuple[MatchSpec, ...]
    groups: tuple[tuple[int, ...], ...] = ()  # round robin: the seeds of each group
    advance: int = 0
    size: int = 0  # elimination: the power of two the bracket is drawn for

    def match(self, key: str) -> MatchSpec:
        return self._by_key()[key]

    def _by_key(self) -> dict[str, MatchSpec]:
        cache = self.__dict__.get("_keys")
        if cache is None:
            cache = {m.key: m for m in self.matches}
            object.__setattr__(self, "_keys", cache)
        return cache

    def dependents(self, key: str) -> list[MatchSpec]:
        """The matches whose players (or whose being played at all) depend on ``key``."""
        spec = self.match(key)
        found = []
        for m in self.matches:
            hit = m.reset and spec.bracket == FINAL and not spec.reset
            for src in (m.a, m.b):
                if src.kind in ("winner", "loser") and src.ref == key:
                    hit = True
                if src.kind == "rank" and spec.bracket == GROUP and src.ref[0] == spec.group:
                    hit = True
            if hit:
                found.append(m)
        return found


@dataclass(frozen=True)
class Result:
    winner: str  # "a" | "b"
    score_a: int = 0
    score_b: int = 0
    kind: str = PLAYED

    def __post_init__(self):
        if self.winner not in ("a", "b"):
            raise ValueError("winner must be 'a' or 'b'")
        if self.kind not in RESULT_KINDS:
            raise ValueError(f"unknown result kind {self.kind!r}")
        if self.kind == PLAYED and (self.score_a > self.score_b) != (self.winner == "a"):
            raise ValueError("a played match is won by the higher score")


@dataclass(frozen=True)
class MatchState:
    spec: MatchSpec
    a: int | None  # seed, None while unknown
    b: int | None
    status: str
    result: Result | None = None
    derived: bool = False  # decided by a withdrawal, not stored

    @property
    def winner(self) -> int | None:
        if self.result is None:
            return None
        return self.a if self.result.winner == "a" else self.b

    @property
    def loser(self) -> int | None:
        if self.result is None:
            return None
        return self.b if self.result.winner == "a" else self.a


@dataclass(frozen=True)
class Standing:
    seed: int
    played: int
    wins: int
    losses: int
    frames_won: int
    frames_lost: int
    rank: int = 0

    @property
    def frame_difference(self) -> int:
        return self.frames_won - self.frames_lost


@dataclass(frozen=True)
class TournamentState:
    bracket: Bracket
    matches: dict[str, MatchState]
    champion: int | None
    places: dict[int, tuple[int, int]]  # seed → (best, worst) place reached; ties share a range
    standings: tuple[tuple[Standing, ...], ...] = ()  # per group
    finished: bool = False

    def ready(self) -> list[MatchState]:
        """The matches whose two players are known and that have no result, in play order."""
        return [m for m in self.ordered() if m.status == READY]

    def ordered(self) -> list[MatchState]:
        return [self.matches[spec.key] for spec in self.bracket.matches]


# --- seeding -------------------------------------------------------------------------------


def seeding_order(size: int) -> list[int]:
    """The seeds in bracket-line order for a power-of-two ``size``: 1, 8, 4, 5, 2, 7, 3, 6."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def random_draw(count: int, seed: int) -> list[int]:
    """A re-runnable draw: positions 0 … count-1 shuffled by ``seed`` (same seed, same draw)."""
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return order


def _check_count(n: int) -> None:
    if not MIN_ENTRANTS <= n <= MAX_ENTRANTS:
        raise BracketError(
            "entrants",
            Message(
                gettext_noop("A tournament needs %(min)s to %(max)s entrants."),
                {"min": MIN_ENTRANTS, "max": MAX_ENTRANTS},
            ),
        )


def _bracket_size(n: int) -> int:
    size = 2
    while size < n:
        size *= 2
    return size


def _drop_order(name: str, n: int) -> list[int]:
    natural = list(range(n))
    half = n // 2
    return {
        "natural": natural,
        "reverse": natural[::-1],
        "half_shift": natural[half:] + natural[:half],
        "reverse_half_shift": natural[:half][::-1] + natural[half:][::-1],
        "pair_flip": [i ^ 1 for i in natural],
    }[name]


# --- building --------------------------------------------------------------------------------

_EMPTY = Source("empty", None)


@dataclass
class _Raw:
    key: str
    stage: str
    bracket: str
    round: int
    index: int
    a: Source
    b: Source
    group: int | None = None
    reset: bool = False


@dataclass
class _Builder:
    """Raw matches of a full bracket; ``finish`` removes the byes and numbers the rest."""

    raws: list[_Raw] = field(default_factory=list)

    def add(self, *args, **kwargs) -> str:
        raw = _Raw(*args, **kwargs)
        self.raws.append(raw)
        return raw.key

    def finish(self) -> list[MatchSpec]:
        winners: dict[str, Source] = {}  # key → what its winner resolves to
        losers: dict[str, Source] = {}
        kept: list[_Raw] = []

        def resolve(src: Source) -> Source:
            if src.kind == "winner":
                return winners[src.ref]
            if src.kind == "loser":
                return losers[src.ref]
            return src

        for raw in self.raws:  # raws are added in an order where feeders come first
            a, b = resolve(raw.a), resolve(raw.b)
            if a is not _EMPTY and b is not _EMPTY:
                raw.a, raw.b = a, b
                kept.append(raw)
                winners[raw.key] = Source("winner", raw.key)
                losers[raw.key] = Source("loser", raw.key)
            else:  # a bye: the lone player walks through, nobody drops
                winners[raw.key] = b if a is _EMPTY else a
                losers[raw.key] = _EMPTY
        # Playing order: by the earliest moment a match can be played, then by bracket.
        depth: dict[str, int] = {}
        for raw in kept:
            feeders = [s.ref for s in (raw.a, raw.b) if s.kind in ("winner", "loser")]
            base = 0
            if raw.stage == "knockout" and any(s.kind == "rank" for s in (raw.a, raw.b)):
                base = max((d for k, d in depth.items() if k.startswith("G")), default=0)
            depth[raw.key] = max([depth[f] for f in feeders] + [base]) + 1
            if raw.reset:
                depth[raw.key] += 1
        order = {UPPER: 0, GROUP: 0, LOWER: 1, FINAL: 2}
        kept.sort(
            key=lambda r: (
                depth[r.key],
                order[r.bracket],
                r.group or 0,
                r.round,
                r.index,
            )
        )
        return [
            MatchSpec(
                key=r.key,
                stage=r.stage,
                bracket=r.bracket,
                round=r.round,
                index=r.index,
                number=number,
                a=r.a,
                b=r.b,
                group=r.group,
                reset=r.reset,
            )
            for number, r in enumerate(kept, start=1)
        ]


def _seed_sources(slots: list[object], size: int) -> list[Source]:
    """The bracket lines of a knockout: ``slots[i]`` is what holds seed i + 1."""
    return [
        Source(*slots[seed - 1]) if seed <= len(slots) else _EMPTY for seed in seeding_order(size)
    ]


def _add_upper(
    builder: _Builder, lines: list[Source], stage: str, prefix: str, final_is_upper: bool
) -> dict[tuple[int, int], str]:
    size = len(lines)
    rounds = size.bit_length() - 1
    keys: dict[tuple[int, int], str] = {}
    for r in range(1, rounds + 1):
        for i in range(size >> r):
            if r == 1:
                a, b = lines[2 * i], lines[2 * i + 1]
            else:
                a = Source("winner", keys[(r - 1, 2 * i)])
                b = Source("winner", keys[(r - 1, 2 * i + 1)])
            bracket = FINAL if r == rounds and not final_is_upper else UPPER
            keys[(r, i)] = builder.add(f"{prefix}{r}.{i + 1}", stage, bracket, r, i + 1, a, b)
    return keys


def single_elimination(n: int) -> Bracket:
    _check_count(n)
    size = _bracket_size(n)
    builder = _Builder()
    lines = _seed_sources([("seed", s) for s in range(1, n + 1)], size)
    _add_upper(builder, lines, "knockout", "U", final_is_upper=False)
    return Bracket(SINGLE, n, tuple(builder.finish()), size=size)


def double_elimination(n: int) -> Bracket:
    _check_count(n)
    size = _bracket_size(n)
    rounds = size.bit_length() - 1
    builder = _Builder()
    lines = _seed_sources([("seed", s) for s in range(1, n + 1)], size)
    upper = _add_upper(builder, lines, "knockout", "U", final_is_upper=True)
    lower: dict[tuple[int, int], str] = {}

    def add_lower(r: int, i: int, a: Source, b: Source) -> None:
        lower[(r, i)] = builder.add(f"L{r}.{i + 1}", "knockout", LOWER, r, i + 1, a, b)

    for i in range(size // 4):
        add_lower(1, i, Source("loser", upper[(1, 2 * i)]), Source("loser", upper[(1, 2 * i + 1)]))
    for j in range(1, rounds):
        count = size >> (j + 1)
        order = _drop_order(DROP_ORDERS[size][j - 1], count)
        for i in range(count):
            add_lower(
                2 * j,
                i,
                Source("winner", lower[(2 * j - 1, i)]),
                Source("loser", upper[(j + 1, order[i])]),
            )
        if j <= rounds - 2:
            for i in range(count // 2):
                add_lower(
                    2 * j + 1,
                    i,
                    Source("winner", lower[(2 * j, 2 * i)]),
                    Source("winner", lower[(2 * j, 2 * i + 1)]),
                )
    champion_upper = Source("winner", upper[(rounds, 0)])
    champion_lower = Source("winner", lower[(2 * (rounds - 1), 0)])
    builder.add("F1", "knockout", FINAL, 1, 1, champion_upper, champion_lower)
    builder.add("F2", "knockout", FINAL, 2, 1, champion_upper, champion_lower, reset=True)
    return Bracket(DOUBLE, n, tuple(builder.finish()), size=size)


def _circle_rounds(seeds: list[int]) -> list[list[tuple[int, int]]]:
    """Every pair once: the circle method (a bye slot when the count is odd)."""
    players: list[int | None] = list(seeds)
    if len(players) % 2:
        players.append(None)
    count = len(players)
    rounds = []
    for _ in range(count - 1):
        pairs = []
        for i in range(count // 2):
            a, b = players[i], players[count - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if a < b else (b, a))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def meeting_round(line_a: int, line_b: int) -> int:
    """The knockout round in which the players of two bracket lines can meet (1: at once)."""
    return (line_a ^ line_b).bit_length()


def _knockout_slots(groups: int, advance: int, size: int) -> list[tuple[str, tuple[int, int]]]:
    """Who holds each knockout seed: the group winners first (group 1 first: the byes are
    theirs), then the runners-up, and so on. Within a rank the seeds go to the groups so that
    group mates, who have played each other, meet again as late as the bracket allows (the
    latest earliest meeting of the rank, ``_assign``): with two groups A1 plays B2 and B1
    plays A2, and they can meet again only in the final."""
    line_of = {seed: line for line, seed in enumerate(seeding_order(size))}
    placed: dict[int, list[int]] = {g: [] for g in range(1, groups + 1)}
    slots = []
    for rank in range(1, advance + 1):
        lines = [line_of[(rank - 1) * groups + k] for k in range(1, groups + 1)]
        scores = [
            [min((meeting_round(line, m) for m in placed[g]), default=size) for g in placed]
            for line in lines
        ]
        for line, group in zip(lines, _assign(scores), strict=True):
            placed[group].append(line)
            slots.append(("rank", (group, rank)))
    return slots


def _assign(scores: list[list[int]]) -> list[int]:
    """A group (1-based) for each seed, one seed a group, with the least of the seeds'
    ``scores[seed][group - 1]`` as high as it can be: the highest threshold that still has a
    perfect matching (each seed takes the first free group it may, else an augmenting path)."""
    for threshold in sorted({v for row in scores for v in row}, reverse=True):
        allowed = [[v >= threshold for v in row] for row in scores]
        owner = _perfect_matching(allowed)
        if owner is not None:
            groups = [0] * len(scores)
            for group, seed in enumerate(owner):
                groups[seed] = group + 1
            return groups
    raise AssertionError("at the lowest score every seed may take every group")


def _perfect_matching(allowed: list[list[bool]]) -> list[int] | None:
    """owner[group] = seed such that every seed has an allowed group, or None."""
    count = len(allowed)
    owner: list[int | None] = [None] * count

    def place(seed: int, seen: set[int]) -> bool:
        for group in range(count):
            if allowed[seed][group] and group not in seen:
                seen.add(group)
                if owner[group] is None or place(owner[group], seen):
                    owner[group] = seed
                    return True
        return False

    for seed in range(count):
        free = [g for g in range(count) if owner[g] is None and allowed[seed][g]]
        if free:
            owner[free[0]] = seed
        elif not place(seed, set()):
            return None
    return owner


def round_robin(n: int, groups: int = 1, advance: int = 0) -> Bracket:
    """``groups`` groups filled by the snake (1 … G, then G … 1); ``advance`` go on."""
    _check_count(n)
    if groups < 1 or n < 2 * groups:
        raise BracketError(
            "groups",
            Message(gettext_noop("Each group needs at least two entrants.")),
        )
    if groups > 1 and not advance:
        raise BracketError(
            "advance",
            Message(gettext_noop("Several groups need a number going on to the knockout.")),
        )
    if advance and not (1 <= advance < n // groups and groups * advance >= 2):
        raise BracketError(
            "advance",
            Message(gettext_noop("Fewer entrants must go on from each group than it has.")),
        )
    members: list[list[int]] = [[] for _ in range(groups)]
    for seed in range(1, n + 1):
        lap, pos = divmod(seed - 1, groups)
        members[pos if lap % 2 == 0 else groups - 1 - pos].append(seed)
    builder = _Builder()
    for g, seeds in enumerate(members, start=1):
        for r, pairs in enumerate(_circle_rounds(seeds), start=1):
            for i, (a, b) in enumerate(pairs, start=1):
                builder.add(
                    f"G{g}.{r}.{i}", "groups", GROUP, r, i, Source("seed", a), Source("seed", b), g
                )
    size = 0
    if advance:
        size = _bracket_size(groups * advance)
        lines = _seed_sources(_knockout_slots(groups, advance, size), size)
        _add_upper(builder, lines, "knockout", "K", final_is_upper=False)
    return Bracket(
        ROUND_ROBIN,
        n,
        tuple(builder.finish()),
        groups=tuple(tuple(s) for s in members),
        advance=advance,
        size=size,
    )


@functools.lru_cache(maxsize=64)
def build(fmt: str, n: int, groups: int = 1, advance: int = 0) -> Bracket:
    """The bracket of a format for ``n`` entrants. Static and immutable, so it is built once
    per shape and kept (the pages compute the state after every result)."""
    if fmt == SINGLE:
        return single_elimination(n)
    if fmt == DOUBLE:
        return double_elimination(n)
    if fmt == ROUND_ROBIN:
        return round_robin(n, groups, advance)
    raise ValueError(f"unknown format {fmt!r}")


# --- state -----------------------------------------------------------------------------------


def compute(
    bracket: Bracket,
    results: Mapping[str, Result],
    withdrawn: Collection[int] = (),
    absent: Collection[int] = (),
) -> TournamentState:
    """Everything about the tournament, derived from the stored results. A ``withdrawn``
    seed loses his matches left by withdrawal; an ``absent`` one (not checked in at the
    start, drawn all the same) loses them by walkover."""
    gone = set(withdrawn) | set(absent)
    states: dict[str, MatchState] = {}
    standings: dict[int, tuple[Standing, ...]] = {}
    group_left = {g: 0 for g in range(1, len(bracket.groups) + 1)}
    for spec in bracket.matches:
        if spec.bracket == GROUP:
            group_left[spec.group] += 1

    def who(src: Source) -> int | None:
        if src.kind == "seed":
            return src.ref
        if src.kind == "winner":
            return states[src.ref].winner
        if src.kind == "loser":
            return states[src.ref].loser
        group, rank = src.ref
        if group_left[group]:
            return None
        if group not in standings:
            standings[group] = group_standings(bracket, states, group)
        return standings[group][rank - 1].seed

    for spec in bracket.matches:
        a, b = who(spec.a), who(spec.b)
        if spec.reset:
            first = states[_first_final(bracket)]
            if first.status != FINISHED:
                states[spec.key] = MatchState(spec, a, b, WAITING)
                continue
            if first.result.winner == "a":
                states[spec.key] = MatchState(spec, a, b, VOID)
                continue
        if a is None or b is None:
            states[spec.key] = MatchState(spec, a, b, WAITING)
            continue
        result = results.get(spec.key)
        derived = False
        if result is None and (a in gone or b in gone):
            if a in gone and b not in gone:
                winner = "b"
            elif b in gone and a not in gone:
                winner = "a"
            else:  # both gone: the better seed goes through so that the bracket can finish
                winner = "a" if a < b else "b"
            loser = b if winner == "a" else a
            kind = WITHDRAWAL if loser in withdrawn else WALKOVER
            result, derived = Result(winner, 0, 0, kind), True
        if result is None:
            states[spec.key] = MatchState(spec, a, b, READY)
        else:
            states[spec.key] = MatchState(spec, a, b, FINISHED, result, derived)
            if spec.bracket == GROUP:
                group_left[spec.group] -= 1
    for group in group_left:
        if group not in standings:
            standings[group] = group_standings(bracket, states, group)
    champion = _champion(bracket, states)
    places = _places(bracket, states, standings, champion)
    finished = all(s.status in (FINISHED, VOID) for s in states.values())
    return TournamentState(
        bracket,
        states,
        champion,
        places,
        tuple(standings[g] for g in sorted(standings)),
        finished,
    )


def _first_final(bracket: Bracket) -> str:
    return next(m.key for m in bracket.matches if m.bracket == FINAL and not m.reset)


def _champion(bracket: Bracket, states: Mapping[str, MatchState]) -> int | None:
    if bracket.format == ROUND_ROBIN and not bracket.advance:
        if all(s.status == FINISHED for s in states.values()):
            return None if not states else _overall_order(bracket, states)[0]
        return None
    finals = [s for s in states.values() if s.spec.bracket == FINAL]
    for state in reversed(finals):  # the reset, if it was played, decides
        if state.status == FINISHED:
            return state.winner
        if state.status != VOID:
            return None
    return None


def _overall_order(bracket: Bracket, states: Mapping[str, MatchState]) -> list[int]:
    return [row.seed for row in group_standings(bracket, states, 1)]


def _places(bracket, states, standings, champion) -> dict[int, tuple[int, int]]:
    places: dict[int, tuple[int, int]] = {}
    if bracket.format == ROUND_ROBIN and not bracket.advance:
        if champion is not None:
            for row in standings[1]:
                places[row.seed] = (row.rank, row.rank)
        return places
    eliminating, start, sizes = _elimination_stages(bracket)
    if champion is not None:
        places[champion] = (1, 1)
    for spec in eliminating:
        state = states[spec.key]
        if state.status != FINISHED:
            continue
        if spec.bracket == FINAL:
            if champion is not None and state.loser != champion:
                places[state.loser] = (2, 2)
            continue
        stage = _stage_of(spec)
        places[state.loser] = (start[stage], start[stage] + sizes[stage] - 1)
    if bracket.format == ROUND_ROBIN:  # those who did not go on: after every knockout place
        if all(s.status == FINISHED for s in states.values() if s.spec.bracket == GROUP):
            knocked = bracket.advance * len(bracket.groups)
            rest = [
                row for table in standings.values() for row in table if row.rank > bracket.advance
            ]
            for rank in range(bracket.advance + 1, max((r.rank for r in rest), default=0) + 1):
                tier = [r for r in rest if r.rank == rank]
                for row in tier:
                    places[row.seed] = (knocked + 1, knocked + len(tier))
                knocked += len(tier)
    return places


def _stage_of(spec: MatchSpec) -> tuple[int, int]:
    return (1, 0) if spec.bracket == FINAL else (0, spec.round)


def _elimination_stages(bracket: Bracket):
    """Players knocked out at the same stage share a range of places; later stages rank
    higher. A stage is the final or a round; its size is its number of matches. In double
    elimination only the lower bracket and the final knock anyone out. (Static: cached.)"""
    cached = bracket.__dict__.get("_stages")
    if cached is not None:
        return cached
    eliminating = [
        spec
        for spec in bracket.matches
        if spec.bracket != GROUP and not (bracket.format == DOUBLE and spec.bracket == UPPER)
    ]
    sizes: dict[tuple[int, int], int] = {}
    for spec in eliminating:
        if not spec.reset:
            sizes[_stage_of(spec)] = sizes.get(_stage_of(spec), 0) + 1
    start: dict[tuple[int, int], int] = {}
    place = 2
    for stage in sorted(sizes, reverse=True):
        start[stage] = place
        place += sizes[stage]
    cached = (eliminating, start, sizes)
    object.__setattr__(bracket, "_stages", cached)
    return cached


def group_standings(
    bracket: Bracket, states: Mapping[str, MatchState], group: int
) -> tuple[Standing, ...]:
    """The group table, ordered: wins, head-to-head wins, frame difference, frames won, seed."""
    seeds = bracket.groups[group - 1]
    rows = {s: dict(played=0, wins=0, losses=0, won=0, lost=0) for s in seeds}
    beat: dict[tuple[int, int], int] = {}  # (winner, loser) → count
    for state in states.values():
        if state.spec.bracket != GROUP or state.spec.group != group:
            continue
        if state.status != FINISHED:
            continue
        winner, loser, result = state.winner, state.loser, state.result
        rows[winner]["wins"] += 1
        rows[loser]["losses"] += 1
        for seed in (winner, loser):
            rows[seed]["played"] += 1
        beat[(winner, loser)] = beat.get((winner, loser), 0) + 1
        if result.kind == PLAYED:
            for seed, won, lost in (
                (state.a, result.score_a, result.score_b),
                (state.b, result.score_b, result.score_a),
            ):
                rows[seed]["won"] += won
                rows[seed]["lost"] += lost

    by_wins: dict[int, list[int]] = {}
    for seed in seeds:
        by_wins.setdefault(rows[seed]["wins"], []).append(seed)
    ordered: list[int] = []
    for wins in sorted(by_wins, reverse=True):
        tied = by_wins[wins]

        def key(seed: int, tied=tied) -> tuple:
            head_to_head = sum(beat.get((seed, other), 0) for other in tied if other != seed)
            row = rows[seed]
            return (-head_to_head, -(row["won"] - row["lost"]), -row["won"], seed)

        ordered += sorted(tied, key=key)
    return tuple(
        Standing(
            seed,
            rows[seed]["played"],
            rows[seed]["wins"],
            rows[seed]["losses"],
            rows[seed]["won"],
            rows[seed]["lost"],
            rank,
        )
        for rank, seed in enumerate(ordered, start=1)
    )


# --- undo ------------------------------------------------------------------------------------


def check_undo(
    bracket: Bracket,
    results: Mapping[str, Result],
    key: str,
    started: Iterable[str] = (),
) -> None:
    """Raises BracketError if ``key``'s result cannot be taken back (something followed it)."""
    if key not in results:
        raise BracketError(
            "no_result", Message(gettext_noop("This match has no result to take back."))
        )
    started = set(started)
    for spec in bracket.dependents(key):
        if spec.key in started and spec.key not in results:
            raise BracketError(
                "depends",
                Message(
                    gettext_noop(
                        "Match %(number)s, which follows this one, is being played: "
                        "abandon it first (its match page)."
                    ),
                    {"number": spec.number},
                ),
            )
        if spec.key in results:
            raise BracketError(
                "depends",
                Message(
                    gettext_noop(
                        "Match %(number)s has already been played after this one: "
                        "take its result back first."
                    ),
                    {"number": spec.number},
                ),
            )


def players_met_before(state: TournamentState) -> dict[str, bool]:
    """For each finished match: had its two players already met earlier in the tournament?"""
    met: set[frozenset[int]] = set()
    repeat = {}
    finished = [s for s in state.ordered() if s.status == FINISHED and s.a and s.b]
    for match in finished:  # playing order respects every dependency
        pair = frozenset((match.a, match.b))
        repeat[match.spec.key] = pair in met
        met.add(pair)
    return repeat
