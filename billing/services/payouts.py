"""Writes of payouts: money paid out of the cash drawer in the open shift (a tournament's
prize). A payout is written once and never changed; a wrong one is reversed by a row of the
opposite amount, in the shift open then, with the reason. Both are audited."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from billing.labels import money
from billing.models import AuditAction, Payout, Shift
from billing.services.audit import audit


def _locked_open_shift():
    """The open shift, locked: payouts wait for each other (a double tap pays once)."""
    shift = Shift.objects.select_for_update().filter(is_open=True).first()
    if shift is None:
        raise ValidationError(_("Open a shift before paying out."), code="shift")
    return shift


def paid_out(reference):
    """Kopecks paid out under ``reference`` so far (reversals netted)."""
    return Payout.objects.filter(reference=reference).aggregate(total=Sum("amount"))["total"] or 0


@transaction.atomic
def pay_out(*, reference, amount, due, description, user, at=None):
    """Pays ``amount`` kopecks in cash out of the open shift's drawer for ``reference``,
    refused when what was paid under it and this would exceed ``due`` (what the caller's
    ledger says is owed: a prize is never paid twice)."""
    shift = _locked_open_shift()
    if amount <= 0:
        raise ValidationError(_("There is nothing to pay out."), code="amount")
    already = paid_out(reference)
    if already + amount > due:
        raise ValidationError(
            _("%(paid)s of %(due)s is already paid out: at most %(left)s is left.")
            % {"paid": money(already), "due": money(due), "left": money(max(due - already, 0))},
            code="paid",
        )
    payout = Payout.objects.create(
        shift=shift,
        amount=amount,
        description=description[:200],
        reference=reference,
        recorded_by=user,
        at=at or timezone.now(),
    )
    audit(user=user, action=AuditAction.PAYOUT, shift=shift, amount=amount, item=payout.description)
    return payout


@transaction.atomic
def reverse_payout(*, payout, user, reason, at=None):
    """Undoes a payout made by mistake (the money back in the drawer): a row of the opposite
    amount in the open shift, naming the one it reverses, with the reason; once."""
    shift = _locked_open_shift()
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the payout is reversed."), code="reason")
    if payout.amount < 0 or Payout.objects.filter(reverses=payout).exists():
        raise ValidationError(_("This payout cannot be reversed."), code="reversed")
    reversal = Payout.objects.create(
        shift=shift,
        amount=-payout.amount,
        description=payout.description,
        reference=payout.reference,
        reverses=payout,
        reason=reason,
        recorded_by=user,
        at=at or timezone.now(),
    )
    audit(
        user=user,
        action=AuditAction.PAYOUT_REVERSE,
        shift=shift,
        reason=reason,
        amount=payout.amount,
        item=payout.description,
    )
    return reversal
