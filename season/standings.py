"""A series' standings: points per place, the results that count, the order, the final.

Plain Python, no Django, no I/O: ``season.selectors`` reads the stages' places and ratings
and hands them here.

Points per place come from a table (``PRESETS`` or the admin's own list: the points of the
1st, 2nd… position; a position past the end scores 0). Players sharing a range of places
(``tournaments.brackets``: seed → (best, worst)) share the average of those positions' points:

>>> table = points_table("championship")
>>> table[:4]
(100, 80, 65, 65)
>>> place_points(table, 1, 1), place_points(table, 3, 4)
(100.0, 65.0)
>>> place_points((10, 8, 6, 4), 2, 3)
7.0

An event may be worth more or less than its table (its value, from the field's ratings and
the race; docs/tournaments.md gives the formula):

>>> event_value([1500] * 8, race=3)
1.0
>>> event_value([1700] * 8, race=4)
1.3

The best N results count; the others are shown but dropped:

>>> results = [Result("a", 1, 100), Result("a", 2, 50), Result("a", 3, 80)]
>>> sorted(counted(results, best_n=2))
[0, 2]
>>> total(results, best_n=2)
180

The table: players by the admin's chain of tie-breaks, the final's line after K:

>>> rows = rank(
...     [Result("a", 1, 100, (1, 1)), Result("b", 1, 80, (2, 2)), Result("c", 1, 80, (2, 2))],
...     chain=("points", "best_place", "rating"),
...     ratings={"b": 1400, "c": 1600},
... )
>>> [(row.place, row.player, row.total) for row in rows]
[(1, 'a', 100), (2, 'c', 80), (3, 'b', 80)]
>>> finalists(rows, k=2, wildcards=["b"])
['a', 'c', 'b']
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

# The presets' points by position (1st, 2nd, …). A championship's places after the final
# are shared by round (3–4, 5–8, 9–16, 17–32), as a Russian bracket gives them.
PRESETS: dict[str, tuple[int, ...]] = {
    "championship": (100, 80, 65, 65) + (50,) * 4 + (35,) * 8 + (20,) * 16,
    "ranking": (50, 40, 32, 32) + (25,) * 4 + (18,) * 8 + (10,) * 16,
    "club": (10, 8, 6, 6) + (4,) * 4 + (2,) * 8 + (1,) * 16,
}

CRITERIA = ("points", "best_place", "head_to_head", "rating", "events")
DEFAULT_CHAIN = ("points", "best_place", "head_to_head", "rating")

# The event's value: the mean of the best TOP ratings of the field against BASE_RATING, the
# race against BASE_RACE, the product kept within [LOW, HIGH].
TOP = 8
BASE_RATING = 1500
RATING_STEP = 1000  # a field 100 points stronger is worth 10 % more
BASE_RACE = 3
RACE_STEP = 0.08  # each frame of race beyond 3 adds 8 %, below 3 takes 8 % off
LOW, HIGH = 0.5, 1.5


def points_table(table) -> tuple[float, ...]:
    """A preset's points (by its key) or the admin's own list, as a tuple of numbers.

    >>> points_table([25, 18, 15])
    (25, 18, 15)
    >>> points_table("nonsense")
    Traceback (most recent call last):
    ...
    ValueError: unknown points table: 'nonsense'
    """
    if isinstance(table, str):
        if table not in PRESETS:
            raise ValueError(f"unknown points table: {table!r}")
        return PRESETS[table]
    values = tuple(table)
    if any(not isinstance(v, int | float) or v < 0 for v in values):
        raise ValueError("points must be numbers of at least 0")
    return values


def position_points(table, position: int) -> float:
    """The points of one position (1 = first); 0 past the table's end."""
    return float(table[position - 1]) if 1 <= position <= len(table) else 0.0


def place_points(table, best: int, worst: int, value: float = 1.0) -> float:
    """The points of a place shared from ``best`` to ``worst``: the average of those
    positions' points, times the event's value, to the hundredth."""
    if best < 1 or worst < best:
        raise ValueError("a place is a range best ≤ worst from 1")
    points = sum(position_points(table, p) for p in range(best, worst + 1))
    return round(points / (worst - best + 1) * value, 2)


def event_value(ratings, race: int, *, low: float = LOW, high: float = HIGH) -> float:
    """The event's value: f(mean of the best ``TOP`` ratings) × g(race), within [low, high].

    f(R) = 1 + (R − 1500) / 1000; g(race) = 1 + 0.08 × (race − 3); rounded to the hundredth.
    A field without ratings counts as 1500.

    >>> event_value([1300, 1200], race=3)
    0.75
    >>> event_value([], race=2)
    0.92
    >>> event_value([2600] * 8, race=9)
    1.5
    """
    best = sorted((r for r in ratings if r is not None), reverse=True)[:TOP]
    mean = sum(best) / len(best) if best else BASE_RATING
    strength = 1 + (mean - BASE_RATING) / RATING_STEP
    length = 1 + RACE_STEP * (race - BASE_RACE)
    return round(min(high, max(low, strength * length)), 2)


@dataclass(frozen=True)
class Result:
    """A player's points at one stage (``stage``: its number), his place there (best, worst),
    and the stage's month (``"2026-03"``) for the best per month."""

    player: object
    stage: int
    points: float
    place: tuple[int, int] | None = None
    month: str = ""


def counted(results, best_n=None, per_month=None, best_months=None) -> set[int]:
    """The indexes of the results that count: all; the best ``best_n``; or, with
    ``per_month``, the best ``per_month`` of each month and of those the best ``best_months``
    months (their totals). Ties keep the earlier stage."""
    order = sorted(range(len(results)), key=lambda i: (-results[i].points, results[i].stage))
    if per_month:
        months = defaultdict(list)
        for i in order:
            if len(months[results[i].month]) < per_month:
                months[results[i].month].append(i)
        chosen = sorted(
            months.values(),
            key=lambda idx: (-sum(results[i].points for i in idx), min(idx)),
        )
        if best_months:
            chosen = chosen[:best_months]
        return {i for idx in chosen for i in idx}
    if best_n:
        return set(order[:best_n])
    return set(order)


def total(results, best_n=None, per_month=None, best_months=None) -> float:
    """The sum of the results that count."""
    keep = counted(results, best_n, per_month, best_months)
    return round(sum(results[i].points for i in keep), 2)


@dataclass
class Row:
    """A line of the table: its place (tied lines share it), the player, his points (the
    results that count), his results (each with ``counted``) and what the chain reads."""

    player: object
    total: float
    results: list = field(default_factory=list)
    counted: set = field(default_factory=set)
    place: int = 0
    best_place: int | None = None
    events: int = 0
    rating: float | None = None

    def result_at(self, stage):
        """(result, counted) at a stage, or None."""
        for i, result in enumerate(self.results):
            if result.stage == stage:
                return result, i in self.counted
        return None


def _head_to_head(group: list[Row]) -> dict:
    """Per player: the stages where he placed above another player of the group, less those
    where he placed below (only stages both played)."""
    score = dict.fromkeys((row.player for row in group), 0)
    places = {
        row.player: {r.stage: r.place[0] for r in row.results if r.place is not None}
        for row in group
    }
    for row in group:
        for other in group:
            if other is row:
                continue
            for stage, mine in places[row.player].items():
                theirs = places[other.player].get(stage)
                if theirs is not None:
                    score[row.player] += (mine < theirs) - (mine > theirs)
    return score


def _key(criterion: str, group: list[Row]):
    """A key (smaller is better) for one criterion within a group of tied lines."""
    if criterion == "points":
        return lambda row: -row.total
    if criterion == "best_place":
        return lambda row: row.best_place if row.best_place is not None else 10**6
    if criterion == "rating":
        return lambda row: -(row.rating if row.rating is not None else -(10**6))
    if criterion == "events":
        return lambda row: -row.events
    if criterion == "head_to_head":
        score = _head_to_head(group)
        return lambda row: -score[row.player]
    raise ValueError(f"unknown tie-break: {criterion!r}")


def _order(group: list[Row], chain) -> list[list[Row]]:
    """The group in order, split by the chain; lines still tied stay together."""
    if not chain or len(group) < 2:
        return [group]
    key = _key(chain[0], group)
    buckets = defaultdict(list)
    for row in group:
        buckets[key(row)].append(row)
    ordered = []
    for value in sorted(buckets):
        ordered.extend(_order(buckets[value], chain[1:]))
    return ordered


def rank(
    results,
    chain=DEFAULT_CHAIN,
    ratings=None,
    best_n=None,
    per_month=None,
    best_months=None,
) -> list[Row]:
    """The table: a line per player of ``results``, ordered by points and then the chain
    (its criteria in ``CRITERIA``; points always decide first); lines the chain leaves tied
    share a place (and are listed by player)."""
    ratings = ratings or {}
    chain = tuple(c for c in chain if c != "points")
    by_player = defaultdict(list)
    for result in results:
        by_player[result.player].append(result)
    rows = []
    for player, own in by_player.items():
        own = sorted(own, key=lambda r: r.stage)
        keep = counted(own, best_n, per_month, best_months)
        places = [r.place[0] for r in own if r.place is not None]
        rows.append(
            Row(
                player=player,
                total=round(sum(own[i].points for i in keep), 2),
                results=own,
                counted=keep,
                best_place=min(places) if places else None,
                events=len(own),
                rating=ratings.get(player),
            )
        )
    ordered = []
    for group in _order(rows, ("points",) + chain):
        group.sort(key=lambda row: str(row.player))
        place = len(ordered) + 1
        for row in group:
            row.place = place
        ordered.extend(group)
    return ordered


def finalists(rows, k: int, wildcards=()) -> list:
    """The final's players: the top ``k`` lines (a tie across the line goes on by the
    order), then the wildcards not already in."""
    top = [row.player for row in rows[:k]]
    return top + [w for w in wildcards if w not in top]


# --- what a player needs ---------------------------------------------------------------------


@dataclass(frozen=True)
class Outlook:
    """Where a player stands against the final's line: ``status`` is "in" (in whatever
    the others score), "out" (not even winning every stage left would do) or "open";
    with "open", the points he needs at least (rivals scoring nothing more) and the worst
    place of the next stage that gives them (None if one stage cannot)."""

    status: str
    needed: float = 0.0
    next_place: int | None = None

    @property
    def beyond(self):
        """The points he must pass: ``needed`` is the least total past them, a hundredth
        more (what the phone says: "more than 21", not "at least 21.01")."""
        return round(self.needed - 0.01, 2)


@dataclass(frozen=True)
class Limits:
    """The results that count: the best ``best_n``, or with ``per_month`` the best of each
    month of the best ``best_months`` months (``counted``)."""

    best_n: int | None = None
    per_month: int | None = None
    best_months: int | None = None

    @property
    def monthly(self):
        return bool(self.per_month)


def _projected(results, added, limits):
    """His total from his ``results`` with ``added`` results more, each (points, month), the
    results that count by ``limits``."""
    extra = [
        Result(None, 10**6 + i, points, None, month) for i, (points, month) in enumerate(added)
    ]
    return total(
        list(results) + extra,
        None if limits.monthly else limits.best_n,
        limits.per_month,
        limits.best_months,
    )


def outlook(
    player,
    rows,
    k: int,
    stages_left: int,
    max_points: float,
    next_table=(),
    best_n=None,
    per_month=None,
    best_months=None,
    months_left=None,
) -> Outlook:
    """What ``player`` needs to be among the top ``k`` after ``stages_left`` stages where a
    stage gives at most ``max_points`` (``next_table``: the next stage's points by position).

    The results that count are the series' (``best_n``, or ``per_month`` of the best
    ``best_months`` months: then the stages left count in their months, ``months_left``, the
    next one first). A bound: he is "in" when fewer than ``k`` rivals could reach his points
    scoring the maximum at every stage left and he nothing more; "out" when ``k`` rivals
    already have more than his best possible; else he needs at least enough points to pass
    the ``k``-th rival as it stands, placed where they count most.

    >>> rows = rank([Result("a", 1, 100), Result("b", 1, 80), Result("c", 1, 20)])
    >>> outlook("a", rows, k=2, stages_left=1, max_points=50)
    Outlook(status='in', needed=0.0, next_place=None)
    >>> outlook("c", rows, k=2, stages_left=1, max_points=50)
    Outlook(status='out', needed=0.0, next_place=None)
    >>> outlook("c", rows, k=2, stages_left=1, max_points=100, next_table=(100, 80, 65))
    Outlook(status='open', needed=60.01, next_place=3)
    >>> outlook("c", rows, k=2, stages_left=1, max_points=100).beyond  # more than 60
    60.0

    With the best result of a month, of the best two months, a stage in a month where he
    has a better result already gives him nothing:

    >>> rows = rank(
    ...     [Result("a", 1, 60, month="01"), Result("a", 2, 40, month="02"),
    ...      Result("b", 1, 50, month="01"), Result("b", 2, 30, month="02")],
    ...     per_month=1, best_months=2,
    ... )
    >>> outlook("b", rows, k=1, stages_left=1, max_points=50, per_month=1, best_months=2,
    ...         months_left=["01"])
    Outlook(status='out', needed=0.0, next_place=None)
    """
    limits = Limits(best_n, per_month, best_months)
    if months_left is None or len(months_left) != stages_left:
        months_left = [""] * stages_left  # months unknown: the stages left's own month
    months_left = list(months_left)
    mine = next((row for row in rows if row.player == player), None)
    own = list(mine.results) if mine else []
    now = _projected(own, [], limits)
    rivals = [row for row in rows if row.player != player]
    at_most = [(max_points, month) for month in months_left]
    best_case = _projected(own, at_most, limits)
    rival_now = sorted((_projected(row.results, [], limits) for row in rivals), reverse=True)
    rival_best = [_projected(row.results, at_most, limits) for row in rivals]
    if sum(1 for value in rival_best if value >= now) < k:
        return Outlook("in")
    if len(rival_now) >= k and rival_now[k - 1] >= best_case:
        return Outlook("out")
    line = rival_now[k - 1] if len(rival_now) >= k else 0.0
    # The least extra points x (in hundredths) with his total past the line.
    step = int(round(max_points * 100))
    low, high = 0, step * stages_left
    if now > line:
        high = 0
    while low < high:
        middle = (low + high) // 2
        if _gain(own, middle, step, months_left, limits) > line:
            high = middle
        else:
            low = middle + 1
    needed = low / 100
    place = None
    next_month = months_left[0] if months_left else ""
    for position in range(len(next_table), 0, -1):
        added = [(position_points(next_table, position), next_month)]
        if _projected(own, added, limits) > line:
            place = position
            break
    return Outlook("open", needed, place)


def _gain(own, extra, step, months_left, limits):
    """His best total with ``extra`` hundredths of points more over the stages left (each at
    most ``step`` hundredths): as few stages as can hold them, each full but one; with a
    month's limits, in whichever months count most."""
    if step <= 0:
        return _projected(own, [], limits)
    full, rest = divmod(extra, step)
    full = min(full, len(months_left))
    if not limits.monthly:
        added = [step / 100] * full + ([rest / 100] if rest and full < len(months_left) else [])
        return _projected(own, [(points, "") for points in added], limits)
    room = sorted(Counter(months_left).items())
    best = None
    for chosen in _spread(room, full):
        added = [(step / 100, month) for month in chosen]
        left = Counter(months_left) - Counter(chosen)
        for month in sorted(left) if rest else [None]:
            extra_result = [] if month is None else [(rest / 100, month)]
            value = _projected(own, added + extra_result, limits)
            best = value if best is None or value > best else best
    return best


def _spread(room, count):
    """Every way to pick ``count`` stages from ``room`` [(month, stages left in it)], as the
    months picked (one entry a stage)."""
    if count == 0:
        yield []
        return
    if not room:
        return
    (month, stages), rest = room[0], room[1:]
    for taken in range(min(stages, count), -1, -1):
        for others in _spread(rest, count - taken):
            yield [month] * taken + others
