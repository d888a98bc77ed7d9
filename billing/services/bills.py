"""Writes of bills: the time line, bar lines, the member's discount, payers and the split."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from billing.labels import duration, money
from billing.models import AuditAction, Bill, BillLine, LineKind, Payer, SessionStatus, SplitMode
from billing.selectors.bills import bill_summary, players_of
from billing.selectors.sessions import price_of
from billing.services import receipts
from billing.services.audit import audit


def price_time_line(bill):
    """(Re)writes the bill's time line from the session's played time (before discount);
    returns the price (None when a table kind of the session has no tariff: a 0 line)."""
    price = price_of(bill.session, discount=0)
    amount = price.rounded if price else 0
    charged = duration(price.charged) if price else "—"
    BillLine.objects.update_or_create(
        bill=bill,
        kind=LineKind.TIME,
        defaults={"description": charged, "unit_price": amount, "quantity": 1},
    )
    return price


@transaction.atomic
def open_bill(*, session, user, at=None):
    """The session's bill, opened if it has none (when its clock stops, or when it starts
    with money paid up front)."""
    bill, created = Bill.objects.get_or_create(
        session=session, defaults={"created_at": at or session.stopped_at or timezone.now()}
    )
    if created:
        audit(user=user, action=AuditAction.BILL_OPEN, session=session, bill=bill)
    return bill


@transaction.atomic
def bill_stopped_session(*, session, user):
    """The bill of a session whose clock has just stopped: its time line and, as payers,
    who played on it; closed at once when nothing is left to pay (a clock stopped within a
    second, prepaid time that cost exactly what was paid)."""
    bill = open_bill(session=session, user=user)
    price = price_time_line(bill)
    for name, player in players_of(session):
        Payer.objects.get_or_create(bill=bill, name=name, defaults={"player": player})
    if price is not None and settle(bill, at=session.stopped_at):
        audit(user=user, action=AuditAction.BILL_CLOSE, session=session, bill=bill)
    return bill


def settle(bill, *, at):
    """Marks a stopped session's bill paid once nothing is left to pay or to give back;
    True when it did."""
    if bill.paid_at is not None or not stopped_or_counter(bill):
        return False
    if bill_summary(bill).balance != 0:
        return False
    bill.paid_at = at
    bill.save(update_fields=["paid_at"])
    receipts.bill_settled(bill)  # prepaid time settled: its receipt (the fiscal app)
    return True


def stopped_or_counter(bill):
    """A bill may be paid once its session's clock stopped; a counter bill (no session) at
    once."""
    return bill.session_id is None or bill.session.status == SessionStatus.STOPPED


def keep_above_paid(bill, total_before):
    """Once a bill has payments, nothing brings its total below what was paid: a change
    that would (a bar line removed, a discount, a shorter time) is refused and, raised
    inside the service's transaction, undone. Money paid up front for prepaid time is not
    such a floor: what it holds over the total is given back (``record_refund``)."""
    summary = bill_summary(bill)
    paid = sum(p.amount for p in summary.payments if p.amount > 0 and not p.up_front)
    if paid > 0 and summary.total < paid and summary.total < total_before:
        raise ValidationError(
            _(
                "%(paid)s is already paid on this bill: its total cannot go below that "
                "(it would be %(total)s)."
            )
            % {"paid": money(paid), "total": money(summary.total)},
            code="below_paid",
        )


def locked_bill(bill):
    return Bill.objects.select_for_update().get(pk=bill.pk)


def require_unpaid(bill):
    if bill.paid_at is not None:
        raise ValidationError(_("This bill is paid: it can no longer change."), code="paid")


@transaction.atomic
def add_bar_item(*, bill, item, quantity, user, payer=None, marking_code=""):
    """A bar line. A marked item (``BarItem.is_marked``: bottled water, soft drinks, beer)
    is sold one at a time with the marking code scanned from it, which its receipt passes to
    the register; without a code it is refused."""
    bill = locked_bill(bill)
    require_unpaid(bill)
    if not item.is_active:
        raise ValidationError(_("This item is not on sale."), code="inactive")
    if not 1 <= quantity <= 99:
        raise ValidationError(_("Quantity is 1 to 99."), code="quantity")
    marking_code = (marking_code or "").strip()
    if item.is_marked:
        if not marking_code:
            raise ValidationError(
                _("%(item)s is marked goods: scan its marking code into the sale.")
                % {"item": item.name},
                code="marking",
            )
        if quantity != 1:
            raise ValidationError(
                _("Marked goods are sold one at a time, each with its own code."),
                code="marking",
            )
        # A GS1 code's group separators (GS, \x1d) are kept: the register needs them.
        if len(marking_code) > 200 or not marking_code.replace("\x1d", "").isprintable():
            raise ValidationError(_("This is not a marking code."), code="marking")
    else:
        marking_code = ""
    line = BillLine.objects.create(
        bill=bill,
        kind=LineKind.BAR,
        description=item.name,
        bar_item=item,
        quantity=quantity,
        unit_price=item.price,
        payer=payer,
        marking_code=marking_code,
    )
    _audit_bar_line(user=user, action=AuditAction.BILL_ADD, bill=bill, line=line)
    return line


@transaction.atomic
def remove_line(*, bill, line, user):
    bill = locked_bill(bill)
    require_unpaid(bill)
    if line.bill_id != bill.pk or line.kind != LineKind.BAR:
        raise ValidationError(_("Only a bar line of this bill can be removed."), code="line")
    total_before = bill_summary(bill).total
    _audit_bar_line(user=user, action=AuditAction.BILL_REMOVE, bill=bill, line=line)
    line.delete()
    keep_above_paid(bill, total_before)


def _audit_bar_line(*, user, action, bill, line):
    audit(
        user=user,
        action=action,
        session=bill.session,
        bill=bill,
        item=line.description,
        quantity=line.quantity,
        price=line.unit_price,
    )


@transaction.atomic
def set_discount(*, bill, member, discount_percent, user):
    bill = locked_bill(bill)
    require_unpaid(bill)
    if not 0 <= discount_percent <= 100:
        raise ValidationError(_("A discount is 0 to 100 %."), code="discount")
    if discount_percent and member is None:
        raise ValidationError(_("A member's discount needs the member."), code="member")
    total_before = bill_summary(bill).total
    bill.member, bill.discount_percent = member, discount_percent
    bill.save(update_fields=["member", "discount_percent"])
    keep_above_paid(bill, total_before)
    audit(
        user=user,
        action=AuditAction.BILL_DISCOUNT,
        session=bill.session,
        bill=bill,
        member=str(member) if member else "",
        percent=discount_percent,
    )
    return bill


@transaction.atomic
def add_payer(*, bill, name, user, player=None):
    bill = locked_bill(bill)
    require_unpaid(bill)
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError(_("Give the payer's name."), code="name")
    if bill.payers.filter(name=name).exists():
        raise ValidationError(_("This payer is already on the bill."), code="payer")
    payer = Payer.objects.create(bill=bill, name=name, player=player)
    audit(user=user, action=AuditAction.BILL_PAYER, session=bill.session, bill=bill, name=name)
    return payer


@transaction.atomic
def remove_payer(*, bill, payer, user):
    bill = locked_bill(bill)
    require_unpaid(bill)
    if payer.bill_id != bill.pk or payer.payments.exists():
        raise ValidationError(_("This payer cannot be removed."), code="payer")
    audit(
        user=user, action=AuditAction.BILL_UNPAYER, session=bill.session, bill=bill, name=payer.name
    )
    payer.delete()


@transaction.atomic
def set_split(*, bill, mode, user, percents=None, assignments=None):
    """How the bill is split. ``percents``: {payer pk: %} (percent mode, adding up to 100);
    ``assignments``: {line pk: payer pk or None} (who takes which line)."""
    bill = locked_bill(bill)
    require_unpaid(bill)
    if mode not in SplitMode.values:
        raise ValidationError(_("Choose how to split the bill."), code="mode")
    if mode == SplitMode.LOSER and bill.session_id is None:
        raise ValidationError(_("A bill without a table has no frames to split by."), code="mode")
    payers = {payer.pk: payer for payer in bill.payers.all()}
    if not payers:
        raise ValidationError(_("Add at least one payer first."), code="payers")
    if mode == SplitMode.PERCENT:
        percents = {pk: int(percents.get(pk) or 0) for pk in payers} if percents else {}
        if sum(percents.values()) != 100 or any(not 0 <= v <= 100 for v in percents.values()):
            raise ValidationError(_("The percentages must add up to 100."), code="percent")
        for pk, payer in payers.items():
            payer.percent = percents[pk]
        Payer.objects.bulk_update(payers.values(), ["percent"])
    for line_pk, payer_pk in (assignments or {}).items():
        if payer_pk is not None and payer_pk not in payers:
            raise ValidationError(_("Unknown payer."), code="payer")
        bill.lines.filter(pk=line_pk).update(payer_id=payer_pk)
    bill.split_mode = mode
    bill.save(update_fields=["split_mode"])
    audit(user=user, action=AuditAction.BILL_SPLIT, session=bill.session, bill=bill, mode=mode)
    return bill


@transaction.atomic
def open_counter_bill(*, reference, title, line, amount, user, payer_name="", player=None):
    """A bill taken at the counter, without a table (a tournament's entry fee): one line of
    ``LineKind.FEE`` for ``amount`` kopecks, its payer, audited. One bill per ``reference``:
    asked again (a double tap), the bill already there is returned as it is."""
    bill = Bill.objects.select_for_update().filter(reference=reference).first()
    if bill is not None:
        return bill
    if amount <= 0:
        raise ValidationError(_("There is nothing to pay."), code="amount")
    bill = Bill.objects.create(reference=reference, title=title[:200], created_at=timezone.now())
    BillLine.objects.create(bill=bill, kind=LineKind.FEE, description=line[:200], unit_price=amount)
    if payer_name:
        Payer.objects.create(bill=bill, name=payer_name[:150], player=player)
    audit(user=user, action=AuditAction.BILL_OPEN, bill=bill)
    audit(user=user, action=AuditAction.BILL_FEE, bill=bill, amount=amount, item=line)
    return bill
