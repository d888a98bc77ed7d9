"""The bookkeeper's reports (cashiers and admins): revenue per table, band and bar item, the
tables' use per hour and the shifts, by calendar days of the club's time or by one shift;
and the same figures as CSV files (payments, shifts, revenue), formula-safe and with times
in the club's time zone."""

from datetime import timedelta
from decimal import Decimal

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from billing import selectors
from billing.forms import ReportForm
from billing.models import PaymentMethod
from tables.models import TableKind
from toolbox.csv_export import csv_response
from toolbox.roles import cashier_required

BAD_REQUEST = 400
MOMENT = "%Y-%m-%d %H:%M:%S"


def report_of(request):
    """The form as asked (the last seven days by default) and its report (None if invalid)."""
    today = timezone.localdate()
    form = ReportForm(request.GET or {"start": today - timedelta(days=6), "end": today})
    if not form.is_valid():
        return form, None
    if form.cleaned_data["shift"] is not None:
        return form, selectors.shift_period_report(form.cleaned_data["shift"])
    return form, selectors.period_report(form.cleaned_data["start"], form.cleaned_data["end"])


@cashier_required
@require_safe
def reports(request):
    form, report = report_of(request)
    status = 200 if report else BAD_REQUEST
    context = {
        "form": form,
        "report": report,
        "chart": chart(report) if report else None,
        "query": request.GET.urlencode(),
    }
    return render(request, "billing/reports.html", context, status=status)


def chart(report):
    """Geometry of the utilisation bar chart (server-rendered SVG): 24 bars, 0–100 %."""
    width, height, left, bottom = 24 * 30, 200, 36, 24
    bars = []
    for hour, percent in enumerate(report.utilisation):
        bar_height = round(min(percent, 100) * (height - 10) / 100, 1)
        bars.append(
            {
                "hour": hour,
                "percent": percent,
                "x": left + hour * 30 + 4,
                "y": round(height - bar_height, 1),
                "height": bar_height,
                "label_x": left + hour * 30 + 15,
            }
        )
    return {
        "bars": bars,
        "width": left + width,
        "height": height + bottom,
        "axis_y": height,
        "ticks": [{"y": round(height - p * (height - 10) / 100, 1), "p": p} for p in (0, 50, 100)],
    }


def roubles(kopecks):
    """Kopecks as a number of roubles for a spreadsheet: ``-35000`` → ``Decimal("-350.00")``."""
    return (Decimal(kopecks) / 100).quantize(Decimal("0.01"))


def local(moment):
    return timezone.localtime(moment).strftime(MOMENT) if moment else ""


def export(view):
    """A CSV of the report asked as the page asks it; an invalid question is a 404."""

    @cashier_required
    @require_safe
    def wrapped(request):
        _form, report = report_of(request)
        if report is None:
            raise Http404
        return view(request, report)

    return wrapped


def kind_of(payment):
    if payment.is_refund:
        return pgettext("payment kind", "refund")
    return pgettext("payment kind", "prepayment" if payment.up_front else "payment")


@export
def payments_csv(request, report):
    header = [
        _("paid at"),
        _("shift"),
        _("bill"),
        _("table"),
        _("kind"),
        _("method"),
        _("amount, ₽"),
        _("receipt number"),
        _("payer"),
        _("recorded by"),
    ]
    methods = dict(PaymentMethod.choices)
    rows = [
        [
            local(payment.at),
            payment.shift_id,
            payment.bill_id,
            payment.bill.session.table.number if payment.bill.session_id else "",
            kind_of(payment),
            str(methods.get(payment.method, payment.method)),
            roubles(payment.amount),
            payment.receipt_number,
            payment.payer.name if payment.payer else "",
            payment.recorded_by.get_username(),
        ]
        for payment in selectors.payments_between(report.since, report.until)
    ]
    return csv_response("payments", header, rows)


@export
def shifts_csv(request, report):
    header = [
        _("shift"),
        _("opened"),
        _("closed"),
        *[_("%(method)s, ₽") % {"method": label} for label in PaymentMethod.labels],
        _("paid out in cash, ₽"),
        _("opening cash, ₽"),
        _("expected cash, ₽"),
        _("counted cash, ₽"),
        _("difference, ₽"),
    ]
    rows = [
        [
            item.shift.pk,
            local(item.shift.opened_at),
            local(item.shift.closed_at),
            *[roubles(item.by_method[method]) for method in PaymentMethod.values],
            roubles(item.paid_out),
            roubles(item.shift.opening_cash),
            roubles(item.expected_cash),
            roubles(item.shift.counted_cash) if item.shift.counted_cash is not None else "",
            roubles(item.difference) if item.difference is not None else "",
        ]
        for item in report.shifts
    ]
    return csv_response("shifts", header, rows)


@export
def revenue_csv(request, report):
    kinds = dict(TableKind.choices)
    rows = [
        [_("table"), _("Table %(number)s") % {"number": n}, roubles(a)] for n, a in report.by_table
    ]
    rows += [
        [_("tariff band"), f"{kinds.get(kind, kind)}: {band}", roubles(amount)]
        for kind, band, amount in report.by_band
    ]
    rows += [[_("bar"), name, roubles(amount)] for name, _quantity, amount in report.bar_items]
    rows += [
        [_("total"), _("table time"), roubles(report.time_revenue)],
        [_("total"), _("bar"), roubles(report.bar_revenue)],
        [_("total"), _("tournament entry fees"), roubles(report.fee_revenue)],
        [_("paid out"), _("prizes"), roubles(-report.prizes_paid)],
    ]
    return csv_response("revenue", [_("by"), _("what"), _("amount, ₽")], rows)
