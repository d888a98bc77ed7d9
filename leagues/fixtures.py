"""Team leagues: a pure engine (plain Python, no Django, no I/O), like ``tournaments.brackets``.

Teams are known here by any hashable key (the Django side uses their ids).

Fixtures
    ``round_robin(teams, double=False)`` — the circle method: the first team stays put, the
    others turn one place a round; an odd number of teams gets a bye (``None``), whose
    opponent rests that round (its pair is left out). Home and away follow a closed tour of
    all the pairs (an Euler circuit), so each team's homes and aways differ by at most one;
    a double round robin plays the first half again with home and away swapped.

Dates
    ``match_dates(start, weekday, count, holidays)`` — the league's night (0 = Monday) from the
    start date on, one a week, the holidays skipped.

Line-ups
    ``line_up_refusal(format, entries, complete)`` — a line-up names a player for each singles
    game and a pair for each doubles game (``{"race_to": N, "doubles": True}``); a player
    plays at most one singles game and at most one doubles game (so one singles and one
    doubles at most), never both places of a pair. ``line_up_players(entries)``: the distinct
    players, each once (the cap counts each once).

Standings
    ``standings(teams, results, rules)`` — points per match result as the league sets them
    (``Rules.win``/``draw``/``loss``, plus ``per_frame`` points for each frame won), a
    forfeit costs the team that gave it ``Rules.forfeit_penalty`` points more; the ties are
    broken by the league's chain of ``TIE_BREAKS`` in order, then by the teams' order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

POINTS = "points"
HEAD_TO_HEAD = "head_to_head"
FRAMES_DIFFERENCE = "frames_difference"
FRAMES_WON = "frames_won"
MATCHES_WON = "matches_won"
TIE_BREAKS = (POINTS, HEAD_TO_HEAD, FRAMES_DIFFERENCE, FRAMES_WON, MATCHES_WON)


def round_robin(teams: Sequence[Hashable], double: bool = False) -> list[list[tuple]]:
    """The rounds of a round robin, each a list of (home, away) pairs.

    >>> round_robin(["A", "B", "C", "D"])
    [[('A', 'D'), ('B', 'C')], [('C', 'A'), ('D', 'B')], [('A', 'B'), ('D', 'C')]]
    >>> [len(day) for day in round_robin("ABCDE")]  # a bye each round: one team rests
    [2, 2, 2, 2, 2]
    >>> len(round_robin("ABCD", double=True))
    6
    >>> round_robin(["A"])
    []
    """
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise ValueError("a team is listed twice")
    if len(teams) < 2:
        return []
    ring = teams + ([None] if len(teams) % 2 else [])
    n = len(ring)
    home_of = _balanced_homes(teams)
    rounds = []
    for _number in range(n - 1):
        day = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                day.append((a, b) if (a, b) in home_of else (b, a))
        rounds.append(day)
        ring = [ring[0], ring[-1]] + ring[1:-1]
    if double:
        rounds += [[(away, home) for home, away in day] for day in rounds]
    return rounds


def _balanced_homes(teams: list) -> set[tuple]:
    """Who is home in each pair: the pairs walked as one closed tour of them all (an Euler
    circuit; with an even number of teams, first joined two by two by pairs that are not
    played, so that every team has an even number of pairs), each pair's first team home.
    A tour enters a team as often as it leaves it: homes and aways differ by at most one."""
    n = len(teams)
    left = {i: set(range(n)) - {i} for i in range(n)}
    if n % 2 == 0:
        for i in range(0, n, 2):
            left[i].add(i + 1 + n)  # a second, unplayed pair of i and i + 1
            left[i + 1].add(i + n)
    homes = set()
    stack = [0]
    while stack:
        at = stack[-1]
        if left[at]:
            to = min(left[at])
            left[at].discard(to)
            real = to if to < n else to - n
            left[real].discard(at if to < n else at + n)
            stack.append(real)
            if to < n:
                homes.add((teams[at], teams[real]))
        else:
            stack.pop()
    return homes


def match_dates(
    start: dt.date, weekday: int, count: int, holidays: Iterable[dt.date] = ()
) -> list[dt.date]:
    """``count`` dates on ``weekday`` (0 = Monday) from ``start`` on, holidays skipped.

    >>> match_dates(dt.date(2026, 1, 1), 2, 3, [dt.date(2026, 1, 14)])
    [datetime.date(2026, 1, 7), datetime.date(2026, 1, 21), datetime.date(2026, 1, 28)]
    """
    if not 0 <= weekday <= 6:
        raise ValueError("a weekday is 0 (Monday) to 6 (Sunday)")
    skip = set(holidays)
    day = start + dt.timedelta(days=(weekday - start.weekday()) % 7)
    dates = []
    while len(dates) < count:
        if day not in skip:
            dates.append(day)
        day += dt.timedelta(days=7)
    return dates


# Why a line-up is refused (``line_up_refusal``).
SHAPE = "shape"  # not one entry a game, or a pair where a player is due (or the reverse)
MISSING = "missing"  # a choice left out (a locked line-up names everybody)
SAME_PAIR = "same_pair"  # one player both places of a pair
SINGLES_TWICE = "singles_twice"  # one player in two singles games
DOUBLES_TWICE = "doubles_twice"  # one player in two pairs


def is_doubles(game: Mapping) -> bool:
    return bool(game.get("doubles"))


def line_up_refusal(
    format: Sequence[Mapping], entries: Sequence, complete: bool = True
) -> str | None:
    """Why ``entries`` (a player for each singles game, a pair for each doubles game, in the
    format's order) is no line-up, or None. A draft (``complete=False``) may leave choices out
    (None).

    >>> fmt = [{"race_to": 2}, {"race_to": 2}, {"race_to": 1, "doubles": True}]
    >>> line_up_refusal(fmt, [1, 2, [1, 3]]) is None  # 1 plays a singles and a doubles game
    True
    >>> line_up_refusal(fmt, [1, 1, [2, 3]]), line_up_refusal(fmt, [1, 2, [3, 3]])
    ('singles_twice', 'same_pair')
    >>> line_up_refusal(fmt, [1, None, [2, None]]), line_up_refusal(fmt, [1, 2, 3])
    ('missing', 'shape')
    >>> line_up_refusal(fmt, [1, None, [2, None]], complete=False) is None
    True
    >>> line_up_refusal(fmt * 2, [1, 2, [1, 3], 4, 5, [3, 4]])
    'doubles_twice'
    """
    if len(entries) != len(format):
        return SHAPE
    singles, doubles = [], []
    missing = False
    for game, entry in zip(format, entries, strict=True):
        if is_doubles(game):
            if not isinstance(entry, list | tuple) or len(entry) != 2:
                return SHAPE
            chosen = [player for player in entry if player is not None]
            missing |= len(chosen) < 2
            if len(set(chosen)) < len(chosen):
                return SAME_PAIR
            doubles += chosen
        elif isinstance(entry, list | tuple):
            return SHAPE
        elif entry is None:
            missing = True
        else:
            singles.append(entry)
    if len(set(singles)) < len(singles):
        return SINGLES_TWICE
    if len(set(doubles)) < len(doubles):
        return DOUBLES_TWICE
    if complete and missing:
        return MISSING
    return None


def line_up_players(entries: Iterable) -> list:
    """The distinct players of a line-up, in the order they first appear.

    >>> line_up_players([1, 2, [1, 3], None, [None, 4]])
    [1, 2, 3, 4]
    """
    seen = []
    for entry in entries:
        for player in entry if isinstance(entry, list | tuple) else [entry]:
            if player is not None and player not in seen:
                seen.append(player)
    return seen


@dataclass(frozen=True)
class Result:
    """A match day's result: the frames each team won; ``forfeit`` names the team that gave
    it (its opponent wins whatever the frames say)."""

    home: Hashable
    away: Hashable
    home_frames: int
    away_frames: int
    forfeit: Hashable | None = None

    @property
    def winner(self):
        if self.forfeit is not None:
            return self.away if self.forfeit == self.home else self.home
        if self.home_frames == self.away_frames:
            return None
        return self.home if self.home_frames > self.away_frames else self.away


@dataclass(frozen=True)
class Rules:
    win: int = 2
    draw: int = 1
    loss: int = 0
    per_frame: int = 0
    forfeit_penalty: int = 0
    tie_breaks: tuple[str, ...] = (POINTS, HEAD_TO_HEAD, FRAMES_DIFFERENCE, FRAMES_WON)

    def __post_init__(self):
        unknown = set(self.tie_breaks) - set(TIE_BREAKS)
        if unknown:
            raise ValueError(f"unknown tie-breaks: {sorted(unknown)}")


@dataclass
class Row:
    team: Hashable
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    frames_won: int = 0
    frames_lost: int = 0
    forfeits: int = 0
    points: int = 0
    place: int = 0
    h2h: dict = field(default_factory=dict, repr=False)

    @property
    def frames_difference(self):
        return self.frames_won - self.frames_lost


def _points(rules: Rules, result: Result, team) -> int:
    winner = result.winner
    points = rules.win if winner == team else rules.draw if winner is None else rules.loss
    frames = result.home_frames if team == result.home else result.away_frames
    points += rules.per_frame * frames
    if result.forfeit == team:
        points -= rules.forfeit_penalty
    return points


def standings(teams: Sequence[Hashable], results: Iterable[Result], rules: Rules) -> list[Row]:
    """The table, best first, each row with its place (tied teams on every tie-break share it).

    >>> rules = Rules(win=2, draw=1, loss=0)
    >>> table = standings("ABC", [Result("A", "B", 3, 2), Result("B", "C", 1, 4),
    ...                           Result("C", "A", 2, 3)], rules)
    >>> [(row.team, row.points, row.frames_difference) for row in table]
    [('A', 4, 2), ('C', 2, 2), ('B', 0, -4)]
    >>> [row.points for row in standings("AB", [Result("A", "B", 0, 0, forfeit="A")],
    ...                                   Rules(forfeit_penalty=1))]
    [2, -1]
    """
    rows = {team: Row(team) for team in teams}
    for result in results:
        winner = result.winner
        for team, won, lost in (
            (result.home, result.home_frames, result.away_frames),
            (result.away, result.away_frames, result.home_frames),
        ):
            row = rows[team]
            row.played += 1
            row.frames_won += won
            row.frames_lost += lost
            row.won += winner == team
            row.lost += winner is not None and winner != team
            row.drawn += winner is None
            row.forfeits += result.forfeit == team
            points = _points(rules, result, team)
            row.points += points
            other = result.away if team == result.home else result.home
            row.h2h[other] = row.h2h.get(other, 0) + points
    order = {team: index for index, team in enumerate(teams)}
    ranked = _rank(list(rows.values()), list(rules.tie_breaks))
    # Each group still tied shares one place.
    table = []
    for group in ranked:
        place = len(table) + 1
        for row in sorted(group, key=lambda row: order[row.team]):
            row.place = place
            table.append(row)
    return table


def _rank(rows: list[Row], chain: list[str]) -> list[list[Row]]:
    """Groups of rows, best first, still tied after the chain's keys."""
    if not chain or len(rows) < 2:
        return [rows]
    key, rest = chain[0], chain[1:]
    if key == HEAD_TO_HEAD:
        members = {row.team for row in rows}

        def value(row):
            return sum(points for other, points in row.h2h.items() if other in members)

    else:
        attribute = {MATCHES_WON: "won"}.get(key, key)

        def value(row):
            return getattr(row, attribute)

    groups: dict[int, list[Row]] = {}
    for row in rows:
        groups.setdefault(value(row), []).append(row)
    ranked = []
    for _value, group in sorted(groups.items(), key=lambda item: -item[0]):
        ranked += _rank(group, rest)
    return ranked
