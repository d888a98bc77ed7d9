"""Writes of bookings: a table booked for a slot, claimed (its clock starts), cancelled or
left a no-show."""

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from billing.models import (
    HOLDING_STATUSES,
    OPEN_STATUSES,
    BillingSettings,
    Reservation,
    ReservationStatus,
    TableSession,
)
from billing.services.sessions import check_playable, locked_table, start_session

_CHANGED_HOOKS = []


def when_booking_changed(hook):
    """``hook(booking)`` is called, inside the write's transaction, for every booking made
    and every change of a booking's status (the players' pages, ``me``, show their bookings
    at once: as a call to a table, not at their next sweep)."""
    if hook not in _CHANGED_HOOKS:
        _CHANGED_HOOKS.append(hook)


def _changed(booking):
    for hook in _CHANGED_HOOKS:
        hook(booking)


@transaction.atomic
def book_table(*, table, name, phone, starts_at, minutes, user):
    """Books ``table`` for ``minutes`` from ``starts_at``; refused when it overlaps another
    holding booking of the table (checked under the table's lock; on PostgreSQL also an
    exclusion constraint)."""
    name, phone = " ".join((name or "").split()), (phone or "").strip()
    if not name or not phone:
        raise ValidationError(_("A booking needs a name and a phone."), code="who")
    if not 15 <= minutes <= 12 * 60:
        raise ValidationError(_("A booking lasts 15 minutes to 12 hours."), code="length")
    if starts_at < timezone.now().replace(second=0, microsecond=0):
        raise ValidationError(_("A booking cannot start in the past."), code="past")
    table = locked_table(table)
    check_playable(table)
    ends_at = starts_at + timedelta(minutes=minutes)
    clash = Reservation.objects.filter(
        table=table, status__in=HOLDING_STATUSES, starts_at__lt=ends_at, ends_at__gt=starts_at
    ).first()
    if clash is not None:
        raise ValidationError(
            _("Table %(number)d is already booked %(from)s–%(to)s.")
            % {
                "number": table.number,
                "from": timezone.localtime(clash.starts_at).strftime("%d.%m %H:%M"),
                "to": timezone.localtime(clash.ends_at).strftime("%H:%M"),
            },
            code="overlap",
        )
    try:
        with transaction.atomic():
            booking = Reservation.objects.create(
                table=table,
                name=name,
                phone=phone,
                starts_at=starts_at,
                ends_at=ends_at,
                created_by=user,
            )
    except IntegrityError as error:  # the exclusion constraint (PostgreSQL)
        raise ValidationError(
            _("Table %(number)d is already booked then.") % {"number": table.number},
            code="overlap",
        ) from error
    _changed(booking)
    return booking


@transaction.atomic
def set_booking_status(*, booking, status, user):
    booking = Reservation.objects.select_for_update().get(pk=booking.pk)
    if booking.status != ReservationStatus.BOOKED:
        raise ValidationError(_("This booking is no longer waiting."), code="state")
    booking.status = status
    booking.save(update_fields=["status"])
    _changed(booking)
    if (
        status == ReservationStatus.CLAIMED
        and not TableSession.objects.filter(table=booking.table, status__in=OPEN_STATUSES).exists()
    ):
        start_session(table=booking.table, user=user)
    return booking


def mark_no_shows(now=None):
    """Bookings not claimed within the club's grace period become no-shows."""
    now = now or timezone.now()
    grace = timedelta(minutes=BillingSettings.load().no_show_minutes)
    late = Reservation.objects.filter(status=ReservationStatus.BOOKED, starts_at__lt=now - grace)
    with transaction.atomic():
        found = list(late.select_for_update())
        count = late.filter(pk__in=[booking.pk for booking in found]).update(
            status=ReservationStatus.NO_SHOW
        )
        for booking in found:
            booking.status = ReservationStatus.NO_SHOW
            _changed(booking)
    return count
