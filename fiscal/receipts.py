"""What a receipt says, built from billing's records when the money moves: its kind, its
lines (table time a service in hours, bar items goods, a tournament fee a service), each
line's payment method (full payment, 100 % prepayment), the payments (cash, electronically,
the advance offset), the tax system and VAT, the cashier and the buyer's contact.

The request is plain data (``FiscalTask.request``), the register's driver turns it into its
own JSON. Money in kopecks; quantities as decimal strings. Receipts are printed in Russian
whatever the cashier's language: the texts are translated in the site's language.
"""

from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext

from billing.models import LineKind, PaymentMethod
from billing.selectors import bill_summary, price_of
from fiscal.models import CashierTaxId, ItemTax, TaskKind

SERVICE, COMMODITY = "service", "commodity"
FULL_PAYMENT, FULL_PREPAYMENT = "fullPayment", "fullPrepayment"
CASH, ELECTRONICALLY, PREPAID = "cash", "electronically", "prepaid"
HOUR, PIECE = "hour", "piece"


def payment_type(method):
    """How the money came, as the register counts it: cash, or electronically (card, SBP)."""
    return CASH if method == PaymentMethod.CASH else ELECTRONICALLY


def hours(seconds):
    return (Decimal(seconds) / 3600).quantize(Decimal("0.001"), ROUND_HALF_UP)


def _item(name, obj, method, amount, *, quantity=Decimal(1), unit=PIECE, vat, line=None, **more):
    price = int((Decimal(amount) / quantity).quantize(Decimal(1), ROUND_HALF_UP))
    item = {
        "name": name[:128],
        "object": obj,
        "method": method,
        "price": price,
        "quantity": str(quantity),
        "unit": unit,
        "amount": amount,
        "vat": vat,
    }
    if line is not None:
        item["line"] = line
    item.update({key: value for key, value in more.items() if value})
    return item


def operator(user):
    if user is None:
        return {"name": ""}
    name = (user.get_full_name() or user.get_username())[:64]
    tax_id = CashierTaxId.objects.filter(user=user).first()
    return {"name": name, "inn": tax_id.inn} if tax_id else {"name": name}


def _base(kind, club, user, buyer):
    request = {
        "type": kind,
        "tax_system": club.tax_system,
        "ffd_12": club.ffd_12,
        "operator": operator(user),
    }
    if buyer:
        request["buyer"] = buyer.strip()[:64]
    return request


def bill_lines(bill, club):
    """The bill's lines as receipt positions at their full amounts (after the member's
    discount), in order: the time line first."""
    summary = bill_summary(bill)
    items = [line.bar_item_id for line in summary.lines if line.bar_item_id]
    taxes = dict(ItemTax.objects.filter(bar_item__in=items).values_list("bar_item", "vat"))
    session = bill.session
    result = []
    with translation.override(settings.LANGUAGE_CODE):
        for line in summary.lines:
            if line.kind == LineKind.TIME:
                amount = line.amount - summary.discount
                price = price_of(session, now=session.stopped_at)
                seconds = price.charged if price is not None else 3600
                table = session.table.number
                result.append(
                    {
                        "line": line.pk,
                        "name": pgettext("receipt", "Billiard table %(table)s, time")
                        % {"table": table},
                        "object": SERVICE,
                        "amount": amount,
                        "quantity": max(hours(seconds), Decimal("0.001")),
                        "unit": HOUR,
                        "vat": club.vat,
                        "payer": line.payer_id,
                    }
                )
            elif line.kind == LineKind.FEE:  # a tournament's entry fee: a service
                result.append(
                    {
                        "line": line.pk,
                        "name": line.description,
                        "object": SERVICE,
                        "amount": line.amount,
                        "quantity": Decimal(line.quantity),
                        "unit": PIECE,
                        "vat": club.vat,
                        "payer": line.payer_id,
                    }
                )
            else:
                result.append(
                    {
                        "line": line.pk,
                        "name": line.description,
                        "object": COMMODITY,
                        "amount": line.amount,
                        "quantity": Decimal(line.quantity),
                        "unit": PIECE,
                        "vat": taxes.get(line.bar_item_id) or club.vat,
                        "marking": line.marking_code,
                        "payer": line.payer_id,
                    }
                )
    return [line for line in result if line["amount"] > 0]


def covered_lines(bill, tasks):
    """Kopecks of each line already on a receipt of full payment (earlier receipts)."""
    covered = {}
    for task in tasks:
        sign = -1 if task.kind == TaskKind.SELL_RETURN else 1
        for item in task.request.get("items", []):
            if item.get("method") == FULL_PAYMENT and "line" in item:
                covered[item["line"]] = covered.get(item["line"], 0) + sign * item["amount"]
    return covered


def allocate(lines, covered, amount, payer=None):
    """``amount`` laid over what the lines still owe (the payer's own lines first, then in
    order): [(line, kopecks)], adding up to ``amount`` — the last line takes any rest."""
    order = sorted(lines, key=lambda line: (line.get("payer") != payer or payer is None,))
    parts, left = [], amount
    for line in order:
        owed = line["amount"] - covered.get(line["line"], 0)
        take = min(owed, left)
        if take > 0:
            parts.append((line, take))
            left -= take
    if left > 0 and lines:  # more than the lines owe (should not happen): on the last one
        if parts:
            line, take = parts[-1]
            parts[-1] = (line, take + left)
        else:
            parts.append((lines[-1], left))
    return parts


def _positions(parts, method):
    items = []
    for line, part in parts:
        quantity = line["quantity"]
        if part != line["amount"]:  # a share of the line: its share of the quantity
            if line["unit"] == HOUR:
                quantity = max(
                    (quantity * part / line["amount"]).quantize(Decimal("0.001")),
                    Decimal("0.001"),
                )
            else:
                quantity = Decimal(1)
        items.append(
            _item(
                line["name"],
                line["object"],
                method,
                part,
                quantity=quantity,
                unit=line["unit"],
                vat=line["vat"],
                line=line["line"],
                marking=line.get("marking", "") if part == line["amount"] else "",
            )
        )
    return items


def prepayment_request(payment, club, user, buyer=""):
    """100 % prepayment for table time: one service line, its minutes in hours."""
    session = payment.bill.session
    request = _base(TaskKind.SELL, club, user, buyer)
    minutes = session.prepaid_minutes or 60
    with translation.override(settings.LANGUAGE_CODE):
        name = pgettext("receipt", "Billiard table %(table)s, time (prepaid)") % {
            "table": session.table.number
        }
    quantity = max(hours(minutes * 60), Decimal("0.001"))
    request["items"] = [
        _item(
            name,
            SERVICE,
            FULL_PREPAYMENT,
            payment.amount,
            quantity=quantity,
            unit=HOUR,
            vat=club.vat,
        )
    ]
    request["payments"] = [{"type": payment_type(payment.method), "sum": payment.amount}]
    request["total"] = payment.amount
    return request


def refund_request(payment, club, user, buyer=""):
    """Money given back: a return of income. What is given back is the unplayed part of the
    money paid up front, so its line is a 100 % prepayment returned."""
    bill = payment.bill
    amount = -payment.amount
    request = _base(TaskKind.SELL_RETURN, club, user, buyer)
    with translation.override(settings.LANGUAGE_CODE):
        name = pgettext("receipt", "Billiard table %(table)s, time (prepaid)") % {
            "table": bill.session.table.number
        }
    request["items"] = [_item(name, SERVICE, FULL_PREPAYMENT, amount, unit=PIECE, vat=club.vat)]
    request["payments"] = [{"type": payment_type(payment.method), "sum": amount}]
    request["total"] = amount
    return request


def payment_request(payment, club, user, earlier, buyer=""):
    """A bill's payment (whole, part or a payer's share): its amount over what the bill's
    lines still owe, each a full payment."""
    bill = payment.bill
    request = _base(TaskKind.SELL, club, user, buyer)
    lines = bill_lines(bill, club)
    parts = allocate(lines, covered_lines(bill, earlier), payment.amount, payment.payer_id)
    request["items"] = _positions(parts, FULL_PAYMENT)
    request["payments"] = [{"type": payment_type(payment.method), "sum": payment.amount}]
    request["total"] = payment.amount
    return request


def settlement_request(bill, offset, club, user, earlier):
    """Prepaid time played: the advance (``offset``) set against what the lines still owe,
    each a full payment paid by the prepayment."""
    request = _base(TaskKind.SELL, club, user, "")
    lines = bill_lines(bill, club)
    parts = allocate(lines, covered_lines(bill, earlier), offset)
    request["items"] = _positions(parts, FULL_PAYMENT)
    request["payments"] = [{"type": PREPAID, "sum": offset}]
    request["total"] = offset
    return request


def correction_request(original, reason, date):
    """A correction receipt (ours, not the tax service's order) for money taken without a
    receipt: what the receipt would have said, with the reason and the day it was paid."""
    request = dict(original)
    request["type"] = TaskKind.SELL_CORRECTION
    request["correction"] = {"type": "self", "reason": reason[:200], "date": date.isoformat()}
    return request


def money_in(request):
    """Kopecks that came in or went out by this receipt (not the advance set against)."""
    total = sum(p["sum"] for p in request.get("payments", []) if p["type"] != PREPAID)
    return -total if request.get("type") == TaskKind.SELL_RETURN else total
