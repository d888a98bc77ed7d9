"""A tournament's money: entry fees, their split and the prizes. A pure engine (plain
Python, no Django, no I/O), like ``tournaments.brackets``; every amount is integer kopecks.

The regulation (``Regulation``, stored as JSON on the tournament: ``from_json`` /
``to_json``) says:

Fee
    One fee, or by rating band: ``bands`` is a list of (rating up to, fee), the first band
    whose limit is at or above the entrant's rating gives his fee; above every band, or
    without a rating, ``fee``.
Split
    Each fee is split into the evening's prize fund, the series final's fund and the club's
    costs: as percentages (in basis points, 1 % = 100) of the fee, or as fixed kopecks per
    fee. A percentage share is rounded down to the kopeck; **the club's costs take what is
    left**, so for each fee: prize + final + costs = fee exactly. A fixed split larger than a
    (banded) fee gives the prize fund first, then the final, the costs nothing.
Per win
    ``per_win`` kopecks go back to a player for each match he won, taken from the prize fund
    first. When the fund cannot pay every win that much, each win gets the fund divided by
    the wins, rounded down to the kopeck. The rest of the fund is paid by the table.
Payout table
    Chosen by the number of entrants: the first table whose ``up_to`` is at or above it
    (the last table otherwise). A table's row (best, worst, share) gives each place from
    best to worst ``share`` basis points of the fund (e.g. semi-finalists (3, 4, 2500):
    25 % each).
Places and ties
    Players are ordered by their places (``tournaments.brackets`` gives seed → (best,
    worst)) and take the positions 1, 2, … in that order; players with the same (best,
    worst) share their positions: the shares of those positions are added up and divided
    equally among them. Each prize is rounded down to the regulation's ``unit`` (1 kopeck,
    or 100: whole roubles).
Remainder
    The prize fund is always paid out in full: what the table leaves (shares under 100 %,
    places nobody holds, the rounding) goes to the winner — to the players of the first
    position, divided equally to the kopeck, the first of them in the given order taking one
    kopeck more each while some are left. So players who share a place get the same prize,
    and the winners sharing a first place differ by at most one kopeck; prizes paid = the
    prize fund, to the kopeck.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

PERCENT = "percent"
FIXED = "fixed"
SPLIT_MODES = (PERCENT, FIXED)
WHOLE = 10_000  # basis points in 100 %
UNITS = (1, 100)  # prizes rounded to the kopeck, or to whole roubles
MAX_MONEY = 100_000_000_00  # 100 million roubles: far above any club's fee or fund


class RegulationError(ValueError):
    """A regulation that cannot be used; its message is an English sentence (the forms
    check each field first and say it in the user's language)."""


@dataclass(frozen=True)
class Split:
    """How each fee is shared: ``prize`` and ``final`` in basis points (``mode`` percent) or
    in kopecks per fee (``mode`` fixed); the club's costs take the rest."""

    mode: str = PERCENT
    prize: int = WHOLE
    final: int = 0

    def of(self, fee: int) -> Shares:
        if self.mode == PERCENT:
            prize = fee * self.prize // WHOLE
            final = fee * self.final // WHOLE
        else:
            prize = min(self.prize, fee)
            final = min(self.final, fee - prize)
        return Shares(fee=fee, prize=prize, final=final, costs=fee - prize - final)


@dataclass(frozen=True)
class Shares:
    fee: int = 0
    prize: int = 0
    final: int = 0
    costs: int = 0

    def __add__(self, other: Shares) -> Shares:
        return Shares(
            self.fee + other.fee,
            self.prize + other.prize,
            self.final + other.final,
            self.costs + other.costs,
        )


@dataclass(frozen=True)
class Row:
    """Places ``best`` … ``worst`` get ``share`` basis points of the fund each."""

    best: int
    worst: int
    share: int


@dataclass(frozen=True)
class Table:
    """The payout table for up to ``up_to`` entrants (None: any number)."""

    up_to: int | None
    rows: tuple[Row, ...]

    def share_of(self, position: int) -> int:
        return sum(row.share for row in self.rows if row.best <= position <= row.worst)

    @property
    def paid_places(self) -> int:
        return max((row.worst for row in self.rows if row.share), default=0)


def _table(up_to, *rows):
    return Table(up_to, tuple(Row(*row) for row in rows))


# The presets: a club evening's (by the number of entrants) and one where the semi-finalists
# share a quarter each. Shares under 100 % leave the rest to the winner.
PRESETS = {
    "evening": (
        _table(12, (1, 1, 5000), (2, 2, 3000), (3, 3, 1500)),
        _table(16, (1, 1, 4000), (2, 2, 2500), (3, 3, 1750), (4, 4, 1250)),
        _table(32, (1, 1, 3000), (2, 2, 2000), (3, 4, 1250), (5, 8, 625)),
        _table(None, (1, 1, 2500), (2, 2, 1500), (3, 4, 1000), (5, 8, 500), (9, 16, 250)),
    ),
    "semifinals": (_table(None, (1, 1, 3000), (2, 2, 2000), (3, 4, 2500)),),
    "winner": (_table(None, (1, 1, WHOLE)),),
}


@dataclass(frozen=True)
class Regulation:
    fee: int = 0
    bands: tuple[tuple[int, int], ...] = ()  # (rating up to, fee), by rising limit
    split: Split = field(default_factory=Split)
    preset: str = "evening"  # a key of PRESETS, or "" for ``tables``
    tables: tuple[Table, ...] = ()
    per_win: int = 0
    unit: int = 1

    def fee_for(self, rating: float | None) -> int:
        if rating is not None:
            for up_to, fee in self.bands:
                if rating <= up_to:
                    return fee
        return self.fee

    @property
    def payout_tables(self) -> tuple[Table, ...]:
        return PRESETS[self.preset] if self.preset else self.tables

    def table_for(self, entrants: int) -> Table:
        tables = self.payout_tables
        for table in tables:
            if table.up_to is None or entrants <= table.up_to:
                return table
        return tables[-1]

    def to_json(self) -> dict:
        data = {
            "fee": self.fee,
            "bands": [list(band) for band in self.bands],
            "split": {
                "mode": self.split.mode,
                "prize": self.split.prize,
                "final": self.split.final,
            },
            "preset": self.preset,
            "per_win": self.per_win,
            "unit": self.unit,
        }
        if not self.preset:
            data["tables"] = [
                {"up_to": t.up_to, "rows": [[r.best, r.worst, r.share] for r in t.rows]}
                for t in self.tables
            ]
        return data

    @classmethod
    def from_json(cls, data) -> Regulation | None:
        """The regulation stored as ``to_json`` made it; None for none (an empty dict);
        ``RegulationError`` when it is not one."""
        if not data:
            return None
        if not isinstance(data, dict):
            raise RegulationError("A regulation is a JSON object.")
        try:
            split = data.get("split") or {}
            tables = tuple(
                Table(
                    None if t.get("up_to") is None else _int(t["up_to"]),
                    tuple(Row(*(_int(v) for v in row)) for row in t["rows"]),
                )
                for t in data.get("tables") or ()
            )
            regulation = cls(
                fee=_int(data.get("fee", 0)),
                bands=tuple((_int(a), _int(b)) for a, b in data.get("bands") or ()),
                split=Split(
                    str(split.get("mode", PERCENT)),
                    _int(split.get("prize", WHOLE)),
                    _int(split.get("final", 0)),
                ),
                preset=str(data.get("preset", "")),
                tables=tables,
                per_win=_int(data.get("per_win", 0)),
                unit=_int(data.get("unit", 1)),
            )
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise RegulationError(f"Not a regulation: {error}") from None
        regulation.check()
        return regulation

    def check(self) -> None:
        """Raises ``RegulationError`` unless the regulation can be used."""
        money = [self.fee, self.per_win, *(fee for _, fee in self.bands)]
        if any(not 0 <= value <= MAX_MONEY for value in money):
            raise RegulationError("A fee is 0 or more, and not absurdly large.")
        limits = [up_to for up_to, _ in self.bands]
        if limits != sorted(set(limits)):
            raise RegulationError("The rating bands' limits must rise.")
        if self.split.mode not in SPLIT_MODES:
            raise RegulationError("Unknown split.")
        if self.split.prize < 0 or self.split.final < 0:
            raise RegulationError("A share cannot be negative.")
        if self.split.mode == PERCENT and self.split.prize + self.split.final > WHOLE:
            raise RegulationError("The prize fund and the final's fund exceed 100 %.")
        if self.split.mode == FIXED and max(self.split.prize, self.split.final) > MAX_MONEY:
            raise RegulationError("A share is absurdly large.")
        if self.unit not in UNITS:
            raise RegulationError("Prizes are rounded to the kopeck or to the rouble.")
        if self.preset and self.preset not in PRESETS:
            raise RegulationError("Unknown payout table.")
        if not self.preset:
            check_tables(self.tables)


def check_tables(tables: Sequence[Table]) -> None:
    if not tables:
        raise RegulationError("Give at least one payout table.")
    limits = [t.up_to for t in tables]
    if None in limits[:-1] or [x for x in limits if x is not None] != sorted(
        {x for x in limits if x is not None}
    ):
        raise RegulationError("The tables' numbers of entrants must rise.")
    for table in tables:
        if not table.rows:
            raise RegulationError("A payout table needs at least one paid place.")
        for row in table.rows:
            if not 1 <= row.best <= row.worst <= 1000 or row.share < 0:
                raise RegulationError("A row is a range of places and a share of 0 or more.")
        total = sum(row.share * (row.worst - row.best + 1) for row in table.rows)
        if total > WHOLE:
            raise RegulationError("A payout table hands out more than 100 %.")
        places = [p for row in table.rows for p in range(row.best, row.worst + 1)]
        if len(places) != len(set(places)):
            raise RegulationError("A place is in two rows of a payout table.")


def _int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not a whole number")
    return value


@dataclass(frozen=True)
class Player:
    """An entrant as the payout sees him: his key, his place range (None: not placed) and
    the matches he won."""

    key: object
    place: tuple[int, int] | None = None
    wins: int = 0


@dataclass(frozen=True)
class Prize:
    key: object
    position: tuple[int, int] | None  # the positions he shares, (first, last)
    table: int = 0  # from the payout table (with the winner's remainder)
    wins: int = 0  # returned for the matches won

    @property
    def amount(self) -> int:
        return self.table + self.wins


@dataclass(frozen=True)
class Payout:
    fund: int
    per_win: int  # what each win returned (``per_win``, or less when the fund was short)
    prizes: tuple[Prize, ...]

    @property
    def paid(self) -> int:
        return sum(prize.amount for prize in self.prizes)


def fund_of(regulation: Regulation, fees: Iterable[int]) -> Shares:
    """The fees' shares added up (each fee split on its own)."""
    total = Shares()
    for fee in fees:
        total += regulation.split.of(fee)
    return total


def place_amounts(regulation: Regulation, fund: int, entrants: int) -> list[tuple[int, int, int]]:
    """The payout table as the public page shows it before ties are known: [(best, worst,
    kopecks each)] for the entrants' table, the fund less the wins' returns unknown yet."""
    table = regulation.table_for(entrants)
    return [
        (row.best, row.worst, _round(Fraction(fund * row.share, WHOLE), regulation.unit))
        for row in table.rows
        if row.best <= entrants
    ]


def _round(amount: Fraction, unit: int) -> int:
    return int(amount // unit) * unit


def payout(regulation: Regulation, fund: int, players: Sequence[Player]) -> Payout:
    """Every player's prize from a prize fund of ``fund`` kopecks: the wins' returns, the
    table by the number of players, ties sharing, the remainder to the winner. With nobody
    placed nothing of the table is handed out (``Payout.paid`` < fund)."""
    if fund < 0:
        raise RegulationError("A fund cannot be negative.")
    wins = sum(max(player.wins, 0) for player in players)
    per_win = min(regulation.per_win, fund // wins) if wins else regulation.per_win
    rest = fund - per_win * wins
    table = regulation.table_for(len(players))
    placed = sorted(
        (p for p in players if p.place is not None),
        key=lambda p: (p.place[0], p.place[1]),
    )
    groups: list[list[Player]] = []
    for player in placed:
        if groups and groups[-1][0].place == player.place:
            groups[-1].append(player)
        else:
            groups.append([player])
    from_table: dict[object, int] = {}
    positions: dict[object, tuple[int, int]] = {}
    first = 1
    for group in groups:
        last = first + len(group) - 1
        pool = Fraction(rest * sum(table.share_of(p) for p in range(first, last + 1)), WHOLE)
        each = _round(pool / len(group), regulation.unit)
        for player in group:
            from_table[player.key] = each
            positions[player.key] = (first, last)
        first = last + 1
    if groups:
        left = rest - sum(from_table.values())
        winners = groups[0]
        each, extra = divmod(left, len(winners))
        for index, player in enumerate(winners):
            from_table[player.key] += each + (1 if index < extra else 0)
    prizes = tuple(
        Prize(
            key=player.key,
            position=positions.get(player.key),
            table=from_table.get(player.key, 0),
            wins=per_win * max(player.wins, 0),
        )
        for player in players
    )
    return Payout(fund=fund, per_win=per_win, prizes=prizes)
