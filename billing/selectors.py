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
            stretch.started_at, stretch.ended_at or max(now, stretch.started_at), stretch.table.kind
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


def price_of(session, tariff=None, now=None):
    """What the session's time costs (at ``now`` if it runs); None when a kind has no tariff."""
    tariff = tariff or club_tariff()
    try:
        return tariff.price(played(session, now), discount_percent=discount_of(session))
    except ValueError:
        return None


def discount_of(session):
    return 0


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
