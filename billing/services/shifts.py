"""Writes of the cashier's shifts: opened with the cash in the drawer, closed with it counted."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from billing.models import AuditAction, Shift
from billing.selectors.shifts import open_business, shift_report
from billing.services import receipts
from billing.services.audit import audit


@transaction.atomic
def open_shift(*, user, opening_cash, at=None):
    if opening_cash < 0:
        raise ValidationError(_("Cash cannot be negative."), code="cash")
    if Shift.objects.select_for_update().filter(is_open=True).exists():
        raise ValidationError(_("A shift is already open."), code="open")
    try:
        with transaction.atomic():  # two cashiers at once: the one-open-shift constraint
            shift = Shift.objects.create(
                opened_by=user, opening_cash=opening_cash, opened_at=at or timezone.now()
            )
    except IntegrityError:
        raise ValidationError(_("A shift is already open."), code="open") from None
    audit(user=user, action=AuditAction.SHIFT_OPEN, shift=shift, cash=opening_cash)
    receipts.shift_opened(shift, user)  # the register's shift opens with it (fiscal)
    return shift


@transaction.atomic
def close_shift(*, shift, user, counted_cash, at=None, leave_open_business=False, unsent_reason=""):
    """Closes the shift with the cash counted. While bills are unpaid or clocks run, it is
    refused naming them, unless the cashier confirms (``leave_open_business``): they are
    then left to the next shift. Where the site makes the receipts, the register's shift
    closes with it (its Z report), refused while receipts wait unless a senior cashier
    gives ``unsent_reason`` (the fiscal app checks and audits it)."""
    shift = Shift.objects.select_for_update().get(pk=shift.pk)
    if not shift.is_open:
        raise ValidationError(_("This shift is already closed."), code="closed")
    if counted_cash < 0:
        raise ValidationError(_("Cash cannot be negative."), code="cash")
    business = open_business()
    if business and not leave_open_business:
        raise ValidationError(
            _("Still open: %(what)s. Settle them, or confirm to leave them to the next shift.")
            % {"what": "; ".join(item.label for item in business)},
            code="open_business",
        )
    receipts.shift_closing(shift, user, reason=unsent_reason)
    shift.closed_at, shift.closed_by = at or timezone.now(), user
    shift.counted_cash, shift.is_open = counted_cash, False
    shift.save(update_fields=["closed_at", "closed_by", "counted_cash", "is_open"])
    report = shift_report(shift)
    audit(
        user=user,
        action=AuditAction.SHIFT_CLOSE,
        shift=shift,
        counted=counted_cash,
        expected=report.expected_cash,
        difference=report.difference,
    )
    return shift
