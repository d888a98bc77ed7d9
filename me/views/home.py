"""The player's own page, ``/me/``: the pushed region (``me.fragments``) and what is read once
(recent games with their replays, ratings and form, his odds against the players he meets
most and handicap advice); its stream; his
answers (confirm or dispute a game, check in, sign up, Telegram)."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ladder import selectors as ladder_selectors
from ladder import services as ladder_services
from leagues import selectors as league_selectors
from leagues import services as league_services
from live.streams import stream_response
from me import fragments, selectors, services
from me import telegram as telegram_bot
from records.forms import HandicapAdviceForm
from records.network import several_clubs
from records.stats import player_ratings
from toolbox.responses import redirect
from toolbox.roles import player_required
from tournaments import services as tournament_services
from tournaments.models import Entrant, Tournament


def _player(request):
    return selectors.player_or_404(request.user)


@player_required
@require_GET
def home(request):
    player = _player(request)
    ladder_services.settle_all()  # the ladders' deadlines passed since, applied
    league_services.remind_all()  # a captain's line-up due tomorrow and not locked
    context = fragments.live_context(player)
    context |= {
        "recent": selectors.recent_games(player),
        "ratings": player_ratings(player),
        "form": selectors.form(player),
        "rivals": selectors.rivals(player),
        "advice_form": HandicapAdviceForm(player),
        "advice": None,
        "telegram": selectors.telegram_chat(player),
        "telegram_enabled": telegram_bot.enabled(),
        "telegram_bot": settings.TELEGRAM_BOT_NAME,
        "other_clubs": fragments.other_clubs(player, request),
        "several_clubs": several_clubs(),  # his games and records at every club: linked
        "series": selectors.series_standing(player),
        "ladders": ladder_selectors.player_ladders(player),
        "ladder_notices": [
            ladder_selectors.notice_text(n) for n in ladder_selectors.notices(player)
        ],
        "league_days": league_selectors.match_days_of(player),
        "league_notices": league_selectors.notices(player),
    }
    return render(request, fragments.HOME, context)


@player_required
@require_GET
def stream(request):
    return stream_response(request, fragments.player_feed(_player(request)))


def _answer(request, action):
    """A post from the player's page: ``action()`` writes; what it refuses is said at the top
    of the page; either way the player is back on his page (htmx follows)."""
    try:
        action()
    except (services.MeError, tournament_services.MatchError) as error:
        messages.error(request, str(error.message))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "me:home"  # only a page of this site
    return redirect(request, back)


@player_required
@require_POST
def confirm(request, pk):
    player = _player(request)
    return _answer(request, lambda: services.confirm(game_pk=pk, player=player, user=request.user))


@player_required
@require_POST
def dispute(request, pk):
    player = _player(request)
    words = request.POST.get("words", "")
    return _answer(request, lambda: services.dispute(game_pk=pk, player=player, words=words))


@player_required
@require_POST
def sign_up(request, pk):
    player = _player(request)
    tournament = get_object_or_404(Tournament, pk=pk)

    def act():
        entrant = tournament_services.sign_up(tournament=tournament, player=player)
        services.tell(player)
        if entrant.status == "pending":
            messages.success(request, _("Signed up: the admins approve the entries."))
        else:
            messages.success(request, _("Signed up. See you at the tournament!"))

    return _answer(request, act)


@player_required
@require_POST
def withdraw(request, pk):
    player = _player(request)
    tournament = get_object_or_404(Tournament, pk=pk)

    def act():
        tournament_services.withdraw_sign_up(tournament=tournament, player=player)
        services.tell(player)
        messages.success(request, _("Your entry is withdrawn."))

    return _answer(request, act)


@player_required
@require_POST
def check_in(request, pk):
    player = _player(request)
    entrant = get_object_or_404(Entrant, tournament_id=pk, player=player)

    def act():
        tournament_services.check_in(entrant=entrant)
        services.tell(player)
        messages.success(request, _("Checked in: you are here."))

    return _answer(request, act)


@player_required
@require_POST
def telegram(request):
    """A code to send the club's bot, or (``op=unlink``) the chat forgotten."""
    if not telegram_bot.enabled():
        raise Http404("the club runs no Telegram bot")
    player = _player(request)
    if request.POST.get("op") == "unlink":
        services.unlink_telegram(player=player)
    else:
        services.telegram_code(player=player)
    return redirect(request, "me:home")
