"""The register on the desk: its panel (polled by the cash desk every 5 s: whether receipts
are made, the register's shift, documents not sent to the OFD, the receipts waiting and why),
the register's page, and the desk's actions: send now, an X report, close and reopen the
register's shift, a correction receipt. A refusal answers 409 with the panel and the reason;
bad input 400; never a 500 for the register's trouble."""

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from billing.models import Payment
from fiscal import selectors, services
from toolbox.responses import wants_partial
from toolbox.roles import cashier_required

PAGE = "fiscal/register.html"
CONFLICT, BAD = 409, 400


def _answer(request, *, message="", error="", status=200):
    context = {"panel": selectors.panel(), "message": message, "error": error}
    if wants_partial(request):
        return render(request, f"{PAGE}#panel", context, status=status)
    context["receipts"] = selectors.recent_receipts()
    return render(request, PAGE, context, status=status)


@cashier_required
@require_safe
@never_cache
def register(request):
    return _answer(request)


@cashier_required
@require_POST
def send_now(request):
    if not services.enabled():
        return _answer(request, error=_("No cash register is connected."), status=CONFLICT)
    services.send_soon(force=True)
    return _answer(request, message=_("Sending the waiting receipts…"))


@cashier_required
@require_POST
def x_report(request):
    try:
        params = services.x_report(user=request.user)
    except ValidationError as error:
        return _answer(request, error=" ".join(error.messages), status=CONFLICT)
    return _answer(
        request,
        message=_("X report printed (document №%(number)s).")
        % {"number": params.get("fiscalDocumentNumber", "—")},
    )


@cashier_required
@require_POST
def restart_shift(request):
    try:
        services.restart_register_shift(user=request.user)
    except ValidationError as error:
        return _answer(request, error=" ".join(error.messages), status=CONFLICT)
    return _answer(request, message=_("The register's shift was closed and opened again."))


@cashier_required
@require_POST
def correct(request, pk):
    payment = get_object_or_404(Payment, pk=pk)
    reason = request.POST.get("reason", "")
    if len(reason) > 300:
        return _answer(request, error=_("Say why in at most 300 characters."), status=BAD)
    try:
        services.correct(payment=payment, user=request.user, reason=reason)
    except ValidationError as error:
        return _answer(request, error=" ".join(error.messages), status=CONFLICT)
    return _answer(request, message=_("Correction receipt queued."))
