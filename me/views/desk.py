"""The staff's side of the players' phones: a player's sign-in link (a QR code on the desk's
screen, shown once) and signing him out everywhere (cashiers and admins); the games scored by
the players that are disputed, with both players' words (admins)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from me import services
from me.models import LINK_HOURS, ConfirmationStatus, GameConfirmation, SignInLink
from players.models import Player, search_key
from toolbox.qr import qr_svg
from toolbox.responses import redirect, render_page_or_partial
from toolbox.roles import dispute_admin_required, sign_in_desk_required

ACCESS = "me/desk/access.html"
PLAYERS = "me/desk/players.html"
FOUND = 20
DISPUTES = "me/desk/disputes.html"


def _access_context(player):
    return {
        "player": player,
        "account": player.user,
        "links": SignInLink.objects.filter(player=player)[:5],
        "link_hours": LINK_HOURS,
        "now": timezone.now(),
    }


@sign_in_desk_required
@require_GET
def players(request):
    """The desk finds a player by name (a few letters) to give him his sign-in link."""
    query = request.GET.get("q", "")
    words = search_key(query).split()
    found = []
    if words:
        rows = Player.objects.filter(is_active=True).select_related("user")
        for word in words:
            rows = rows.filter(name_key__contains=word)
        found = list(rows.order_by("full_name")[:FOUND])
    context = {"found": found, "query": query}
    return render_page_or_partial(request, PLAYERS, "found", context, target="found")


@sign_in_desk_required
@require_GET
def access(request, pk):
    player = get_object_or_404(Player, pk=pk)
    return render(request, ACCESS, _access_context(player))


@never_cache
@sign_in_desk_required
@require_POST
def issue_link(request, pk):
    """A new link, shown on this answer only (its token is not stored): the player scans it."""
    player = get_object_or_404(Player, pk=pk)
    try:
        token = services.issue_link(player=player, user=request.user)
    except services.MeError as error:
        messages.error(request, str(error.message))
        return redirect(request, "me:access", pk=pk)
    url = request.build_absolute_uri(reverse("me:join", args=[token]))
    context = _access_context(player) | {"url": url, "qr": qr_svg(url)}
    return render(request, ACCESS, context)


@sign_in_desk_required
@require_POST
def sign_out(request, pk):
    player = get_object_or_404(Player, pk=pk)
    services.sign_out_everywhere(player=player)
    messages.success(
        request,
        _("%(name)s: signed out on every phone; a new link signs in again.") % {"name": player},
    )
    return redirect(request, "me:access", pk=pk)


@dispute_admin_required
@require_GET
def disputes(request):
    rows = GameConfirmation.objects.filter(
        status__in=[ConfirmationStatus.DISPUTED, ConfirmationStatus.PENDING]
    ).select_related("game", "game__table", "started_by", "opponent")
    rows = rows.order_by("status", "-pk")  # disputed ones first
    return render(request, DISPUTES, {"confirmations": rows.prefetch_related("game__seats")})


@dispute_admin_required
@require_POST
def settle(request, pk):
    """``op=confirm``: the game counts; ``op=void``: it never does."""
    op = request.POST.get("op")
    try:
        if op == "confirm":
            services.confirm(game_pk=pk, user=request.user)
            messages.success(request, _("The game counts."))
        elif op == "void":
            services.void(game_pk=pk, user=request.user)
            messages.success(request, _("The game is set aside: it does not count."))
    except services.MeError as error:
        messages.error(request, str(error.message))
    return redirect(request, "me:disputes")
