"""Tournaments: the admin creates one, enters players, seeds and starts it, then calls the
ready matches to free tables; everyone reads its page, its TV board and its CSV protocol."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubsite.csv_export import csv_response
from clubsite.htmx import page_or_partial
from clubsite.parsing import parse_id
from clubsite.roles import can_manage_tournaments, tournament_admin_required
from tables.models import Table
from tournaments import brackets, selectors, services
from tournaments.forms import EntrantForm, TournamentForm
from tournaments.models import Entrant, Match, Seeding, Tournament, TournamentStatus

LIST = "tournaments/list.html"
EDIT = "tournaments/edit.html"
MANAGE = "tournaments/manage.html"
DETAIL = "tournaments/detail.html"
BOARD = "tournaments/board.html"


def _tournament(pk):
    return get_object_or_404(Tournament, pk=pk)


@require_GET
def tournament_list(request):
    context = {
        "tournaments": Tournament.objects.all(),
        "can_manage": can_manage_tournaments(request.user),
    }
    return render(request, LIST, context)


@tournament_admin_required
@require_http_methods(["GET", "POST"])
def new(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            tournament = form.save()
            messages.success(request, _("The tournament was created: now enter the players."))
            return redirect("tournaments:manage", pk=tournament.pk)
        return render(request, EDIT, {"form": form}, status=400)
    return render(request, EDIT, {"form": form})


@tournament_admin_required
@require_http_methods(["GET", "POST"])
def edit(request, pk):
    tournament = _tournament(pk)
    if tournament.status != TournamentStatus.DRAFT:
        messages.error(request, _("The tournament has already started."))
        return redirect("tournaments:manage", pk=pk)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            return redirect("tournaments:manage", pk=pk)
        return render(request, EDIT, {"form": form, "tournament": tournament}, status=400)
    return render(request, EDIT, {"form": form, "tournament": tournament})


@tournament_admin_required
@require_GET
def manage(request, pk):
    """The admin's desk for the evening: entrants and seeding, then the queue and the tables."""
    tournament = _tournament(pk)
    context = {"tournament": tournament}
    if tournament.status == TournamentStatus.DRAFT:
        context["entrants"] = list(tournament.entrants.select_related("player"))
        context["entrant_form"] = EntrantForm(tournament=tournament)
        context["seedings"] = Seeding.choices
    else:
        view = selectors.tournament_view(tournament)
        free = list(selectors.free_tables_for_matches())
        queue = view.queue
        waiting = [i for i in queue if i.status == "ready"]
        context.update(
            view=view,
            free_tables=free,
            # Each free table is offered the next match of the queue (held ones skipped).
            offers=list(zip(free, waiting, strict=False)),
            queue=queue,
            finished=[i for i in view.items if i.status == "finished" and i.match is not None],
            entrants=sorted(view.entrants.values(), key=lambda e: e.seed),
        )
    return render(request, MANAGE, context)


def _refused(request, pk, error):
    messages.error(request, str(error.message))
    return redirect("tournaments:manage", pk=pk)


@tournament_admin_required
@require_POST
def add_entrant(request, pk):
    tournament = _tournament(pk)
    form = EntrantForm(request.POST, tournament=tournament)
    if not form.is_valid():
        messages.error(request, _("Choose a player or type a guest's name."))
        return redirect("tournaments:manage", pk=pk)
    try:
        services.add_entrant(
            tournament=tournament,
            player=form.cleaned_data["player"],
            guest_name=form.cleaned_data["guest_name"],
        )
    except services.TournamentError as error:
        return _refused(request, pk, error)
    return redirect("tournaments:manage", pk=pk)


@tournament_admin_required
@require_POST
def remove_entrant(request, pk, entrant_pk):
    entrant = get_object_or_404(Entrant, pk=entrant_pk, tournament_id=pk)
    try:
        services.remove_entrant(entrant=entrant)
    except services.TournamentError as error:
        return _refused(request, pk, error)
    return redirect("tournaments:manage", pk=pk)


@tournament_admin_required
@require_POST
def start(request, pk):
    """Seeds the entrants (by rating, by the order typed by hand, or by a draw) and starts."""
    tournament = _tournament(pk)
    method = request.POST.get("seeding", "")
    if method not in Seeding.values:
        messages.error(request, _("Choose how to seed."))
        return redirect("tournaments:manage", pk=pk)
    manual, draw_seed = None, None
    if method == Seeding.MANUAL:
        positions = {}
        for entrant in tournament.entrants.all():
            value = parse_id(request.POST.get(f"seed_{entrant.pk}", ""))
            if value is None:
                messages.error(request, _("Give every entrant a different seed."))
                return redirect("tournaments:manage", pk=pk)
            positions[entrant.pk] = value
        if len(set(positions.values())) != len(positions):
            messages.error(request, _("Give every entrant a different seed."))
            return redirect("tournaments:manage", pk=pk)
        manual = sorted(positions, key=positions.get)
    elif method == Seeding.DRAW and request.POST.get("draw_seed", "").strip():
        draw_seed = parse_id(request.POST["draw_seed"])
        if draw_seed is None or draw_seed > 2**31:
            messages.error(request, _("The draw number is a whole number."))
            return redirect("tournaments:manage", pk=pk)
    try:
        services.start_tournament(
            tournament=tournament, method=method, manual=manual, draw_seed=draw_seed
        )
    except services.TournamentError as error:
        return _refused(request, pk, error)
    messages.success(request, _("The bracket is drawn: call the first matches to the tables."))
    return redirect("tournaments:manage", pk=pk)


@tournament_admin_required
@require_POST
def call_match(request, pk):
    """Starts a ready match on a free table (the offer, or a table picked by hand)."""
    tournament = _tournament(pk)
    key, table_pk = request.POST.get("key", ""), request.POST.get("table", "")
    table_pk = parse_id(table_pk)
    table = Table.objects.filter(pk=table_pk).first() if table_pk is not None else None
    if table is None:
        messages.error(request, _("Choose a free table."))
        return redirect("tournaments:manage", pk=pk)
    try:
        match = services.start_tournament_match(
            tournament=tournament, key=key, table=table, marker=request.user
        )
    except services.MatchError as error:
        return _refused(request, pk, error)
    messages.success(
        request,
        _("Match %(number)s is on table %(table)s.")
        % {"number": tournament_match_number(tournament, match.bracket_key), "table": table},
    )
    return redirect("tournaments:manage", pk=pk)


def tournament_match_number(tournament, key):
    try:
        return selectors.bracket_of(tournament).match(key).number
    except KeyError:
        return key


@tournament_admin_required
@require_POST
def hold(request, pk):
    tournament = _tournament(pk)
    key = request.POST.get("key", "")
    try:
        services.set_hold(tournament=tournament, key=key, held=request.POST.get("held") == "1")
    except services.MatchError as error:
        return _refused(request, pk, error)
    return redirect("tournaments:manage", pk=pk)


@tournament_admin_required
@require_POST
def walkover(request, pk):
    tournament = _tournament(pk)
    try:
        services.record_walkover(
            tournament=tournament,
            key=request.POST.get("key", ""),
            winner=request.POST.get("winner", ""),
            user=request.user,
        )
    except services.MatchError as error:
        return _refused(request, pk, error)
    return redirect("tournaments:manage", pk=pk)


@tournament_admin_required
@require_POST
def undo_result(request, pk, match_pk):
    """Takes a result back: a walkover is withdrawn, a played match's last frame reopens."""
    match = get_object_or_404(Match, pk=match_pk, tournament_id=pk)
    try:
        if match.kind == "played":
            services.reopen_last_frame(match=match, user=request.user)
            messages.success(
                request, _("The last frame is open again: undo what was recorded wrongly.")
            )
        else:
            services.undo_walkover(match=match)
    except services.MatchError as error:
        return _refused(request, pk, error)
    return redirect("tournaments:manage", pk=pk)


@tournament_admin_required
@require_POST
def withdraw(request, pk, entrant_pk):
    entrant = get_object_or_404(Entrant, pk=entrant_pk, tournament_id=pk)
    try:
        services.withdraw(entrant=entrant)
    except services.MatchError as error:
        return _refused(request, pk, error)
    return redirect("tournaments:manage", pk=pk)


# --- public ---------------------------------------------------------------------------------


def _public_context(tournament):
    context = {"tournament": tournament}
    if tournament.status != TournamentStatus.DRAFT:
        view = selectors.tournament_view(tournament)
        context["view"] = view
        context["sections"] = _sections(view)
    else:
        context["entrants"] = list(tournament.entrants.select_related("player"))
    return context


def _sections(view):
    """The bracket's parts to draw, in order, each as (bracket, title, rounds)."""
    titles = {
        brackets.UPPER: _("Upper bracket")
        if view.bracket.format == brackets.DOUBLE
        else _("Bracket"),
        brackets.LOWER: _("Lower bracket"),
        brackets.FINAL: _("Final"),
        brackets.GROUP: _("Group matches by round"),
    }
    sections = []
    for name in (brackets.GROUP, brackets.UPPER, brackets.LOWER, brackets.FINAL):
        rounds = view.section(name)
        if rounds:
            tallest = max(len(items) for _round, items in rounds)
            sections.append(
                {"name": name, "title": titles[name], "rounds": rounds, "tallest": tallest}
            )
    return sections


@require_GET
def detail(request, pk):
    tournament = _tournament(pk)
    context = _public_context(tournament)
    context["can_manage"] = can_manage_tournaments(request.user)
    return render(request, DETAIL, context)


@require_GET
def board(request, pk):
    """The TV board (1920×1080): the bracket or the group table, live, refreshing itself."""
    tournament = _tournament(pk)
    context = _public_context(tournament)
    context["theme"] = "light" if request.GET.get("theme") == "light" else "dark"
    view = context.get("view")
    if view is not None:
        # The tallest column of the bracket sets the size of a match box on the screen.
        context["rows"] = sum(section["tallest"] for section in context["sections"]) or 1
        context["champion"] = view.entrants.get(view.state.champion)
    template = page_or_partial(request, BOARD, "board")
    return render(request, template, context)


CSV_HEADER = [
    "stage",
    "round",
    "bracket",
    "match_no",
    "player_a",
    "player_b",
    "score_a",
    "score_b",
    "winner",
    "table",
    "started_at",
    "finished_at",
    "walkover",
]


@require_GET
def matches_csv(request, pk):
    tournament = _tournament(pk)
    if tournament.status == TournamentStatus.DRAFT:
        raise Http404
    view = selectors.tournament_view(tournament)
    rows = []
    for item in view.items:
        match = item.match
        rows.append(
            [
                item.spec.stage,
                item.spec.round,
                item.spec.bracket,
                item.spec.number,
                item.name_a,  # csv_response marks formula-like text
                item.name_b,
                "" if item.score_a is None else item.score_a,
                "" if item.score_b is None else item.score_b,
                item.winner_name,
                match.table.number if match is not None and match.table_id else "",
                match.started_at.isoformat() if match is not None and match.table_id else "",
                match.finished_at.isoformat() if match is not None and match.finished_at else "",
                item.kind if item.kind in ("walkover", "withdrawal") else "",
            ]
        )
    return csv_response(f"tournament-{tournament.pk}-matches", CSV_HEADER, rows)
