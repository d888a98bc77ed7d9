"""Writes of payments: what was taken at the club's cash register against a bill (before the
clock starts for prepaid time, or once it stopped), and what was given back.

The register issues the receipts; the site records each one's number: ASCII digits, and not
twice in one shift unless the cashier says it is the same receipt (``same_receipt``). When the
site drives the register itself (``receipts.receipt_maker``: the ``fiscal`` app), no number
is typed: each payment, in its own transaction, hands the maker its receipt to make.
"""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from billing.labels import money
from billing.models import AuditAction, Payment, PaymentMethod, Shift
from billing.selectors.bills import bill_summary
from billing.services import receipts
from billing.services.audit import audit
from billing.services.bills import locked_bill, require_unpaid, settle, stopped_or_counter
from toolbox.parsing import parse_int

RECEIPT_DIGITS = 10


@dataclass(frozen=True)
class Tender:
    """Money handed over at the register: how, how much (kopecks; None: what the prepaid
    time costs) and the number of the receipt it printed."""

    method: str
    amount: int | None
    receipt_number: str
    same_receipt: bool = False
    buyer: str = ""  # a phone or e-mail for the electronic receipt (the site makes it)


def _open_shift():
    shift = Shift.objects.filter(is_open=True).first()
    if shift is None:
        raise ValidationError(_("Open a shift before taking payments."), code="shift")
    return shift


def _checked_receipt(receipt_number, shift, *, same_receipt):
    """The receipt number as recorded: its digits; one already recorded in the shift only
    when the cashier confirms it is the same receipt."""
    text = (receipt_number or "").strip()
    if not text:
        raise ValidationError(_("Write the register's receipt number."), code="receipt")
    if parse_int(text, signed=False, max_digits=RECEIPT_DIGITS) is None:
        raise ValidationError(
            _("A receipt number is its digits, at most %(n)d of them.") % {"n": RECEIPT_DIGITS},
            code="receipt",
        )
    if not same_receipt:
        other = Payment.objects.filter(shift=shift, receipt_number=text).first()
        if other is not None:
            raise ValidationError(
                _(
                    "Receipt №%(receipt)s is already recorded in this shift (bill %(bill)d). "
                    "If it is the same receipt, tick «Same receipt» and record it again."
                )
                % {"receipt": text, "bill": other.bill_id},
                code="receipt_used",
            )
    return text


def receipt_used(error):
    """True when ``error`` (a ValidationError of these services) refused a receipt number
    the shift has already recorded: the form then asks «Same receipt»."""
    return any(item.code == "receipt_used" for item in getattr(error, "error_list", []))


def _checked_method(method):
    if method not in PaymentMethod.values:
        raise ValidationError(_("Choose how it was paid."), code="method")
    return method


def _record(
    *,
    bill,
    method,
    amount,
    receipt_number,
    user,
    same_receipt,
    at,
    payer,
    action,
    up_front=False,
    buyer="",
):
    shift = _open_shift()
    method = _checked_method(method)
    makes_receipts = receipts.site_makes_receipts()
    if makes_receipts:
        receipt_number = ""  # the register's answer is kept with its receipt (fiscal)
    else:
        receipt_number = _checked_receipt(receipt_number, shift, same_receipt=same_receipt)
    payment = Payment.objects.create(
        bill=bill,
        shift=shift,
        method=method,
        amount=amount,
        receipt_number=receipt_number,
        payer=payer,
        recorded_by=user,
        at=at or timezone.now(),
        up_front=up_front,
    )
    # A receipt the register makes is not known yet: its entry says «№—» (the receipt
    # task, its fiscal numbers once made, is the fiscal app's).
    receipt = {"receipt": receipt_number} if receipt_number else {}
    audit(
        user=user,
        action=action,
        session=bill.session,
        bill=bill,
        shift=shift,
        method=method,
        amount=abs(amount),
        payer=payer.name if payer else "",
        **receipt,
    )
    if makes_receipts:
        receipts.payment_recorded(payment, buyer=buyer)
    return payment


@transaction.atomic
def take_prepayment(*, bill, tender, user, at=None):
    """Money paid up front for prepaid time, on the bill of a session that starts now."""
    bill = locked_bill(bill)
    if tender.amount is None or tender.amount <= 0:
        raise ValidationError(_("Write the amount paid up front."), code="amount")
    return _record(
        bill=bill,
        method=tender.method,
        amount=tender.amount,
        receipt_number=tender.receipt_number,
        same_receipt=tender.same_receipt,
        user=user,
        at=at,
        payer=None,
        action=AuditAction.PREPAYMENT,
        up_front=True,
        buyer=tender.buyer,
    )


@transaction.atomic
def record_payment(
    *,
    bill,
    method,
    amount,
    user,
    receipt_number="",
    payer=None,
    at=None,
    same_receipt=False,
    buyer="",
):
    """Records a payment taken at the club's cash register (never a receipt of our own); the
    bill is paid once nothing is left to pay."""
    bill = locked_bill(bill)
    require_unpaid(bill)
    _open_shift()
    if not stopped_or_counter(bill):
        raise ValidationError(_("Stop the clock before taking the payment."), code="running")
    balance = bill_summary(bill).balance
    if not 0 < amount <= balance:
        raise ValidationError(
            _("The amount must be more than 0 and at most the balance, %(balance)s.")
            % {"balance": money(balance)},
            code="amount",
        )
    payment = _record(
        bill=bill,
        method=method,
        amount=amount,
        receipt_number=receipt_number,
        same_receipt=same_receipt,
        user=user,
        at=at,
        payer=payer,
        action=AuditAction.PAYMENT,
        buyer=buyer,
    )
    settle(bill, at=payment.at)
    return payment


@transaction.atomic
def record_refund(
    *, bill, method, amount, user, receipt_number="", at=None, same_receipt=False, buyer=""
):
    """Records money given back at the register (its refund receipt's number): at most what
    was paid over the bill's total, e.g. the unplayed part of a prepaid hour."""
    bill = locked_bill(bill)
    require_unpaid(bill)
    _open_shift()
    if not stopped_or_counter(bill):
        raise ValidationError(_("Stop the clock before giving money back."), code="running")
    over = -bill_summary(bill).balance
    if not 0 < amount <= over:
        raise ValidationError(
            _("Give back more than 0 and at most what was paid over the total, %(over)s.")
            % {"over": money(max(over, 0))},
            code="amount",
        )
    payment = _record(
        bill=bill,
        method=method,
        amount=-amount,
        receipt_number=receipt_number,
        same_receipt=same_receipt,
        user=user,
        at=at,
        payer=None,
        action=AuditAction.REFUND,
        buyer=buyer,
    )
    settle(bill, at=payment.at)
    return payment
