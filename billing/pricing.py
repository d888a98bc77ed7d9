"""Table time pricing: plain Python (no Django, no I/O), money in integer kopecks.

The rule
========

A session is a list of played intervals (pauses are simply not in the list; a session moved
to another table has intervals on both tables, each priced with its own table kind's bands).
Times are aware datetimes (stored in UTC); bands are read in the club's time zone.

1. **Cut at band boundaries.** Each played interval is cut wherever the band in force changes,
   in the club's local time, to the second. Each piece is a *period* of one band, priced at
   ``seconds × price per hour / 3600`` kopecks, kept exact (no rounding yet).
2. **Bands.** A band has weekdays, a start and an end time and a price per hour. An end at or
   before the start runs past midnight: the band belongs to the day it starts on (a Friday
   18:00–02:00 band covers Saturday 00:00–02:00). A *special day* is priced with the bands of
   another weekday (a holiday priced as a Sunday). At any instant the band in force is the
   one that started most recently (with a validated tariff exactly one covers each instant).
3. **Rounding up, once.** The total played time is rounded up to the club's step (never once
   per band); the minimum charge, if longer, replaces it. The seconds added are priced at the
   band the session ended in (the band of its last played second).
4. **Whole roubles.** The exact sum is rounded to whole roubles at the end, half up.
5. **Discount.** A member's discount % is taken off that, to the kopeck (half up).

A worked example: Monday–Friday 10:00–18:00 costs 400 ₽/h, 18:00–02:00 700 ₽/h; every day
02:00–10:00 500 ₽/h; weekends 10:00–02:00 800 ₽/h. Step 15 min, minimum 30 min. A game on
Friday 4 December 2026 from 17:20:10 to 18:27:40 (Moscow), paused 17:50–18:00:

>>> from datetime import datetime, time
>>> from zoneinfo import ZoneInfo
>>> msk = ZoneInfo("Europe/Moscow")
>>> bands = [
...     Band(WEEK, time(2), time(10), 500_00, "day"),
...     Band(WORKDAYS, time(10), time(18), 400_00, "weekday"),
...     Band(WORKDAYS, time(18), time(2), 700_00, "weekday evening"),
...     Band(WEEKEND, time(10), time(2), 800_00, "weekend"),
... ]
>>> tariff = Tariff({"pyramid_12": bands}, step=15 * 60, minimum=30 * 60, tz=msk)
>>> at = lambda h, m, s=0: datetime(2026, 12, 4, h, m, s, tzinfo=msk)
>>> price = tariff.price([
...     Played(at(17, 20, 10), at(17, 50), "pyramid_12"),
...     Played(at(18, 0), at(18, 27, 40), "pyramid_12"),
... ])
>>> for period in price.periods:
...     print(period.band.name, period.seconds, format_kopecks(period.amount))
weekday 1790 198.89
weekday evening 1660 322.78
>>> price.played, price.charged, price.extra, price.extra_band.name
(3450, 3600, 150, 'weekday evening')
>>> format_kopecks(price.extra_amount), format_kopecks(price.subtotal)
('29.17', '550.83')
>>> format_kopecks(price.rounded), format_kopecks(price.rounding)
('551.00', '0.17')

57 min 30 s played, rounded up once to 60 min; the 2 min 30 s added are priced at the
evening's 700 ₽/h (29.17 ₽); 198.89 + 322.78 + 29.17 = 550.83 ₽ (exactly 550.8333…), charged
551 ₽. With a member's 10 % discount:

>>> with_discount = tariff.price(price.intervals, discount_percent=10)
>>> format_kopecks(with_discount.discount), format_kopecks(with_discount.total)
('55.10', '495.90')
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from fractions import Fraction
from zoneinfo import ZoneInfo

SECONDS_PER_HOUR = 3600
DAY = 24 * 3600
WEEK_SECONDS = 7 * DAY
WEEK = frozenset(range(7))  # 0 = Monday … 6 = Sunday, as datetime.weekday()
WORKDAYS = frozenset(range(5))
WEEKEND = frozenset({5, 6})
# The longest stretch of time the site prices at once (the tariffs page's preview) and the
# furthest back a played time may be corrected.
MAX_DAYS = 31


def half_up(numerator, denominator):
    """``numerator / denominator`` rounded to the nearest integer, halves up (both ≥ 0)."""
    return (2 * numerator + denominator) // (2 * denominator)


def format_kopecks(kopecks):
    """``12345`` → ``'123.45'``; a fractional amount is shown to the kopeck, half up."""
    if not isinstance(kopecks, int):
        kopecks = half_up(kopecks.numerator, kopecks.denominator)
    sign = "-" if kopecks < 0 else ""
    roubles, rest = divmod(abs(kopecks), 100)
    return f"{sign}{roubles}.{rest:02d}"


@dataclass(frozen=True)
class Band:
    """A price band: on ``weekdays`` from ``start`` to ``end`` (past midnight if end ≤ start)."""

    weekdays: frozenset
    start: time
    end: time
    price_per_hour: int  # kopecks
    name: str = ""
    key: object = None  # the caller's id for the band (e.g. its database pk)

    @property
    def start_seconds(self):
        return self.start.hour * 3600 + self.start.minute * 60 + self.start.second

    @property
    def length(self):
        """Seconds the band lasts; a band whose end equals its start lasts 24 hours."""
        end = self.end.hour * 3600 + self.end.minute * 60 + self.end.second
        return (end - self.start_seconds) % DAY or DAY


@dataclass(frozen=True)
class Played:
    """A played interval ``[start, end)`` on a table of ``kind`` (aware datetimes); ``table``
    is the caller's (e.g. for reports per table), unused by the pricing."""

    start: datetime
    end: datetime
    kind: str
    table: object = None


class Period:
    """A stretch of played time in one band, ``[start, end)``: ``amount`` is what it costs,
    exact (a Fraction of kopecks); ``weight`` is that × 3600, an integer.

    Built for every period of every priced session, so it is kept small and computed lazily.
    """

    __slots__ = ("band", "kind", "start_ts", "end_ts", "tz", "interval")

    def __init__(self, band, kind, start_ts, end_ts, tz, interval=None):
        self.band, self.kind, self.interval = band, kind, interval
        self.start_ts, self.end_ts, self.tz = start_ts, end_ts, tz

    @property
    def seconds(self):
        return self.end_ts - self.start_ts

    @property
    def weight(self):
        """``seconds × price per hour``: the amount × 3600, an integer."""
        return (self.end_ts - self.start_ts) * self.band.price_per_hour

    @property
    def amount(self):
        return Fraction(self.weight, SECONDS_PER_HOUR)

    @property
    def start(self):
        return datetime.fromtimestamp(self.start_ts, self.tz)

    @property
    def end(self):
        return datetime.fromtimestamp(self.end_ts, self.tz)

    @property
    def price_per_hour(self):
        return self.band.price_per_hour

    def __repr__(self):
        return f"Period({self.band.name!r}, {self.start.isoformat()}, {self.seconds} s)"


@dataclass
class Price:
    intervals: list
    periods: list
    played: int  # seconds
    charged: int  # seconds, after the step and the minimum
    extra_band: Band | None
    discount_percent: int
    exact_numerator: int = field(repr=False)  # Σ price × seconds (kopecks × seconds)

    @property
    def extra(self):
        """Seconds added by rounding up to the step or to the minimum."""
        return self.charged - self.played

    @property
    def extra_amount(self):
        if not self.extra:
            return Fraction(0)
        return Fraction(self.extra * self.extra_band.price_per_hour, SECONDS_PER_HOUR)

    @property
    def subtotal(self):
        """The exact amount before rounding to roubles: the periods plus the added time."""
        return Fraction(self.exact_numerator, SECONDS_PER_HOUR)

    @property
    def rounded(self):
        """The subtotal rounded to whole roubles, half up (kopecks)."""
        return 100 * half_up(self.exact_numerator, 100 * SECONDS_PER_HOUR)

    @property
    def rounding(self):
        """What the rounding to roubles added (negative when it rounded down)."""
        return self.rounded - self.subtotal

    @property
    def discount(self):
        return half_up(self.rounded * self.discount_percent, 100)

    @property
    def total(self):
        return self.rounded - self.discount


@dataclass(frozen=True)
class Problem:
    """A gap or an overlap in a week of bands: ``[start, end)`` seconds from Monday 00:00."""

    kind: str  # "gap" or "overlap"
    start: int
    end: int

    def describe(self, day_names):
        """E.g. ``"Mon 00:00 – Mon 02:00"``; ``day_names`` are Monday's … Sunday's labels."""
        return f"{_moment(self.start, day_names)} – {_moment(self.end, day_names)}"


def _moment(seconds, day_names):
    day, rest = divmod(seconds % WEEK_SECONDS, DAY)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock = f"{hours:02d}:{minutes:02d}" + (f":{secs:02d}" if secs else "")
    if seconds == WEEK_SECONDS:  # the very end of Sunday
        return f"{day_names[6]} 24:00"
    return f"{day_names[day]} {clock}"


def week_problems(bands):
    """Gaps and overlaps of one kind's bands over the week (Monday 00:00 … Sunday 24:00).

    >>> week_problems([Band(WEEK, time(2), time(2), 100)])
    []
    >>> [(p.kind, p.start, p.end) for p in week_problems([Band(WEEK, time(0), time(23), 1)])]
    [('gap', 82800, 86400), ('gap', 169200, 172800), ('gap', 255600, 259200), \
('gap', 342000, 345600), ('gap', 428400, 432000), ('gap', 514800, 518400), \
('gap', 601200, 604800)]
    """
    changes = {0: 0, WEEK_SECONDS: 0}
    for band in bands:
        for weekday in band.weekdays:
            start = weekday * DAY + band.start_seconds
            end = start + band.length
            pieces = [(start, end)]
            if end > WEEK_SECONDS:  # Sunday night runs into Monday morning
                pieces = [(start, WEEK_SECONDS), (0, end - WEEK_SECONDS)]
            for a, b in pieces:
                changes[a] = changes.get(a, 0) + 1
                changes[b] = changes.get(b, 0) - 1
    problems = []
    depth = 0
    points = sorted(changes)
    for a, b in zip(points, points[1:], strict=False):
        depth += changes[a]
        kind = "gap" if depth == 0 else "overlap" if depth > 1 else None
        if kind and problems and problems[-1].kind == kind and problems[-1].end == a:
            problems[-1] = Problem(kind, problems[-1].start, b)
        elif kind:
            problems.append(Problem(kind, a, b))
    return problems


class Tariff:
    """The club's bands per table kind, rounding step, minimum and special days.

    ``bands``: ``{kind: [Band, …]}``; ``step`` and ``minimum`` in seconds; ``special_days``:
    ``{date: weekday whose bands apply}``; ``tz``: the club's time zone (a ZoneInfo).

    A tariff changes without repricing the past: ``changes`` are later versions of a kind's
    bands, ``{kind: [(since, [Band, …]), …]}`` (aware datetimes). ``bands`` are in force
    until a kind's first change, each change from its ``since`` until the next: time is
    priced by the version in force when it was played. At a change the band in force is the
    new version's band covering that moment.
    """

    def __init__(self, bands, *, step=60, minimum=0, special_days=None, tz=None, changes=None):
        self.bands = {kind: list(kind_bands) for kind, kind_bands in bands.items()}
        self.step = max(int(step), 1)
        self.minimum = max(int(minimum), 0)
        self.special_days = dict(special_days or {})
        self.tz = tz or ZoneInfo("UTC")
        # kind → [(since timestamp, until timestamp, bands)] in time order
        self._versions = {}
        for kind in set(self.bands) | set(changes or {}):
            later = sorted((changes or {}).get(kind, ()), key=lambda change: change[0])
            starts = [float("-inf")] + [since.timestamp() for since, _bands in later]
            ends = starts[1:] + [float("inf")]
            kind_bands = [self.bands.get(kind, [])] + [list(bands) for _since, bands in later]
            self._versions[kind] = list(zip(starts, ends, kind_bands, strict=True))
        self._days = {}  # (kind, date) → [(start timestamp, band)], sorted

    def weekday_of(self, day):
        return self.special_days.get(day, day.weekday())

    def _occurrences(self, bands, day):
        """(UTC timestamp, band) of ``bands`` starting on ``day`` (local)."""
        weekday = self.weekday_of(day)
        return [
            (datetime.combine(day, band.start, tzinfo=self.tz).timestamp(), band)
            for band in bands
            if weekday in band.weekdays
        ]

    def _starts(self, kind, day):
        """Band occurrences that start on ``day`` (local): (UTC timestamp, band), sorted; a
        version's start that falls on the day is one too (its band covering that moment)."""
        key = (kind, day)
        if key not in self._days:
            first = datetime.combine(day, time(0), tzinfo=self.tz).timestamp()
            last = datetime.combine(day + timedelta(days=1), time(0), tzinfo=self.tz).timestamp()
            starts = []
            for since, until, bands in self._versions.get(kind, ()):
                starts.extend(
                    (moment, band)
                    for moment, band in self._occurrences(bands, day)
                    if since <= moment < until
                )
                if first <= since < last:
                    covering = self._covering(bands, since)
                    if covering is not None:
                        starts.append((since, covering))
            self._days[key] = sorted(
                {(moment, id(band)): (moment, id(band), band) for moment, band in starts}.values()
            )
        return self._days[key]

    def _covering(self, bands, moment):
        """The band of ``bands`` in force at ``moment``: the latest to start at or before it
        (a validated week's band lasts at most a day: it started today or yesterday)."""
        day = datetime.fromtimestamp(moment, self.tz).date()
        earlier = [
            (start, id(band), band)
            for start, band in self._occurrences(bands, day - timedelta(days=1))
            + self._occurrences(bands, day)
            if start <= moment
        ]
        return max(earlier)[2] if earlier else None

    def _timeline(self, kind, start, end):
        """Band starts from before ``start`` to ``end``: parallel lists (timestamps, bands)."""
        first = datetime.fromtimestamp(start, self.tz).date() - timedelta(days=1)
        last = datetime.fromtimestamp(end, self.tz).date()
        starts = []
        day = first
        while day <= last:
            starts.extend(self._starts(kind, day))
            day += timedelta(days=1)
        starts.sort(key=lambda item: item[:2])
        return [item[0] for item in starts], [item[2] for item in starts]

    def periods(self, interval):
        """The interval cut at band changes: [(start ts, end ts, band)] in time order."""
        start, end = int(interval.start.timestamp()), int(interval.end.timestamp())
        if end <= start:
            return []
        moments, bands = self._timeline(interval.kind, start, end)
        index = bisect_right(moments, start) - 1
        if index < 0:
            # Not possible with a tariff covering the week; say so rather than guess.
            raise ValueError(f"No band covers {interval.start.isoformat()} ({interval.kind}).")
        pieces = []
        cursor = start
        while cursor < end:
            following = moments[index + 1] if index + 1 < len(moments) else end
            piece_end = min(end, int(following))
            if piece_end > cursor:
                pieces.append((cursor, piece_end, bands[index]))
            cursor = max(cursor, piece_end)
            index += 1
        return pieces

    def price(self, intervals, *, discount_percent=0):
        """Prices a session's played intervals (see the module's docstring for the rule)."""
        intervals = sorted(intervals, key=lambda interval: interval.start)
        periods = []
        numerator = 0
        played = 0
        tz = self.tz
        for interval in intervals:
            for a, b, band in self.periods(interval):
                numerator += (b - a) * band.price_per_hour
                played += b - a
                periods.append(Period(band, interval.kind, a, b, tz, interval))
        charged = 0
        extra_band = None
        if played:
            charged = max(-(-played // self.step) * self.step, self.minimum)
            last = max(periods, key=lambda period: period.end_ts)
            extra_band = last.band
            numerator += (charged - played) * extra_band.price_per_hour
        return Price(
            intervals=intervals,
            periods=periods,
            played=played,
            charged=charged,
            extra_band=extra_band,
            discount_percent=int(discount_percent),
            exact_numerator=numerator,
        )
