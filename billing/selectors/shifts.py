"""Reads of the cashier's shifts: what each took by method and the cash expected."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Sum

from billing.models import Payment, PaymentMethod, Shift


@dataclass
class ShiftReport:
    shift: object
    by_method: dict
    expected_cash: int
    total: int

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
    reports = []
    for shift in shifts:
        by_method = {method: sums[(shift.pk, method)] for method in PaymentMethod.values}
        reports.append(
            ShiftReport(
                shift=shift,
                by_method=by_method,
                expected_cash=shift.opening_cash + by_method[PaymentMethod.CASH],
                total=sum(by_method.values()),
            )
        )
    return reports


def open_shift():
    return Shift.objects.filter(is_open=True).first()


def recent_shift_reports(count=10):
    """The reports of the last ``count`` closed shifts, newest first."""
    return shift_reports(Shift.objects.filter(is_open=False)[:count])
