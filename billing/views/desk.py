"""The cashier's desk: every table's clock — start, pause, resume, stop, move — and a
session's page with its time, its price so far, corrections and its audit log.

A button posts with htmx and gets the table's card back (409 with the card and the reason
when the clock cannot do that now); without htmx the page reloads (or, on a refusal, is
shown again with the reason and status 409).
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from billing import selectors, services
from billing.forms import CorrectTimeForm, MoveForm, StartClockForm
from billing.models import TableSession
from tables.models import Table
from toolbox.responses import page_or_partial, wants_partial
from toolbox.responses import redirect as htmx_redirect
from toolbox.roles import cashier_required

DESK = "billing/desk.html"
SESSION = "billing/session.html"
CONFLICT = 409


def desk_rows(error_for=None, error=None, form=None):
    """The desk's tables, the one ``error_for`` (a table pk) with the ``error`` it met and
    its start ``form`` as posted."""
    tables = selectors.desk_tables()
    for table in tables:
        mine = error_for == table.pk
        table.error = error if mine else None
        table.start_form = form if mine and form is not None else StartClockForm()
    return tables


def card_context(table, error=None, form=None):
    table = selectors.desk_table(table)
    table.error = error
    table.start_form = form or StartClockForm()
    return {"table": table}


def answer(request, table, error=None, form=None):
    """The table's card (htmx) or the desk page; a refusal says why, with status 409."""
    status = CONFLICT if error else 200
    if wants_partial(request):  # the card that htmx swaps
        return render(request, f"{DESK}#card", card_context(table, error, form), status=status)
    if error:
        context = {"tables": desk_rows(table.pk, error, form), "open_bills": selectors.open_bills()}
        return render(request, DESK, context, status=status)
    return redirect("billing:desk")


def refusal_text(error):
    return " ".join(error.messages)


@cashier_required
@require_safe
def desk(request):
    return render(request, DESK, {"tables": desk_rows(), "open_bills": selectors.open_bills()})


@cashier_required
@require_POST
def start(request, number):
    table = get_object_or_404(Table, number=number)
    form = StartClockForm(request.POST)
    if not form.is_valid():
        errors = [message for messages in form.errors.values() for message in messages]
        return answer(request, table, " ".join(errors), form)
    try:
        services.start_session(
            table=table,
            user=request.user,
            prepaid_minutes=form.cleaned_data["prepaid_minutes"],
            tender=form.tender(),
        )
    except ValidationError as error:
        form.asks_same_receipt = services.receipt_used(error)
        return answer(request, table, refusal_text(error), form)
    back = request.POST.get("next", "")
    if back.startswith("/") and not back.startswith("//"):  # from the console's offer
        return htmx_redirect(request, back)
    return answer(request, table)


def clock_action(service):
    @cashier_required
    @require_POST
    def view(request, pk):
        session = get_object_or_404(TableSession, pk=pk)
        table = session.table
        try:
            session = service(session=session, user=request.user)
        except ValidationError as error:
            return answer(request, table, " ".join(error.messages))
        if service is services.stop_session:
            url = reverse("billing:bill", args=[session.bill.pk])
            return htmx_redirect(request, url)
        return answer(request, session.table)

    return view


pause = clock_action(services.pause_session)
resume = clock_action(services.resume_session)
stop = clock_action(services.stop_session)


@cashier_required
@require_POST
def void(request, pk):
    """A clock started by mistake, voided with a reason in its first minutes: no bill."""
    session = get_object_or_404(TableSession, pk=pk)
    try:
        services.void_session(
            session=session, reason=request.POST.get("reason", ""), user=request.user
        )
    except ValidationError as error:
        return answer(request, session.table, refusal_text(error))
    return answer(request, session.table)


@cashier_required
@require_POST
def move(request, pk):
    session = get_object_or_404(TableSession, pk=pk)
    table = session.table
    form = MoveForm(request.POST, tables=selectors.move_targets())
    if not form.is_valid():
        return answer(request, table, " ".join(form.errors.get("to_table", [])))
    try:
        session = services.move_session(
            session=session, to_table=form.cleaned_data["to_table"], user=request.user
        )
    except ValidationError as error:
        return answer(request, table, " ".join(error.messages))
    messages.success(
        request,
        _("The session moved from table %(old)d to table %(new)d.")
        % {"old": table.number, "new": session.table.number},
    )
    return htmx_redirect(request, "billing:desk")  # two cards changed: reload the desk


def session_context(session, form=None, stretch_pk=None):
    session = selectors.session_detail(session.pk)
    stretches = list(session.stretches.all())
    chosen = next((s for s in stretches if str(s.pk) == str(stretch_pk)), None)
    chosen = chosen or (stretches[-1] if stretches else None)
    clock = selectors.clock_of(session, tariff=selectors.club_tariff())
    bill = selectors.bill_of(session)
    return {
        "session": session,
        "clock": clock,
        "price": clock.price,
        "bill": bill,
        # A paid bill never changes; a voided clock has no time left to correct.
        "correctable": stretches and (bill is None or bill.paid_at is None),
        "form": form or CorrectTimeForm(session=session, stretch=chosen),
        "audit": selectors.audit_of(session),
    }


@cashier_required
@require_safe
def session_page(request, pk):
    """The session; with ``?stretch=`` the correction form holds that stretch's times (the
    form's stretch list asks it so, and swaps the form in: htmx)."""
    session = get_object_or_404(TableSession, pk=pk)
    context = session_context(session, stretch_pk=request.GET.get("stretch"))
    template = page_or_partial(request, SESSION, "correct", target="correct")
    return render(request, template, context)


@cashier_required
@require_POST
def correct(request, pk):
    session = get_object_or_404(TableSession, pk=pk)
    form = CorrectTimeForm(request.POST, session=session)
    if form.is_valid():
        try:
            services.correct_stretch(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The time is corrected."))
            return redirect("billing:session", pk=session.pk)
    return render(request, SESSION, session_context(session, form), status=400)


@require_safe
def board_clock(request, number):
    get_object_or_404(Table, number=number)
    return render(request, "billing/partials/board_clock.html", selectors.board_clock(number))
