"""A game without a marker: a signed-in player at a table (its QR code opens its board, which
links here) starts a two-player game with another player of the roster and records it on the
marker's console (``games.views.console``: only his own game); the opponent confirms it."""

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from games import selectors as game_selectors
from me import selectors, services
from me.forms import OwnGameForm
from players.models import Player, search_key
from tables.models import Table
from toolbox.responses import redirect
from toolbox.roles import player_required

PLAY = "me/play.html"
FOUND = 10


@player_required
@require_http_methods(["GET", "POST"])
def play(request, number):
    player = selectors.player_or_404(request.user)
    table = get_object_or_404(Table, number=number, is_active=True)
    game = game_selectors.current_game(table)
    if game is not None and game_selectors.records_own_game(request.user, game.pk):
        return redirect(request, reverse("games:console", args=[game.pk]))
    context = {"table": table, "busy": game is not None, "player": player}
    playing = selectors.game_in_progress(player)
    if playing is not None and playing.game.table_id != table.pk:
        context["elsewhere"] = playing.game.table.number
    form = OwnGameForm(request.POST or None, player=player)
    status = 200
    if request.method == "POST" and form.is_valid() and not context["busy"]:
        try:
            game = services.start_own_game(
                table=table,
                variant=form.cleaned_data["variant"],
                player=player,
                opponent=form.cleaned_data["opponent"],
                breaks=form.cleaned_data["breaks"],
                settings={},
                user=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            return redirect(request, reverse("games:console", args=[game.pk]))
    if request.method == "POST":
        status = 409 if context["busy"] else 400
    chosen = form.data.get("opponent") if form.is_bound else None
    context |= {"form": form, "chosen": _chosen(chosen, player)}
    return render(request, PLAY, context, status=status)


def _chosen(pk, player):
    if not (pk or "").isdigit():
        return None
    return Player.objects.filter(pk=int(pk), is_active=True).exclude(pk=player.pk).first()


@player_required
@require_GET
def search(request):
    """Roster players whose names (never their phones) hold every word typed."""
    player = selectors.player_or_404(request.user)
    words = search_key(request.GET.get("q", "")).split()
    found = []
    if words:
        rows = Player.objects.filter(is_active=True).exclude(pk=player.pk)
        for word in words:
            rows = rows.filter(name_key__contains=word)
        found = list(rows.order_by("full_name")[:FOUND])
    return render(request, f"{PLAY}#found", {"found": found, "query": request.GET.get("q", "")})
