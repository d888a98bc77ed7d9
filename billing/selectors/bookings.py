"""Reads of bookings: each table's next one, the bookings page's list, the tables free to
book for a slot."""

from datetime import timedelta

from django.utils import timezone

from billing.models import HOLDING_STATUSES, BillingSettings, Reservation, ReservationStatus
from tables.models import Table


def next_bookings(table_number=None, now=None):
    """``{table id: its next booking still waiting}`` (within the no-show grace period)."""
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


def recent_bookings(now=None):
    """The bookings from a day ago on, with their tables, for the bookings page."""
    since = (now or timezone.now()) - timedelta(days=1)
    return Reservation.objects.filter(starts_at__gte=since).select_related("table")


def tables_to_book(starts_at, ends_at, kind=""):
    """The club's tables in service (of ``kind``, if given) without a holding booking that
    overlaps ``[starts_at, ends_at)``, by number: those ``services.book_table`` would book."""
    taken = Reservation.objects.filter(
        status__in=HOLDING_STATUSES, starts_at__lt=ends_at, ends_at__gt=starts_at
    ).values("table")
    tables = Table.objects.filter(is_active=True, out_of_service=False).exclude(pk__in=taken)
    if kind:
        tables = tables.filter(kind=kind)
    return tables.order_by("number")
