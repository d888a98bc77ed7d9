"""Reads for the bookkeeper: revenue per table and band, the bar, utilisation by hour and
the shifts of a period."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Sum
from django.utils import timezone

from billing import pricing, splits
from billing.models import (
    Bill,
    BillLine,
    LineKind,
    Payment,
    Payout,
    Shift,
    Stretch,
    TableSession,
)
from billing.pricing import half_up
from billing.selectors.shifts import shift_reports
from billing.selectors.tariffs import club_tariff, club_tz
from tables.models import Table


@dataclass
class PeriodReport:
    """The bills of the sessions stopped in ``[since, until)``: by calendar days of the
    club's time (``start``…``end``, ``shift`` None) or during one ``shift``."""

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
    fee_revenue: int = 0  # the entry fees paid in the period (refunds taken off)
    prizes_paid: int = 0  # the prizes paid out of the drawer in the period (reversals off)
    since: object = None  # the period's bounds, aware datetimes
    until: object = None
    shift: object = None

    @property
    def revenue(self):
        return self.time_revenue + self.bar_revenue + self.fee_revenue

    @property
    def by_shift(self):
        return self.shift is not None


def _local_midnight(day, tz):
    return datetime.combine(day, datetime.min.time(), tzinfo=tz)


def period_report(start, end, *, tariff=None):
    """Revenue per table and per band, bar revenue, utilisation per hour of the day and the
    shifts, for the bills of sessions stopped from ``start`` to ``end`` (local dates,
    inclusive); utilisation counts every played second in the days."""
    tz = club_tz()
    since = _local_midnight(start, tz)
    until = _local_midnight(end + timedelta(days=1), tz)
    shifts = Shift.objects.filter(opened_at__gte=since, opened_at__lt=until)
    return _report(since, until, shifts, tariff=tariff, start=start, end=end)


def shift_period_report(shift, *, tariff=None, now=None):
    """The same for the sessions stopped during ``shift`` (from its opening to its close,
    or now while it is open)."""
    until = shift.closed_at or now or timezone.now()
    tz = club_tz()
    report = _report(
        shift.opened_at,
        until,
        [shift],
        tariff=tariff,
        start=shift.opened_at.astimezone(tz).date(),
        end=until.astimezone(tz).date(),
    )
    report.shift = shift
    return report


def _report(since, until, shifts, *, tariff, start, end):
    tariff = tariff or club_tariff()
    tz = club_tz()
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
    # A tournament's entry fees (a counter bill of its own, no table) count when paid; the
    # prizes paid out of the drawer, when paid out.
    fee_bills = BillLine.objects.filter(kind=LineKind.FEE).values("bill_id")
    fees = Payment.objects.filter(at__gte=since, at__lt=until, bill_id__in=fee_bills)
    prizes = Payout.objects.filter(at__gte=since, at__lt=until)
    shifts = shift_reports(shifts)
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
        fee_revenue=fees.aggregate(total=Sum("amount"))["total"] or 0,
        prizes_paid=prizes.aggregate(total=Sum("amount"))["total"] or 0,
        since=since,
        until=until,
    )


# --- the bookkeeper's CSV files: payments and shifts of a period -----------------------------


def payments_between(since, until):
    """Every payment (refunds too) taken in ``[since, until)``, in order, with its bill's
    table, its shift and who recorded it."""
    return (
        Payment.objects.filter(at__gte=since, at__lt=until)
        .select_related("bill__session__table", "payer", "recorded_by", "shift")
        .order_by("at", "pk")
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
