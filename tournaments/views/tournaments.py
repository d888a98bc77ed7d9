"""Tournaments: the admin creates one, enters players, seeds and starts it, then calls the
ready matches to free tables; everyone reads its page, its TV board, its matches as CSV and,
once it is over, its protocol for a federation (A4 and CSV)."""

import functools

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from boards.fragments import page_options
from boards.polls import answer_poll, poll_fingerprint
from clubs.current import working_club
from games import selectors as game_selectors
from live.streams import stream_response
from tables.models import Table
from toolbox.csv_export import csv_response
from toolbox.parsing import parse_id
from toolbox.responses import render_page_or_partial, wants_partial
from toolbox.roles import (
    can_manage_tournaments,
    can_record_own_games,
    can_run_clocks,
    tournament_admin_required,
)
from tournaments import feeds, fragments, funds, selectors, services
from tournaments import protocol as protocol_norms
from tournaments.forms import EntrantForm, TournamentForm
from tournaments.models import (
    Entrant,
    EntryStatus,
    Match,
    Seeding,
    Tournament,
    TournamentStatus,
)

LIST = "tournaments/list.html"
EDIT = "tournaments/edit.html"
MANAGE = "tournaments/manage.html"
DETAIL = "tournaments/detail.html"
WITHOUT_PLAY = "tournaments/_without_play.html"


def _tournament(pk):
    return get_object_or_404(Tournament, pk=pk)


def _entrant(pk, entrant_pk):
    """The entrant ``entrant_pk`` of tournament ``pk`` (404 for another tournament's)."""
    return get_object_or_404(Entrant, pk=entrant_pk, tournament_id=pk)


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
    return _edit_page(request, None)


@tournament_admin_required
@require_http_methods(["GET", "POST"])
def edit(request, pk):
    tournament = _tournament(pk)
    if tournament.status != TournamentStatus.DRAFT:
        messages.error(request, _("The tournament has already started."))
        return redirect("tournaments:manage", pk=pk)
    return _edit_page(request, tournament)


def _edit_page(request, tournament):
    """The tournament's form: a post saves it, unless it only chose another game
    (``op=variant``: the form again with that game's settings)."""
    context = {"tournament": tournament}
    if request.method != "POST":
        return render(request, EDIT, context | {"form": TournamentForm(instance=tournament)})
    if request.POST.get("op") == "variant":
        form = TournamentForm(initial=request.POST.dict(), instance=tournament)
        return render(request, EDIT, context | {"form": form})
    form = TournamentForm(request.POST, instance=tournament)
    if not form.is_valid():
        return render(request, EDIT, context | {"form": form}, status=400)
    saved = form.save()
    if tournament is None:
        messages.success(request, _("The tournament was created: now enter the players."))
    return redirect("tournaments:manage", pk=saved.pk)


@tournament_admin_required
@require_GET
def manage(request, pk):
    """The admin's desk for the evening: entrants and seeding, then the queue and the tables.

    While the entries are open, ``?q=`` searches the roster as the admin types (HTMX asks
    for the results only): each player found is entered with one tap."""
    tournament = _tournament(pk)
    context = {"tournament": tournament}
    if tournament.status == TournamentStatus.DRAFT:
        entrants = list(tournament.entrants.select_related("player"))
        query = request.GET.get("q", "")
        entered = [entrant.player_id for entrant in entrants if entrant.player_id]
        context.update(
            entrants=entrants,
            check_in=services.check_in_window(tournament) is not None,
            entrant_form=EntrantForm(tournament=tournament),
            seedings=Seeding.choices,
            query=query,
            results=game_selectors.search_players(query, exclude_ids=entered),
        )
        if wants_partial(request, "entrant-results"):  # the roster search as the admin types
            return render_page_or_partial(request, MANAGE, "entrant_results", context)
        # Before a handicapped tournament: who has played above the rating lately.
        context["form_warnings"] = selectors.form_warnings(tournament, entrants)
    else:
        view = selectors.tournament_view(tournament)
        free = list(selectors.free_tables_for_matches())
        queue = view.queue
        selectors.mark_busy(view)
        selectors.mark_odds(view, services.handicap_terms)
        selectors.mark_clocks(view)
        context.update(
            view=view,
            free_tables=free,
            offers=selectors.offers(free, queue),
            no_offer=selectors.no_offer_reason(free, queue),
            queue=queue,
            # Every result, a match lost by a withdrawal (derived: no Match row) among them.
            finished=[i for i in view.items if i.status == "finished"],
            entrants=sorted(view.entrants.values(), key=lambda e: e.seed),
            no_shows=selectors.no_show_candidates(view, tournament.no_show_minutes),
            predicted_end=selectors.predicted_end(view, len(free)),
        )
    return render(request, MANAGE, context)


def desk_action(action):
    """An admin's post from the tournament's desk (the manage page): ``action(request, pk,
    …)`` calls the service; what it refuses (``MatchError``, translated) is shown as a
    message; either way the admin is back at the desk."""

    @tournament_admin_required
    @require_POST
    @functools.wraps(action)
    def view(request, pk, **kwargs):
        try:
            action(request, pk, **kwargs)
        except services.MatchError as error:
            messages.error(request, str(error.message))
        return redirect("tournaments:manage", pk=pk)

    return view


@desk_action
def add_entrant(request, pk):
    tournament = _tournament(pk)
    form = EntrantForm(request.POST, tournament=tournament)
    if not form.is_valid():
        raise services.TournamentError(_("Choose a player or type a guest's name."))
    services.add_entrant(
        tournament=tournament,
        player=form.cleaned_data["player"],
        guest_name=form.cleaned_data["guest_name"],
    )


@desk_action
def approve_entrant(request, pk, entrant_pk):
    services.approve_entrant(entrant=_entrant(pk, entrant_pk))


@desk_action
def desk_check_in(request, pk, entrant_pk):
    """The desk checks an entrant in (a guest, a player without his phone)."""
    services.check_in(entrant=_entrant(pk, entrant_pk), by_desk=True)


@desk_action
def remove_entrant(request, pk, entrant_pk):
    services.remove_entrant(entrant=_entrant(pk, entrant_pk))


@desk_action
def start(request, pk):
    """Seeds the entrants (by rating, by the order typed by hand, or by a draw) and starts."""
    tournament = _tournament(pk)
    method = request.POST.get("seeding", "")
    if method not in Seeding.values:
        raise services.TournamentError(_("Choose how to seed."))
    manual, draw_seed = None, None
    if method == Seeding.MANUAL:
        positions = {
            entrant.pk: parse_id(request.POST.get(f"seed_{entrant.pk}", ""))
            for entrant in tournament.entrants.all()
        }
        if None in positions.values() or len(set(positions.values())) != len(positions):
            raise services.TournamentError(_("Give every entrant a different seed."))
        manual = sorted(positions, key=positions.get)
    elif method == Seeding.DRAW and request.POST.get("draw_seed", "").strip():
        draw_seed = parse_id(request.POST["draw_seed"])
        if draw_seed is None or draw_seed > 2**31:
            raise services.TournamentError(_("The draw number is a whole number."))
    services.start_tournament(
        tournament=tournament, method=method, manual=manual, draw_seed=draw_seed
    )
    messages.success(request, _("The bracket is drawn: call the first matches to the tables."))


@desk_action
def call_match(request, pk):
    """Starts a ready match on a free table (the offer, or a table picked by hand)."""
    tournament = _tournament(pk)
    table_pk = parse_id(request.POST.get("table", ""))
    table = Table.objects.filter(pk=table_pk).first() if table_pk is not None else None
    if table is None:
        raise services.TournamentError(_("Choose a free table."))
    match = services.start_tournament_match(
        tournament=tournament, key=request.POST.get("key", ""), table=table, marker=request.user
    )
    messages.success(
        request,
        _("Match %(number)s is on table %(table)s.")
        % {"number": tournament_match_number(tournament, match.bracket_key), "table": table},
    )


def tournament_match_number(tournament, key):
    try:
        return selectors.bracket_of(tournament).match(key).number
    except KeyError:
        return key


@desk_action
def hold(request, pk):
    held = request.POST.get("held") == "1"
    services.set_hold(tournament=_tournament(pk), key=request.POST.get("key", ""), held=held)


@desk_action
def walkover(request, pk):
    """A walkover: ``winner`` goes through, the other did not come; the desk says which."""
    match = services.record_walkover(
        tournament=_tournament(pk),
        key=request.POST.get("key", ""),
        winner=request.POST.get("winner", ""),
        user=request.user,
    )
    messages.success(request, render_to_string(WITHOUT_PLAY, {"item": match}).strip())


@desk_action
def undo_result(request, pk, match_pk):
    """Takes a result back: a walkover is withdrawn, a played match's last frame reopens."""
    match = get_object_or_404(Match, pk=match_pk, tournament_id=pk)
    if match.kind != "played":
        services.undo_walkover(match=match)
        return
    services.reopen_last_frame(match=match, user=request.user)
    messages.success(request, _("The last frame is open again: undo what was recorded wrongly."))


@desk_action
def withdraw(request, pk, entrant_pk):
    entrant = _entrant(pk, entrant_pk)
    services.withdraw(entrant=entrant)
    messages.success(
        request,
        _("%(name)s: withdrawn from the tournament; the matches left are lost by withdrawal.")
        % {"name": entrant.name},
    )


# --- public ---------------------------------------------------------------------------------


@require_GET
def detail(request, pk):
    tournament = _tournament(pk)
    context = fragments.public_context(tournament)
    context["can_manage"] = can_manage_tournaments(request.user)
    context["entry"] = entry_context(tournament, request.user)
    context["can_see_fees"] = context["can_manage"] or can_run_clocks(request.user)
    if "view" in context:
        context["places"] = selectors.places_with_performance(context["view"])
    context["prizes"] = funds.public_prizes(tournament, context.get("view"))
    return render(request, DETAIL, context)


def entry_context(tournament, user):
    """What the tournament's page offers about signing up: whether players may, why not,
    the places left, the deadline, the check-in; the signed-in player's own entry, if any."""
    player = getattr(user, "player", None) if user.is_authenticated else None
    limit = tournament.registration_limit
    return {
        "open": tournament.registration_open,
        "refusal": services.sign_up_refusal(tournament),
        "left": max(limit - services.entry_count(tournament), 0) if limit else None,
        "mine": tournament.entrants.filter(player=player).first() if player else None,
        "can_sign_up": player is not None and can_record_own_games(user),
        "window": services.check_in_window(tournament),
        "starts_at": services.starts_at(tournament),
        "dropped": tournament.entrants.filter(status=EntryStatus.DROPPED),
    }


@require_safe
@never_cache
def board(request, pk):
    """The TV board (1920×1080): the bracket or the group table, live. Pushed over its stream
    (``board_stream``); while that is down, or with ``?poll=1``, it polls itself like the
    table boards (``boards.polls``): an unchanged tournament gets an empty 204; a changed one
    is rendered once per fingerprint and language for every TV that asks."""
    shown = poll_fingerprint(request)
    if shown is not None:
        fp = selectors.board_fingerprint(pk)
        if fp is None:
            raise Http404
        render_board = functools.partial(fragments.render_board, pk, fp)
        return answer_poll(shown, fp, feeds.cache_key(pk), get_language(), render_board)
    tournament = _tournament(pk)
    context = fragments.board_context(tournament, selectors.board_fingerprint(pk))
    return render(request, fragments.BOARD, context | page_options(request))


@require_safe
def board_stream(request, pk):
    """Server-Sent Events of the TV board: its fragment whenever the tournament changes."""
    _tournament(pk)
    return stream_response(request, feeds.tournament_feed(pk))


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


def club_time(moment):
    """A protocol's time: in the club's time zone, ISO 8601 with its offset, to the second
    («2026-12-04T01:05:00+03:00»); empty when there is none."""
    if moment is None:
        return ""
    return timezone.localtime(moment).isoformat(timespec="seconds")


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
                item.table_number or "",
                club_time(match.started_at) if match is not None and match.table_id else "",
                club_time(match.finished_at) if match is not None else "",
                item.kind if item.kind in ("walkover", "withdrawal") else "",
            ]
        )
    return csv_response(f"tournament-{tournament.pk}-matches", CSV_HEADER, rows)


# --- the protocol for a federation -------------------------------------------------------------

PROTOCOL = "tournaments/protocol.html"


def _protocol(pk):
    """A finished tournament, its protocol's lines and whether any carries a norm (404 for
    one not finished: its places are not final)."""
    tournament = _tournament(pk)
    if tournament.status != TournamentStatus.FINISHED:
        raise Http404
    view = selectors.tournament_view(tournament)
    rows = selectors.protocol_rows(view)
    return tournament, view, rows, bool(protocol_norms.norms_for(tournament))


@require_GET
def protocol(request, pk):
    """A finished tournament's protocol, to print on A4 (``static/css/protocol.css``): its
    places, classes, records and the class norms met. ``?format=csv``: the same as CSV."""
    if request.GET.get("format") == "csv":
        return protocol_csv(request, pk)
    tournament, view, rows, norms = _protocol(pk)
    context = {
        "tournament": tournament,
        "view": view,
        "rows": rows,
        "norms": norms,
        "desk_user": selectors.protocol_desk_user(tournament),
        "club": working_club(),
        "races": protocol_races(tournament, view),
    }
    return render(request, PROTOCOL, context)


def protocol_races(tournament, view):
    """The races the tournament was played to, in words: «до 3; финал до 4»."""
    labels = {
        "group": _("group stage"),
        "upper": _("upper bracket"),
        "lower": _("lower bracket"),
        "final": _("final"),
    }
    used = []
    for spec in view.bracket.matches:
        if spec.bracket not in used:
            used.append(spec.bracket)
    races = {tournament.race_for(bracket) for bracket in used}
    if len(races) == 1:
        return _("race to %(race)s") % {"race": races.pop()}
    return "; ".join(
        _("%(part)s: race to %(race)s") % {"part": labels[b], "race": tournament.race_for(b)}
        for b in used
    )


@require_GET
def protocol_csv(request, pk):
    tournament, _view, rows, norms = _protocol(pk)
    header = [
        _("Place"),
        _("Entrant"),
        _("Class"),
        _("Club"),
        _("Matches won"),
        _("Matches lost"),
        _("Frames for"),
        _("Frames against"),
    ]
    if norms:
        header.append(_("Class norm met"))
    lines = []
    for row in rows:
        line = [
            row.place,  # «5–8», with an en dash: no spreadsheet takes it for a date
            row.name,  # csv_response marks formula-like text
            str(row.skill_class_label),
            row.clubs,
            row.won,
            row.lost,
            row.frames_for,
            row.frames_against,
        ]
        if norms:
            line.append(str(row.norm_label))
        lines.append(line)
    return csv_response(f"tournament-{tournament.pk}-protocol", header, lines)
