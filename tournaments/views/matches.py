"""Matches: the marker starts one (instead of a single frame), goes from frame to frame with
one tap, reopens a last frame recorded wrongly; anyone reads a match's page."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import selectors as game_selectors
from games import services as game_services
from games.models import Game, GameStatus
from tables.models import Table
from toolbox.parsing import parse_id
from toolbox.responses import redirect as htmx_redirect
from toolbox.responses import render_page_or_partial
from toolbox.roles import can_record_games, marker_required
from tournaments import selectors, services
from tournaments.forms import MatchForm
from tournaments.models import Match

NEW = "tournaments/matches/new.html"
DETAIL = "tournaments/matches/detail.html"


@marker_required
@require_http_methods(["GET", "POST"])
def new(request):
    """Start a match; ``?table=<number>`` fixes the table. Like the start form, a post with
    ``op`` other than "start" edits the form (the players, the game, a roster search)."""
    number = request.GET.get("table", "")
    table = None
    if number:
        if parse_id(number) is None:
            raise Http404
        table = get_object_or_404(Table, number=parse_id(number))
    op = request.POST.get("op", "start") if request.method == "POST" else None
    if op is None:
        return _match_form(request, MatchForm(table=table), table)
    if op != "start":
        form = MatchForm.edited(request.POST, op, table=table)
        # "enter": the Enter key in a text box adds the guest typed, else searches.
        if op == "search" or (op == "enter" and not request.POST.get("guest", "").strip()):
            query = request.POST.get("q", "")
            results = game_selectors.search_players(query, exclude_ids=form.seated_player_ids())
            return _match_form(request, form, table, results=results, query=query)
        return _match_form(request, form, table)
    form = MatchForm(request.POST, table=table)
    if form.is_valid():
        try:
            match = services.start_match(**form.start_arguments(), marker=request.user)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            url = reverse("games:console", args=[selectors.current_frame(match).game_id])
            return htmx_redirect(request, url)
    # A refused start: 400, but 200 to htmx, which swaps no 4xx (the errors show inline).
    return _match_form(request, form, table, status=200 if request.htmx else 400)


def _match_form(request, form, table, *, results=(), query="", status=200):
    """The match page, or only its form for an htmx post."""
    context = {"form": form, "table": table, "results": results, "query": query}
    when = request.method == "POST"
    return render_page_or_partial(request, NEW, "match_form", context, when=when, status=status)


@require_GET
def detail(request, pk):
    try:
        match = selectors.match_with_frames(pk)
    except Match.DoesNotExist:
        raise Http404 from None
    frames = list(match.frames.all())
    score = selectors.match_score(match, frames)
    rows = [{"frame": f, "winner": selectors.frame_winner(f)} for f in frames]
    context = {
        "match": match,
        "score": score,
        "odds": selectors.match_odds(match, score=score),
        "rows": rows,
        "can_record": can_record_games(request.user),
        "open_frame": next((f for f in frames if f.game.status == GameStatus.IN_PROGRESS), None),
    }
    return render(request, DETAIL, context)


@marker_required
@require_POST
def next_frame(request, pk):
    """One tap: saves the frame in play (when it is over) and starts the next one."""
    match = get_object_or_404(Match, pk=pk)
    game_id, seq = request.POST.get("game", ""), parse_id(request.POST.get("seq", ""))
    try:
        if game_id:
            if parse_id(game_id) is None or seq is None:
                raise services.MatchError
            game = get_object_or_404(Game, pk=parse_id(game_id), match_frame__match=match)
            match, new_game = services.finish_frame_and_continue(
                game=game, expected_seq=seq, marker=request.user
            )
        else:
            new_game = services.next_frame(match=match, marker=request.user)
    except (services.MatchError, game_services.GameError) as error:
        messages.error(request, str(error.message))
        return redirect("tournaments:match", pk=match.pk)
    if new_game is None:
        messages.success(request, _("The match is over."))
        return redirect("tournaments:match", pk=match.pk)
    return redirect("games:console", pk=new_game.pk)


@marker_required
@require_POST
def reopen(request, pk):
    match = get_object_or_404(Match, pk=pk)
    try:
        match = services.reopen_last_frame(match=match, user=request.user)
    except services.MatchError as error:
        messages.error(request, str(error.message))
        return redirect("tournaments:match", pk=match.pk)
    frame = selectors.current_frame(match)
    messages.success(request, _("The last frame is open again: undo what was recorded wrongly."))
    return redirect(reverse("games:console", args=[frame.game_id]))


@marker_required
@require_POST
def abandon(request, pk):
    match = get_object_or_404(Match, pk=pk)
    try:
        services.abandon_match(match=match, user=request.user)
    except services.MatchError as error:
        messages.error(request, str(error.message))
    else:
        messages.success(request, _("The match was abandoned; the table is free."))
    return redirect("tournaments:match", pk=match.pk)
