"""Reads of bookings: each table's next one, and the bookings page's list."""

from datetime import timedelta

from django.utils import timezone

from billing.models import BillingSettings, Reservation, ReservationStatus


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
