"""A tournament's fees and prizes at the desk: the entrants with their fee due and paid, the
ledger, the prizes due by place. The tournament desk and the cashiers read it; only a
cashier takes a fee (a counter bill at the cash desk, paid there like any bill) or pays a
prize out of the shift (or reverses a wrong payout)."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from billing import selectors as billing_selectors
from billing.models import Payout
from toolbox.parsing import parse_id
from toolbox.roles import can_manage_tournaments, can_run_clocks, cashier_required
from tournaments import funds, services
from tournaments.models import Entrant, Tournament

FEES = "tournaments/fees.html"
BAD_REQUEST = 400


def _page(request, tournament, *, error=None):
    ledger = funds.ledger(tournament)
    payouts = list(
        Payout.objects.filter(reference__startswith=f"prize:{tournament.pk}:").order_by("at", "pk")
    )
    context = {
        "tournament": tournament,
        "ledger": ledger,
        "payouts": payouts,
        "reversed": {payout.reverses_id for payout in payouts if payout.reverses_id},
        "can_pay": can_run_clocks(request.user),
        "can_manage": can_manage_tournaments(request.user),
        "shift": billing_selectors.open_shift(),
        "error": error,
    }
    return render(request, FEES, context, status=BAD_REQUEST if error else 200)


@require_safe
def fees(request, pk):
    """The desk's page of fees and prizes (the tournament desk, the cashiers)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not (can_manage_tournaments(request.user) or can_run_clocks(request.user)):
        raise PermissionDenied
    return _page(request, get_object_or_404(Tournament, pk=pk))


def _write(request, pk, write):
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        answer = write(tournament)
    except ValidationError as error:
        return _page(request, tournament, error=" ".join(error.messages))
    return answer or redirect("tournaments:fees", pk=pk)


def _entrant_of(request, tournament):
    entrant_pk = parse_id(request.POST.get("entrant", ""))
    entrant = Entrant.objects.filter(pk=entrant_pk, tournament=tournament).first()
    if entrant_pk is None or entrant is None:
        raise ValidationError(_("Choose an entrant of this tournament."))
    return entrant


@cashier_required
@require_POST
def take_fee(request, pk):
    """Opens the entrant's fee as a bill at the cash desk and goes to it to take the payment."""

    def write(tournament):
        bill = services.take_fee(entrant=_entrant_of(request, tournament), user=request.user)
        return redirect("billing:bill", pk=bill.pk)

    return _write(request, pk, write)


@cashier_required
@require_POST
def pay_prize(request, pk):
    def write(tournament):
        payout = services.pay_prize(entrant=_entrant_of(request, tournament), user=request.user)
        messages.success(request, _("Paid out: %(what)s.") % {"what": payout})

    return _write(request, pk, write)


@cashier_required
@require_POST
def reverse_payout(request, pk):
    def write(tournament):
        payout_pk = parse_id(request.POST.get("payout", ""))
        payout = Payout.objects.filter(pk=payout_pk).first() if payout_pk else None
        if payout is None:
            raise ValidationError(_("Choose a payout of this tournament."))
        services.reverse_prize(
            tournament=tournament,
            payout=payout,
            user=request.user,
            reason=request.POST.get("reason", "")[:500],
        )
        messages.success(request, _("The payout was reversed: the money is back in the drawer."))

    return _write(request, pk, write)
