"""Reads of billing: the club's tariff as the pricing engine wants it."""

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone

from billing import pricing
from billing.models import (
    OPEN_STATUSES,
    AuditEntry,
    BillingSettings,
    SpecialDay,
    Stretch,
    TableSession,
    Tariff,
    TariffBand,
)


def club_tz():
    return ZoneInfo(settings.TIME_ZONE)


def band_of(row):
    return pricing.Band(
        weekdays=row.weekday_numbers,
        start=row.start,
        end=row.end,
        price_per_hour=row.price_per_hour,
        name=f"{row.weekdays_label} {row.hours_label}",
        key=row.pk,
    )


def club_tariff():
    """The whole tariff (every kind's bands, rounding, minimum, special days) in 3 queries."""
    rules = BillingSettings.load()
    bands = {}
    for row in TariffBand.objects.select_related("tariff"):
        bands.setdefault(row.tariff.kind, []).append(band_of(row))
    return pricing.Tariff(
        bands,
        step=rules.step_minutes * 60,
        minimum=rules.minimum_minutes * 60,
        special_days=dict(SpecialDay.objects.values_list("date", "priced_as")),
        tz=club_tz(),
    )


def tariffs_overview():
    """Every tariff with its bands, for the tariffs page, in the order of the table kinds."""
    from tables.models import TableKind

    order = {kind: index for index, kind in enumerate(TableKind.values)}
    return sorted(Tariff.objects.prefetch_related("bands"), key=lambda t: order.get(t.kind, 99))


# --- the tables' clocks ------------------------------------------------------------------


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
    return clock


def price_of(session, tariff=None, now=None, discount=0):
    """What the session's time costs (at ``now`` if it runs); None when a kind has no tariff."""
    tariff = tariff or club_tariff()
    try:
        return tariff.price(played(session, now), discount_percent=discount)
    except ValueError:
        return None


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


def session_detail(pk):
    return (
        TableSession.objects.select_related("table", "started_by")
        .prefetch_related(Prefetch("stretches", queryset=Stretch.objects.select_related("table")))
        .get(pk=pk)
    )


def audit_of(session):
    return session.audit_entries.all()


# --- bills ---------------------------------------------------------------------------------


def games_of(session):
    """The games played on the session's tables while its clock ran, oldest first."""
    from django.db.models import Q

    from games.models import Game

    stretches = list(session.stretches.all())
    if not stretches:
        return []
    overlap = Q()
    for stretch in stretches:
        window = Q(table_id=stretch.table_id, started_at__lt=stretch.ended_at or timezone.now())
        window &= Q(finished_at__isnull=True) | Q(finished_at__gt=stretch.started_at)
        overlap |= window
    return list(
        Game.objects.filter(overlap).prefetch_related("seats__player").order_by("started_at", "pk")
    )


def players_of(session):
    """(name, player or None) of everyone who played during the session, in order."""
    seen, result = set(), []
    for game in games_of(session):
        for seat in game.seats.all():
            if seat.name not in seen:
                seen.add(seat.name)
                result.append((seat.name, seat.player))
    return result


def frames_of(session, payers, tariff=None):
    """The session's time as ``splits.Frame`` parts for "the loser pays": one per game
    (its losers, or its players if drawn, abandoned or unfinished) plus the time between
    games (everyone). ``payers``: the bill's payers; frames name them by payer pk."""
    from fractions import Fraction

    from billing import splits
    from games.models import GameStatus, Outcome

    tariff = tariff or club_tariff()
    by_player = {payer.player_id: payer.pk for payer in payers if payer.player_id}
    by_name = {payer.name: payer.pk for payer in payers}

    def key(seat):
        return by_player.get(seat.player_id) or by_name.get(seat.name)

    stretches = list(session.stretches.all())
    now = timezone.now()
    frames, covered = [], []
    for game in games_of(session):
        game_end = game.finished_at or now
        parts = []
        for stretch in stretches:
            if stretch.table_id != game.table_id:
                continue
            start = max(stretch.started_at, game.started_at)
            end = min(stretch.ended_at or now, game_end)
            if start < end:
                parts.append(pricing.Played(start, end, stretch.table.kind))
        parts = _without(parts, covered)  # a moment belongs to one frame only
        if not parts:
            continue
        covered.extend(parts)
        cost = sum((p.amount for p in tariff.price(parts).periods), Fraction(0))
        seats = list(game.seats.all())
        losers = []
        if game.status == GameStatus.FINISHED:
            losers = [key(seat) for seat in seats if seat.outcome == Outcome.LOSS]
        players = [key(seat) for seat in seats]
        frames.append(splits.Frame(cost=cost, losers=losers, players=players))
    everything = played(session, now)
    total = sum((p.amount for p in tariff.price(everything).periods), Fraction(0))
    between = total - sum((frame.cost for frame in frames), Fraction(0))
    if between > 0 or not frames:
        frames.append(splits.Frame(cost=between))
    return frames


def _without(parts, covered):
    """``parts`` minus every interval of ``covered`` (same kind of Played intervals)."""
    result = []
    for part in parts:
        pieces = [(part.start, part.end)]
        for other in covered:
            pieces = [
                piece
                for a, b in pieces
                for piece in ((a, min(b, other.start)), (max(a, other.end), b))
                if piece[0] < piece[1]
            ]
        result.extend(pricing.Played(a, b, part.kind) for a, b in pieces)
    return result


@dataclass
class BillSummary:
    bill: object
    lines: list
    time_amount: int
    discount: int
    total: int
    paid: int
    shares: list  # [(payer, kopecks)]
    payments: list

    @property
    def balance(self):
        return self.total - self.paid


def bill_summary(bill, tariff=None):
    """The bill's lines, discount, total, what each payer owes and what was paid."""
    from billing import splits
    from billing.models import LineKind
    from billing.pricing import half_up

    lines = list(bill.lines.select_related("payer"))
    payers = list(bill.payers.all())
    time_amount = sum(line.amount for line in lines if line.kind == LineKind.TIME)
    discount = half_up(time_amount * bill.discount_percent, 100)
    split_lines = [
        splits.Line(
            amount=line.amount - (discount if line.kind == LineKind.TIME else 0),
            is_time=line.kind == LineKind.TIME,
            payer=line.payer_id,
        )
        for line in lines
    ]
    total = sum(line.amount for line in split_lines)
    frames = None
    if bill.split_mode == splits.LOSER:
        frames = frames_of(bill.session, payers, tariff)
    shares = splits.split(
        bill.split_mode,
        [payer.pk for payer in payers],
        split_lines,
        percents={payer.pk: payer.percent or 0 for payer in payers},
        frames=frames,
    )
    payments = list(bill.payments.select_related("payer"))
    return BillSummary(
        bill=bill,
        lines=lines,
        time_amount=time_amount,
        discount=discount,
        total=total,
        paid=sum(payment.amount for payment in payments),
        shares=[(payer, shares[payer.pk]) for payer in payers],
        payments=payments,
    )


def bill_audit(bill):
    """The bill's audit log: its session's entries and its own, in order."""
    from django.db.models import Q

    return AuditEntry.objects.filter(Q(session=bill.session_id) | Q(bill=bill)).distinct()


# --- shifts --------------------------------------------------------------------------------


@dataclass
class ShiftReport:
    shift: object
    by_method: dict
    expected_cash: int
    total: int

    @property
    def difference(self):
        if self.shift.counted_cash is None:
            return None
        return self.shift.counted_cash - self.expected_cash


def shift_report(shift):
    return shift_reports([shift])[0]


def shift_reports(shifts):
    """``shift_report`` of each shift, from one query for all their payments."""
    from django.db.models import Sum

    from billing.models import Payment, PaymentMethod

    shifts = list(shifts)
    sums = defaultdict_int()
    for shift_id, method, total in (
        Payment.objects.filter(shift__in=shifts)
        .values("shift_id", "method")
        .annotate(total=Sum("amount"))
        .values_list("shift_id", "method", "total")
    ):
        sums[(shift_id, method)] = total
    reports = []
    for shift in shifts:
        by_method = {method: sums[(shift.pk, method)] for method in PaymentMethod.values}
        reports.append(
            ShiftReport(
                shift=shift,
                by_method=by_method,
                expected_cash=shift.opening_cash + by_method[PaymentMethod.CASH],
                total=sum(by_method.values()),
            )
        )
    return reports


def defaultdict_int():
    from collections import defaultdict

    return defaultdict(int)


def open_shift():
    from billing.models import Shift

    return Shift.objects.filter(is_open=True).first()


# --- reports -------------------------------------------------------------------------------


@dataclass
class PeriodReport:
    start: object  # date
    end: object  # date, inclusive
    by_table: list  # [(table number, kopecks)]
    by_band: list  # [(kind, band name, kopecks)]
    time_revenue: int
    bar_revenue: int
    bar_items: list  # [(name, quantity, kopecks)]
    utilisation: list  # [percent] for each hour 0…23
    shifts: list  # [ShiftReport]
    sessions: int

    @property
    def revenue(self):
        return self.time_revenue + self.bar_revenue


def _local_midnight(day, tz):
    return datetime.combine(day, datetime.min.time(), tzinfo=tz)


def period_report(start, end, *, tariff=None):
    """Revenue per table and per band, bar revenue, utilisation per hour of the day and the
    shifts, for the bills of sessions stopped from ``start`` to ``end`` (local dates,
    inclusive); utilisation counts every played second in the days."""
    from collections import defaultdict
    from datetime import timedelta

    from billing import splits
    from billing.models import Bill, BillLine, LineKind, Shift
    from billing.pricing import half_up
    from tables.models import Table

    tariff = tariff or club_tariff()
    tz = club_tz()
    since = _local_midnight(start, tz)
    until = _local_midnight(end + timedelta(days=1), tz)
    in_period = {"stopped_at__gte": since, "stopped_at__lt": until}
    # Plain rows, not model instances: a month of a big club is thousands of sessions.
    revenue_of = {}
    for session_id, quantity, unit_price, discount in BillLine.objects.filter(
        kind=LineKind.TIME,
        bill__session__stopped_at__gte=since,
        bill__session__stopped_at__lt=until,
    ).values_list("bill__session_id", "quantity", "unit_price", "bill__discount_percent"):
        amount = quantity * unit_price
        revenue_of[session_id] = amount - half_up(amount * discount, 100)
    count = Bill.objects.filter(**{f"session__{k}": v for k, v in in_period.items()}).count()
    played_of = defaultdict(list)
    for session_id, started, ended, number, kind in Stretch.objects.filter(
        session__in=TableSession.objects.filter(**in_period)
    ).values_list("session_id", "started_at", "ended_at", "table__number", "table__kind"):
        played_of[session_id].append(pricing.Played(started, ended or started, kind, number))
    by_table, by_band = defaultdict(int), defaultdict(int)
    time_revenue = sum(revenue_of.values())
    for session_id, revenue in revenue_of.items():
        try:
            periods = tariff.price(played_of.get(session_id, [])).periods
        except ValueError:
            continue
        if not periods:
            continue
        shares = splits.apportion(revenue, [period.weight for period in periods])
        for period, share in zip(periods, shares, strict=True):
            by_table[period.interval.table] += share
            by_band[(period.kind, period.band.name)] += share
    bar = BillLine.objects.filter(
        kind=LineKind.BAR,
        bill__session__stopped_at__gte=since,
        bill__session__stopped_at__lt=until,
    ).values_list("description", "quantity", "unit_price")
    bar_items = defaultdict(lambda: [0, 0])
    for name, quantity, unit_price in bar:
        bar_items[name][0] += quantity
        bar_items[name][1] += quantity * unit_price
    shifts = shift_reports(Shift.objects.filter(opened_at__gte=since, opened_at__lt=until))
    tables = Table.objects.filter(is_active=True).count() or 1
    return PeriodReport(
        start=start,
        end=end,
        by_table=sorted(by_table.items()),
        by_band=sorted((kind, name, amount) for (kind, name), amount in by_band.items()),
        time_revenue=time_revenue,
        bar_revenue=sum(amount for _qty, amount in bar_items.values()),
        bar_items=sorted((name, q, a) for name, (q, a) in bar_items.items()),
        utilisation=utilisation(since, until, tables, tz),
        shifts=shifts,
        sessions=count,
    )


def utilisation(since, until, tables, tz):
    """Percent of the tables' time in play for each local hour of the day, 0…23.

    Each stretch is read in local time once, then walked hour by hour in seconds (an hour
    that a daylight-saving change moves is counted in the hour the stretch began it).
    """
    seconds = [0] * 24
    stretches = Stretch.objects.filter(started_at__lt=until).exclude(ended_at__lt=since)
    now = timezone.now()
    for started, ended in stretches.values_list("started_at", "ended_at"):
        begin = max(started, since)
        left = int(((min(ended or now, until)) - begin).total_seconds())
        if left <= 0:
            continue
        local = begin.astimezone(tz)
        hour = local.hour
        room = 3600 - (local.minute * 60 + local.second)
        while left > 0:
            piece = min(left, room)
            seconds[hour] += piece
            left -= piece
            hour, room = (hour + 1) % 24, 3600
    days = max(round((until - since).total_seconds() / 86400), 1)
    return [round(100 * value / (tables * days * 3600), 1) for value in seconds]


# --- bookings ------------------------------------------------------------------------------


def next_bookings(table_number=None, now=None):
    """``{table id: its next booking still waiting}`` (within the no-show grace period)."""
    from datetime import timedelta

    from billing.models import Reservation, ReservationStatus

    now = now or timezone.now()
    grace = timedelta(minutes=BillingSettings.load().no_show_minutes)
    bookings = Reservation.objects.filter(
        status=ReservationStatus.BOOKED, starts_at__gte=now - grace
    ).order_by("starts_at")
    if table_number is not None:
        bookings = bookings.filter(table__number=table_number)
    result = {}
    for booking in bookings:
        result.setdefault(booking.table_id, booking)
    return result


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
