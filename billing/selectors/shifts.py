"""Reads of the cashier's shifts: what each took by method and the cash expected."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from billing.labels import money
from billing.models import OPEN_STATUSES, Payment, PaymentMethod, Payout, Shift, TableSession
from billing.selectors.bills import bill_summary, unpaid_bills


@dataclass
class ShiftReport:
    shift: object
    by_method: dict
    expected_cash: int
    total: int
    paid_out: int = 0  # cash paid out of the drawer (prizes), reversals netted

    @property
    def difference(self):
        if self.shift.counted_cash is None:
            return None
        return self.shift.counted_cash - self.expected_cash


def shift_report(shift):
    return shift_reports([shift])[0]


def shift_reports(shifts):
    """``shift_report`` of each shift, from one query for all their payments."""
    shifts = list(shifts)
    sums = defaultdict(int)
    for shift_id, method, total in (
        Payment.objects.filter(shift__in=shifts)
        .values("shift_id", "method")
        .annotate(total=Sum("amount"))
        .values_list("shift_id", "method", "total")
    ):
        sums[(shift_id, method)] = total
    paid_out = dict(
        Payout.objects.filter(shift__in=shifts)
        .values("shift_id")
        .annotate(total=Sum("amount"))
        .values_list("shift_id", "total")
    )
    reports = []
    for shift in shifts:
        by_method = {method: sums[(shift.pk, method)] for method in PaymentMethod.values}
        reports.append(
            ShiftReport(
                shift=shift,
                by_method=by_method,
                expected_cash=shift.opening_cash
                + by_method[PaymentMethod.CASH]
                - paid_out.get(shift.pk, 0),
                total=sum(by_method.values()),
                paid_out=paid_out.get(shift.pk, 0),
            )
        )
    return reports


@dataclass
class OpenItem:
    """A bill not paid or a clock still running, as the shift's close lists it."""

    label: str
    url: str


def open_business():
    """The unpaid bills and the running clocks, oldest first (what a shift should not be
    closed over without a word)."""
    items = []
    for bill in unpaid_bills().order_by("session__stopped_at"):
        summary = bill_summary(bill)
        items.append(
            OpenItem(
                label=(
                    _("bill %(bill)d, table %(table)d, %(left)s")
                    if bill.session_id
                    else _("bill %(bill)d, %(title)s, %(left)s")
                )
                % {
                    "bill": bill.pk,
                    "table": bill.session.table.number if bill.session_id else 0,
                    "title": bill.title,
                    "left": _("%(amount)s to give back") % {"amount": money(summary.to_give_back)}
                    if summary.balance < 0
                    else _("%(amount)s to pay") % {"amount": money(summary.balance)},
                },
                url=reverse("billing:bill", args=[bill.pk]),
            )
        )
    for session in (
        TableSession.objects.filter(status__in=OPEN_STATUSES)
        .select_related("table")
        .order_by("started_at")
    ):
        items.append(
            OpenItem(
                label=_("the clock of table %(table)d since %(since)s")
                % {
                    "table": session.table.number,
                    "since": timezone.localtime(session.started_at).strftime("%d.%m %H:%M"),
                },
                url=reverse("billing:session", args=[session.pk]),
            )
        )
    return items


def open_shift():
    return Shift.objects.filter(is_open=True).first()


def recent_shift_reports(count=10):
    """The reports of the last ``count`` closed shifts, newest first."""
    return shift_reports(Shift.objects.filter(is_open=False)[:count])
