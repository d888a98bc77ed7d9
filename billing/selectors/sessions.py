"""Reads of the tables' clocks: what a clock shows, what the time so far costs, the desk's
cards and a board's clock strip."""

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils import timezone

from billing import pricing
from billing.models import (
    OPEN_STATUSES,
    Bill,
    BillingSettings,
    SessionStatus,
    Stretch,
    TableSession,
)
from billing.selectors.bookings import next_bookings
from billing.selectors.tariffs import club_tariff
from tables.models import Table


@dataclass
class Clock:
    """What a clock shows of a session at ``now``: the ticking is done in the browser from
    ``base`` (seconds of the finished stretches) and ``since`` (the open stretch's start)."""

    session: object
    now: datetime
    base: int
    since: datetime | None
    prepaid: int | None  # seconds
    price: object = None  # pricing.Price of the time so far, when asked for
    # When the price is asked for and the clock runs: [(elapsed seconds, kopecks)], the
    # total from the moment the elapsed time passes each (the step's rounding makes it
    # change only then), for the browser to tick with the clock.
    amounts: list = field(default_factory=list)

    @property
    def running(self):
        return self.since is not None

    @property
    def elapsed(self):
        return self.base + (int((self.now - self.since).total_seconds()) if self.since else 0)

    @property
    def remaining(self):
        return None if self.prepaid is None else self.prepaid - self.elapsed

    @property
    def left(self):
        """The prepaid time left as shown: never below zero (then the "time is up" warning)."""
        return None if self.prepaid is None else max(self.remaining, 0)

    @property
    def warning(self):
        """ "over", "1" or "10" when the prepaid time is up or at most 1 / 10 minutes away."""
        left = self.remaining
        if left is None:
            return ""
        return "over" if left <= 0 else "1" if left <= 60 else "10" if left <= 600 else ""


VOID_MINUTES = 5  # how long after its start a clock started by mistake may be voided
AMOUNTS_AHEAD = 12  # steps: three hours at the usual 15 minutes


def played(session, now=None):
    """The session's played intervals for the pricing engine (an open one ends ``now``)."""
    now = now or timezone.now()
    return [
        pricing.Played(
            stretch.started_at,
            stretch.ended_at or max(now, stretch.started_at),
            stretch.table.kind,
            stretch.table.number,
        )
        for stretch in session.stretches.all()
    ]


def clock_of(session, now=None, tariff=None):
    """The session's clock; priced when a ``tariff`` is given (None if it cannot be)."""
    now = now or timezone.now()
    base, since = 0, None
    for stretch in session.stretches.all():
        if stretch.ended_at is None:
            since = stretch.started_at
        else:
            base += int((stretch.ended_at - stretch.started_at).total_seconds())
    prepaid = session.prepaid_minutes * 60 if session.prepaid_minutes else None
    clock = Clock(session=session, now=now, base=base, since=since, prepaid=prepaid)
    if tariff is not None:
        clock.price = price_of(session, tariff, now)
        clock.amounts = amounts_ahead(session, clock, tariff)
    return clock


def amounts_ahead(session, clock, tariff, count=AMOUNTS_AHEAD):
    """What the running ``clock``'s total becomes as it ticks. The played time ``p`` is
    charged rounded up to the step, at least the minimum: ``max(ceil(p / step) × step,
    minimum)``, which changes only when ``p`` passes 0 or a multiple of the step, ``t``;
    from then on the total is the price of that charged time. The next ``count`` of them,
    [(t, kopecks)]."""
    if not clock.running or clock.price is None:
        return []
    step, minimum = tariff.step, tariff.minimum
    intervals = played(session, clock.now)
    running = max(intervals, key=lambda interval: interval.start)
    others = [interval for interval in intervals if interval is not running]
    first = max(-(-clock.elapsed // step), (minimum - step) // step + 1, 1)
    thresholds = [0] if clock.elapsed == 0 else []
    thresholds += [k * step for k in range(first, first + count)]
    amounts = []
    for threshold in thresholds[:count]:
        charged = max(-(-(threshold + 1) // step) * step, minimum)
        charged_until = running.start + timedelta(seconds=charged - clock.base)
        extended = replace(running, end=max(charged_until, running.start))
        try:
            total = tariff.price([*others, extended]).total
        except ValueError:
            break
        amounts.append((threshold, total))
    return amounts


def price_of(session, tariff=None, now=None, discount=0):
    """What the session's time costs (at ``now`` if it runs); None when a kind has no tariff."""
    tariff = tariff or club_tariff()
    try:
        return tariff.price(played(session, now), discount_percent=discount)
    except ValueError:
        return None


def prepaid_price(kind, start, minutes, tariff=None):
    """What ``minutes`` of a table of ``kind`` from ``start`` cost (kopecks), None when the
    kind has no tariff then."""
    tariff = tariff or club_tariff()
    try:
        price = tariff.price([pricing.Played(start, start + timedelta(minutes=minutes), kind)])
    except ValueError:
        return None
    return price.total


def open_sessions():
    """The running and paused sessions by table id, their stretches fetched."""
    sessions = TableSession.objects.filter(status__in=OPEN_STATUSES).prefetch_related(
        Prefetch("stretches", queryset=Stretch.objects.select_related("table"))
    )
    return {session.table_id: session for session in sessions}


def clocks_by_table(*, priced=False, now=None):
    """``{table id: Clock}`` of every open session, priced if asked (one tariff read)."""
    now = now or timezone.now()
    tariff = club_tariff() if priced else None
    return {
        table_id: clock_of(session, now, tariff) for table_id, session in open_sessions().items()
    }


def tables_with_running_clock(tables):
    """The tables of a Table queryset whose clock runs or is paused (the ``tables.holds``
    hold billing registers: such a table stays active and in service)."""
    open_here = TableSession.objects.filter(table=OuterRef("pk"), status__in=OPEN_STATUSES)
    return tables.filter(Exists(open_here))


def _voidable(clock, billed):
    """True while the clock's session may be voided (started by mistake a moment ago, no
    money taken: ``billed`` are the sessions with a bill)."""
    if clock is None or clock.session.pk in billed:
        return False
    return clock.now - clock.session.started_at <= timedelta(minutes=VOID_MINUTES)


def _billed_open_sessions():
    return set(
        Bill.objects.filter(session__status__in=OPEN_STATUSES).values_list("session_id", flat=True)
    )


def clock_running(table):
    """True when ``table`` has a running or paused session."""
    return TableSession.objects.filter(table=table, status__in=OPEN_STATUSES).exists()


def session_detail(pk):
    return (
        TableSession.objects.select_related("table", "started_by")
        .prefetch_related(Prefetch("stretches", queryset=Stretch.objects.select_related("table")))
        .get(pk=pk)
    )


# --- the cashier's desk ------------------------------------------------------------------


def free_tables():
    """Active tables in service with no open session: where a session may move to."""
    return Table.objects.filter(is_active=True, out_of_service=False).exclude(
        clock_sessions__status__in=OPEN_STATUSES
    )


def desk_tables():
    """The active tables as the desk shows them: each with ``clock`` (priced, or None),
    ``booking`` (its next, or None) and ``move_to`` (the free tables its session may move
    to)."""
    clocks = clocks_by_table(priced=True)
    bookings = next_bookings()
    movable = list(free_tables())
    # A table with a clock running stays on the desk whatever its flags (the holds keep
    # such a table in service; this shows one that was taken out before they did).
    shown = Table.objects.filter(
        Q(is_active=True) | Q(pk__in=tables_with_running_clock(Table.objects.all()).values("pk"))
    )
    tables = list(shown)
    unpaid, billed = _unpaid_by_table(), _billed_open_sessions()
    for table in tables:
        table.clock = clocks.get(table.pk)
        table.voidable = _voidable(table.clock, billed)
        table.booking = bookings.get(table.pk)
        table.move_to = [other for other in movable if other.pk != table.pk]
        table.unpaid = unpaid.get(table.pk, [])
    return tables


def _unpaid_by_table():
    """``{table id: [bill pk, …]}`` of the bills not paid yet of stopped sessions."""
    result = {}
    for bill_pk, table_id in Bill.objects.filter(
        paid_at__isnull=True, session__status=SessionStatus.STOPPED
    ).values_list("pk", "session__table_id"):
        result.setdefault(table_id, []).append(bill_pk)
    return result


def desk_table(table):
    """One table as ``desk_tables`` shows it (its card, after a clock changed)."""
    table.clock = clocks_by_table(priced=True).get(table.pk)
    table.booking = next_bookings().get(table.pk)
    table.move_to = list(free_tables().exclude(pk=table.pk))
    table.unpaid = _unpaid_by_table().get(table.pk, [])
    table.voidable = _voidable(table.clock, _billed_open_sessions())
    return table


def move_targets():
    """The tables a session may be asked to move to (the service refuses a busy one)."""
    return Table.objects.filter(is_active=True)


def board_clock(number):
    """What a board shows of a table's clock (public: the time, the running total only if
    the club shows it), and the table's next booking."""
    show_total = BillingSettings.load().show_running_total
    session = (
        TableSession.objects.filter(table__number=number, status__in=OPEN_STATUSES)
        .prefetch_related("stretches__table")
        .first()
    )
    clock = None
    if session is not None:
        clock = clock_of(session, tariff=club_tariff() if show_total else None)
    booking = next(iter(next_bookings(table_number=number).values()), None)
    return {"clock": clock, "number": number, "booking": booking}
