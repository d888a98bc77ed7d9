"""A session's bill (cashiers and admins): its lines, the bar, the member's discount, how it
is split, the payments taken at the club's register, and the audit log.

Every form posts and comes back to the bill (post/redirect/get); a refusal shows the bill
again with the reason and status 400, changing nothing. The site never issues a receipt:
the register does, and its number is recorded with the payment.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from billing import selectors, services
from billing.forms import BarItemLineForm, DiscountForm, PayerForm, PaymentForm, RefundForm
from billing.models import Bill, BillLine, Payer, SplitMode
from toolbox.parsing import parse_id
from toolbox.roles import cashier_required

BILL = "billing/bill.html"
BAD_REQUEST = 400


def bill_page(request, bill, *, error=None, forms=None):
    bill = get_object_or_404(Bill.objects.select_related("session__table", "member"), pk=bill.pk)
    summary = selectors.bill_summary(bill)
    context = {
        "bill": bill,
        "summary": summary,
        "split_modes": SplitMode.choices,
        # A paid bill shows the percentages only if it was split by them.
        "show_percent": bill.paid_at is None or bill.split_mode == SplitMode.PERCENT,
        "bar_form": BarItemLineForm(),
        "discount_form": DiscountForm(
            initial={"member": bill.member_id, "discount_percent": bill.discount_percent}
        ),
        "payer_form": PayerForm(),
        "payment_form": PaymentForm(
            bill=bill, initial={"amount": max(summary.balance, 0), "method": "cash"}
        ),
        "refund_form": RefundForm(
            initial={"amount": summary.to_give_back, "method": summary.refund_method}
        ),
        "audit": selectors.bill_audit(bill),
        "shift": selectors.open_shift(),
        "error": error,
    }
    context.update(forms or {})
    return render(request, BILL, context, status=BAD_REQUEST if error or forms else 200)


def refused(request, bill, error, **forms):
    messages_text = " ".join(error.messages) if isinstance(error, ValidationError) else error
    return bill_page(request, bill, error=messages_text, forms=forms)


@cashier_required
@require_safe
def bill(request, pk):
    return bill_page(request, get_object_or_404(Bill, pk=pk))


def bill_write(view):
    """A POST on a bill: the bill, refusals as 400 with the bill, success back to it."""

    @cashier_required
    @require_POST
    def wrapped(request, pk):
        bill = get_object_or_404(Bill, pk=pk)
        try:
            answer = view(request, bill)
        except ValidationError as error:
            return refused(request, bill, error)
        return answer or redirect("billing:bill", pk=bill.pk)

    return wrapped


def form_write(form_class, form_name, refusal, write):
    """A bill_write view of one form: the posted ``form_class``; invalid, the bill again with
    ``refusal`` and the form (as ``form_name``); valid, ``write(bill=, user=, **its fields)``."""

    @bill_write
    def view(request, bill):
        form = form_class(request.POST)
        if not form.is_valid():
            return refused(request, bill, refusal, **{form_name: form})
        write(bill=bill, user=request.user, **form.cleaned_data)

    return view


add_bar = form_write(
    BarItemLineForm,
    "bar_form",
    gettext_lazy("Choose an item and a quantity."),
    services.add_bar_item,
)
discount = form_write(
    DiscountForm, "discount_form", gettext_lazy("Check the discount."), services.set_discount
)
add_payer = form_write(
    PayerForm, "payer_form", gettext_lazy("Give the payer's name."), services.add_payer
)


def row_write(model, name, refusal, write):
    """A bill_write view on one of the bill's rows, posted by id as ``name``: unknown, the
    bill again with ``refusal``; known, ``write(bill=, user=, name=the row)``."""

    @bill_write
    def view(request, bill):
        row = model.objects.filter(bill=bill, pk=_number(request.POST.get(name)) or 0).first()
        if row is None:
            return refused(request, bill, refusal)
        write(bill=bill, user=request.user, **{name: row})

    return view


remove_line = row_write(
    BillLine, "line", gettext_lazy("No such line on this bill."), services.remove_line
)


remove_payer = row_write(
    Payer, "payer", gettext_lazy("No such payer on this bill."), services.remove_payer
)


def _number(value):
    return parse_id(value)


@bill_write
def split(request, bill):
    mode = request.POST.get("mode", "")
    percents, assignments = {}, {}
    for payer in bill.payers.all():
        raw = request.POST.get(f"percent-{payer.pk}", "")
        if raw.strip():
            value = _number(raw)
            if value is None:
                return refused(request, bill, _("The percentages must add up to 100."))
            percents[payer.pk] = value
    for line in bill.lines.all():
        key = f"line-{line.pk}"
        if key in request.POST:
            assignments[line.pk] = _number(request.POST[key])
    services.set_split(
        bill=bill, mode=mode, percents=percents, assignments=assignments, user=request.user
    )


@bill_write
def pay(request, bill):
    form = PaymentForm(request.POST, bill=bill)
    if not form.is_valid():
        return refused(request, bill, _("Check the payment."), payment_form=form)
    try:
        services.record_payment(bill=bill, user=request.user, **form.cleaned_data)
    except ValidationError as error:
        form.asks_same_receipt = services.receipt_used(error)
        return refused(request, bill, error, payment_form=form)
    messages.success(request, _("Payment recorded."))


@bill_write
def refund(request, bill):
    form = RefundForm(request.POST)
    if not form.is_valid():
        return refused(request, bill, _("Check the refund."), refund_form=form)
    try:
        services.record_refund(bill=bill, user=request.user, **form.cleaned_data)
    except ValidationError as error:
        form.asks_same_receipt = services.receipt_used(error)
        return refused(request, bill, error, refund_form=form)
    messages.success(request, _("Refund recorded."))
