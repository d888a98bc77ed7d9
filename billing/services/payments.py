"""Writes of payments: what was taken at the club's cash register, against a bill."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from billing.labels import money
from billing.models import AuditAction, Payment, Shift
from billing.selectors.bills import bill_summary
from billing.services.audit import audit
from billing.services.bills import locked_bill, require_unpaid


@transaction.atomic
def record_payment(*, bill, method, amount, receipt_number, user, payer=None, at=None):
    """Records a payment taken at the club's cash register (never a receipt of our own)."""
    bill = locked_bill(bill)
    require_unpaid(bill)
    shift = Shift.objects.filter(is_open=True).first()
    if shift is None:
        raise ValidationError(_("Open a shift before taking payments."), code="shift")
    receipt_number = (receipt_number or "").strip()
    if not receipt_number:
        raise ValidationError(_("Write the register's receipt number."), code="receipt")
    balance = bill_summary(bill).balance
    if not 0 < amount <= balance:
        raise ValidationError(
            _("The amount must be more than 0 and at most the balance, %(balance)s.")
            % {"balance": money(balance)},
            code="amount",
        )
    payment = Payment.objects.create(
        bill=bill,
        shift=shift,
        method=method,
        amount=amount,
        receipt_number=receipt_number,
        payer=payer,
        recorded_by=user,
        at=at or timezone.now(),
    )
    if amount == balance:
        bill.paid_at = payment.at
        bill.save(update_fields=["paid_at"])
    audit(
        user=user,
        action=AuditAction.PAYMENT,
        session=bill.session,
        bill=bill,
        shift=shift,
        method=method,
        amount=amount,
        receipt=receipt_number,
        payer=payer.name if payer else "",
    )
    return payment
