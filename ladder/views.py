"""The ladder's pages: the club's ladders, a ladder's places with whom the signed-in player
may challenge (and why not), a player's answers, and the desk's rules and roster."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ladder import selectors, services
from ladder.forms import AddPlayerForm, LadderForm
from ladder.models import Challenge, Ladder
from players.models import Player
from players.selectors import player_of
from toolbox.form_page import form_page
from toolbox.responses import redirect
from toolbox.roles import can_manage_tournaments, player_required, tournament_admin_required


@require_GET
def ladder_list(request):
    context = {
        "ladders": Ladder.objects.all(),
        "can_manage": can_manage_tournaments(request.user),
    }
    return render(request, "ladder/list.html", context)


@require_GET
def detail(request, pk):
    ladder = get_object_or_404(Ladder, pk=pk)
    services.settle(ladder=ladder)
    viewer = player_of(request.user)
    can_manage = can_manage_tournaments(request.user)
    context = {
        "ladder": ladder,
        "rows": selectors.ladder_page(ladder, viewer),
        "viewer": viewer,
        "on_ladder": viewer is not None and viewer.pk in selectors.order(ladder),
        "is_member": viewer is not None and Player.objects.filter(pk=viewer.pk).exists(),
        "can_manage": can_manage,
        "add_form": AddPlayerForm() if can_manage else None,
        "recent": selectors.recent_challenges(ladder),
    }
    return render(request, "ladder/detail.html", context)


def _edit_page(request, ladder):
    return form_page(
        request,
        LadderForm(request.POST or None, instance=ladder),
        "ladder/form.html",
        {"ladder": ladder},
        saved=lambda row: _("Ladder “%(name)s” saved.") % {"name": row.name},
        done="ladder:list",
    )


@tournament_admin_required
@require_http_methods(["GET", "POST"])
def new(request):
    return _edit_page(request, None)


@tournament_admin_required
@require_http_methods(["GET", "POST"])
def edit(request, pk):
    return _edit_page(request, get_object_or_404(Ladder, pk=pk))


def _done(request, action, back):
    """A post: ``action()`` writes; what it refuses is said at the top of the page; either way
    back to the page it came from (``next``, of this site) or ``back``."""
    try:
        message = action()
    except services.LadderError as error:
        messages.error(request, str(error.message))
    else:
        if message:
            messages.success(request, message)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = back
    return redirect(request, target)


def _player(request):
    player = player_of(request.user)
    if player is None:
        raise services.LadderError(_("This account has no player of the roster."))
    return player


@player_required
@require_POST
def join(request, pk):
    ladder = get_object_or_404(Ladder, pk=pk)

    def act():
        services.join(ladder=ladder, player=_player(request))
        return _("You are on the ladder, at the bottom: challenge the players above.")

    return _done(request, act, ladder.get_absolute_url())


@player_required
@require_POST
def leave(request, pk):
    ladder = get_object_or_404(Ladder, pk=pk)

    def act():
        services.leave(ladder=ladder, player=_player(request))
        return _("You have left the ladder.")

    return _done(request, act, ladder.get_absolute_url())


@tournament_admin_required
@require_POST
def add_player(request, pk):
    ladder = get_object_or_404(Ladder, pk=pk)
    form = AddPlayerForm(request.POST)

    def act():
        if not form.is_valid():
            raise services.LadderError(_("Choose a player of the club's roster."))
        player = form.cleaned_data["player"]
        services.join(ladder=ladder, player=player)
        return _("%(name)s is on the ladder.") % {"name": player.display_name}

    return _done(request, act, ladder.get_absolute_url())


@tournament_admin_required
@require_POST
def remove_player(request, pk, player_pk):
    ladder = get_object_or_404(Ladder, pk=pk)
    player = get_object_or_404(Player, pk=player_pk)

    def act():
        services.leave(ladder=ladder, player=player)
        return _("%(name)s has left the ladder.") % {"name": player.display_name}

    return _done(request, act, ladder.get_absolute_url())


@player_required
@require_POST
def challenge(request, pk, player_pk):
    ladder = get_object_or_404(Ladder, pk=pk)
    challenged = get_object_or_404(Player, pk=player_pk)

    def act():
        services.challenge(ladder=ladder, challenger=_player(request), challenged=challenged)
        return _("Challenge sent to %(name)s.") % {"name": challenged.display_name}

    return _done(request, act, ladder.get_absolute_url())


def _answer(service, said):
    @player_required
    @require_POST
    def view(request, pk):
        found = get_object_or_404(Challenge, pk=pk)

        def act():
            service(challenge=found, player=_player(request))
            return said()

        return _done(request, act, found.ladder.get_absolute_url())

    return view


accept = _answer(services.accept, lambda: _("Challenge accepted: play it by the deadline."))
decline = _answer(services.decline, lambda: _("Challenge declined: the place is lost."))
withdraw = _answer(services.withdraw, lambda: _("Challenge withdrawn."))
