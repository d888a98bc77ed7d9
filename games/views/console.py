"""The marker's console: start a game on a table, record every stroke, undo, finish, rematch.

One template per page, with named partials that HTMX swaps: ``console.html#console`` (the
whole console, the target of every tap), ``start.html#start_form`` and
``_seats.html#player_results`` (the seats, shared with a match's form). Every post carries
the sequence number the marker saw; a stale, repeated or illegal post answers 409 with the
fresh console and a translated reason (the console page tells htmx to swap 409 answers), a
recorded one 200 with the new console.
"""

import json
import re
from functools import cache, wraps
from pathlib import Path

from csp.decorators import csp_update
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.backends.utils import csrf_input
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import offline_bundle, rules, selectors, services
from games.console import (
    console_context,
    device_of,
    offline_config,
    offline_engine_url,
    offline_state,
    shown_version,
)
from games.forms import StartGameForm, seated_player_ids
from games.i18n import render_message
from games.models import Game, GameStatus
from live import topics
from live.streams import Feed, stream_response
from tables.models import Table
from toolbox.parsing import parse_id, parse_int
from toolbox.responses import bad_request, render_page_or_partial
from toolbox.responses import redirect as htmx_redirect
from toolbox.roles import can_record_games, can_record_own_games, marker_required

CONSOLE = "games/console/console.html"
START = "games/console/start.html"
SEATS = "games/console/_seats.html"
RESULT = "games/console/result.html"
SERVICE_WORKER = "games/console/service-worker.js"
JAVASCRIPT = "text/javascript; charset=utf-8"
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as Django's GZipMiddleware reads the header
CONFLICT = 409


# --- starting a game ---------------------------------------------------------------------


@marker_required
@require_http_methods(["GET", "POST"])
def start(request):
    """Start a game on any free table (the table picker); games in progress are linked."""
    return _start_page(request, table=None)


@marker_required
@require_http_methods(["GET", "POST"])
def table(request, number):
    """A table's marker page: its game's console when one is in progress, else the start form."""
    table = get_object_or_404(Table, number=number)
    game = selectors.current_game(table)
    if game is not None:
        return htmx_redirect(request, reverse("games:console", args=[game.pk]))
    return _start_page(request, table=table)


def _start_page(request, table):
    """The start form: shown on GET; a post either edits it (``op``) or starts the game."""
    if request.method != "POST":
        return _start_form(request, StartGameForm(table=table), table)
    op = request.POST.get("op", "start")
    if op == "start":
        return _start_game(request, table)
    return _edit_start_form(request, op, table)


def _start_game(request, table):
    """Starts the game and opens its console; or the form again with the errors inline."""
    form = StartGameForm(request.POST, table=table)
    if form.is_valid():
        try:
            game = services.start_game(**form.start_arguments(), marker=request.user)
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            return htmx_redirect(request, reverse("games:console", args=[game.pk]))
    return _start_form(request, form, table, edited=True)


def _edit_start_form(request, op, table):
    """An editing button (seats, game, search): the form again, no error shown yet."""
    form = StartGameForm.edited(request.POST, op, table=table)
    # "enter": the Enter key in a text box adds the guest typed, else searches.
    searching = op == "search" or (op == "enter" and not request.POST.get("guest", "").strip())
    if not searching:
        return _start_form(request, form, table, edited=True)
    query = request.POST.get("q", "")
    results = selectors.search_players(query, exclude_ids=form.seated_player_ids())
    return _start_form(request, form, table, edited=True, results=results, query=query)


def _start_form(request, form, table, *, edited=False, results=(), query=""):
    """The start page, or only its form for an HTMX post that ``edited`` it."""
    context = {
        "form": form,
        "table": table,
        "results": results,
        "query": query,
        "games_in_progress": selectors.games_in_progress() if table is None else [],
        "out_of_service": table is not None and (not table.is_active or table.out_of_service),
    }
    return render_page_or_partial(request, START, "start_form", context, when=edited)


@marker_required
@require_GET
def player_search(request):
    """Roster players matching ``q`` (as the marker types), minus the seated ones."""
    seated = seated_player_ids(request.GET.getlist("seats"))
    players = selectors.search_players(request.GET.get("q"), exclude_ids=seated)
    context = {"results": players, "query": request.GET.get("q", "")}
    return render(request, f"{SEATS}#player_results", context)


# --- the console ---------------------------------------------------------------------------


def console_access(view):
    """A marker's, or a player's who records his own game without a marker: the Players
    role (``toolbox.roles``) and a seat of his in this very game, scored by its players —
    only that game, only at its table. Anyone else: the login page or 403, as for markers."""

    for_markers = marker_required(view)

    @wraps(view)
    def wrapped(request, pk, *args, **kwargs):
        user = request.user
        if (
            user.is_authenticated
            and not can_record_games(user)  # a marker's check costs no query more
            and can_record_own_games(user)
            and selectors.records_own_game(user, pk)
        ):
            return view(request, pk, *args, **kwargs)
        return for_markers(request, pk, *args, **kwargs)

    return wrapped


@console_access
@require_GET
@gzip_page  # the page carries the offline engine's texts: 130 kB, 20 compressed
def console(request, pk):
    """The console of a game; ``?confirm=undo|abandon`` asks before that action.

    An open console asks every ``CONSOLE_POLL_SECONDS`` with ``?shown=`` what it shows: an
    empty 204 while the game is unchanged, the fresh console once another device (a second
    marker, a tablet left on) has moved the game on.
    """
    game = _game(pk)
    if request.htmx and request.GET.get("shown") == shown_version(game):
        return HttpResponse(status=204)
    confirm = request.GET.get("confirm")
    return _render_console(
        request, game, confirm=confirm if confirm in ("undo", "abandon") else None
    )


@console_access
@require_GET
def console_stream(request, pk):
    """Server-Sent Events of a console left open on a second device: an event (its id what
    the console should show) each time the game moves on; the console then fetches itself
    (its forms carry this user's CSRF token, so the console is not rendered for everyone)."""
    game = _game(pk)

    def snapshot():
        version = shown_version(Game.objects.only("last_seq", "status").get(pk=game.pk))
        return version, version

    feed = Feed(key=f"g{game.pk}", topic=topics.game(game.pk), event="console", snapshot=snapshot)
    return stream_response(request, feed)


@console_access
@require_POST
def record(request, pk):
    """One tap of the marker: records the event the button stands for."""
    try:
        event = rules.Event.from_payload(
            request.POST.get("kind", ""),
            {
                "fouls": request.POST.getlist("fouls"),
                "ball": _posted_number(request.POST.get("ball")),
                "pocket": request.POST.get("pocket"),
                "count": _posted_number(request.POST.get("count")),
                "balls": [_posted_number(ball) for ball in request.POST.getlist("balls")],
                "returned": [_posted_number(b) for b in request.POST.getlist("returned")],
            },
        )
    except rules.RuleViolation as violation:
        return _render_console(request, _game(pk), error=violation.message)
    return _write(
        request,
        pk,
        services.record_event,
        event=event,
        device=device_of(request),
        tapped=True,
        rendered_meanwhile=True,
    )


@console_access
@require_POST
def undo(request, pk):
    return _write(request, pk, services.undo_last, device=device_of(request), tapped=True)


def _tapped_at(request):
    """When a stroke sent later was tapped (``tapped_at``: the phone's milliseconds since
    the epoch, posted by the outbox with a queued stroke): a moment, None when not posted
    (a tap posted at once), False when it is not such a number (not what a console sends)."""
    text = request.POST.get("tapped_at")
    if text in (None, ""):
        return None
    epoch_ms = parse_int(text, max_digits=15, signed=False) if text == text.strip() else None
    if epoch_ms is None:
        return False
    return services.tapped_moment(epoch_ms)


@console_access
@require_POST
def dispute(request, pk):
    """«Спорный момент»: the last stroke is being checked until confirmed or undone (online
    only: the outbox never queues it, the offline console has no such button)."""
    return _write(request, pk, services.dispute_last, device=device_of(request))


@console_access
@require_POST
def confirm_stroke(request, pk):
    """The disputed stroke stands."""
    return _write(request, pk, services.confirm_disputed, device=device_of(request))


@console_access
@require_POST
def abandon(request, pk):
    def abandoned(game):
        messages.success(request, _("The game was abandoned; the table is free."))
        if not can_record_games(request.user):  # a player's own game
            return htmx_redirect(request, reverse("games:board", args=[game.table.number]))
        return htmx_redirect(request, reverse("games:table", args=[game.table.number]))

    return _write(request, pk, services.abandon_game, done=abandoned)


@console_access
@require_POST
def finish(request, pk):
    def finished(game):
        if game.needs_confirmation and not can_record_games(request.user):
            # Scored by its players: its page says it awaits the opponent's confirmation.
            return htmx_redirect(request, reverse("games:detail", args=[game.pk]))
        return htmx_redirect(request, reverse("games:result", args=[game.pk]))

    return _write(request, pk, services.finish_game, done=finished)


def _posted_number(text):
    """A posted ball or count: None when absent, an int for up to four plain digits ("3", by
    the site's parser ``parse_int``), else the text itself so that the engine refuses it as
    malformed ("2.5", "x", "³", "+3", " 3" are never parsed)."""
    if text in (None, ""):
        return None
    # parse_int forgives spaces around the digits; a posted detail must not have any.
    number = parse_int(text, max_digits=4, signed=False) if text == text.strip() else None
    return text if number is None else number


def _write(request, pk, service, done=None, tapped=False, rendered_meanwhile=False, **kwargs):
    """Calls ``service`` with the posted ``seq`` and always answers: ``done(game)`` when the
    write went through (default: the fresh console), the console with the reason (409) when
    it was refused.

    The service reads and locks the game row itself, so the game is not read before.
    ``rendered_meanwhile``: the service takes ``meanwhile`` (``services.record_event``):
    the fresh console is rendered while the database writes the event.
    """
    seq = parse_id(request.POST.get("seq", ""))
    if seq is None:  # not what a console sends
        return bad_request(request)
    if tapped:  # a stroke or an undo: sent later, it says when it was tapped
        kwargs["tapped_at"] = _tapped_at(request)
        if kwargs["tapped_at"] is False:
            return bad_request(request)
    rendered = []
    if rendered_meanwhile and done is None and request.htmx:
        kwargs["meanwhile"] = lambda game: rendered.append(_render_console(request, game))
    try:
        game = service(game=Game(pk=pk), expected_seq=seq, user=request.user, **kwargs)
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as error:
        # Another marker may have moved the game on: it is shown as it is now.
        return _render_console(request, _game(pk), error=str(error.message))
    except rules.RuleViolation as violation:
        return _render_console(request, _game(pk), error=violation.message)
    if done is not None:
        return done(game)
    if not request.htmx:
        return redirect("games:console", pk=game.pk)
    return rendered[0] if rendered else _render_console(request, game)


def _game(pk):
    return get_object_or_404(Game.objects.select_related("table"), pk=pk)


def _render_console(request, game, *, error=None, confirm=None):
    csrf_field = csrf_input(request)  # one token for all its forms, masked once
    device = device_of(request)
    context = console_context(game, confirm=confirm, device=device, csrf_field=csrf_field)
    if not request.htmx:  # the whole page: its outbox's settings and stored events, read once
        context["offline"] = offline_config(game) | {"base": offline_state(game, request.user)}
    if isinstance(error, rules.Message):  # the rules' reason, naming the players
        error = render_message(error, context["seat_names"])
    context["error"] = error
    status = CONFLICT if error else 200
    return render_page_or_partial(request, CONSOLE, "console", context, status=status)


# --- the console without the network (static/js/outbox.js) -----------------------------


@console_access
@require_GET
def offline_state_view(request, pk):
    """The game's facts and stored events, from which the console's outbox computes what it
    shows while the network is down (``games.rules.offline``), and with which it checks a
    queued stroke that may have landed already."""
    response = JsonResponse(offline_state(_game(pk), request.user))
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def offline_engine(request):
    """Brython, the rules engine's source (``games/rules/``) and the standard modules it
    needs, as the one script the engine's worker loads (``games.offline_bundle``): the same
    code as the server's (public, as the rules page is). Its URL names the bundle's
    fingerprint, so a browser keeps it until the engine changes. Gzip'ed when asked (once
    per process: 2.4 MB, 0.5 MB so)."""
    if _ACCEPTS_GZIP.search(request.headers.get("accept-encoding", "")):
        response = HttpResponse(offline_bundle.bundle_gzip(), content_type=JAVASCRIPT)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(offline_bundle.bundle(), content_type=JAVASCRIPT)
    patch_vary_headers(response, ("Accept-Encoding",))
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_GET
@gzip_page
@csp_update({"script-src": ["'unsafe-eval'"]})  # Brython runs the Python it compiles to JS
def engine_worker(request):
    """``static/js/engine-worker.js`` served under ``/marker/``: a worker is controlled by the
    service worker whose scope holds its own address, so the console's (``/marker/``) serves
    it, and Brython and the engine, from its cache. Its policy (CSP) is its own: the site's,
    plus running the JavaScript Brython compiles the engine to (the page's stays strict)."""
    response = HttpResponse(_engine_worker_script(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _engine_worker_script():
    return (Path(settings.BASE_DIR) / "static" / "js" / "engine-worker.js").read_bytes()


@require_GET
def service_worker(request):
    """The consoles' service worker (scope ``/marker/``): a console reloaded without the
    network opens from its copy, and the engine and Brython are kept for it."""
    context = {"precache": json.dumps(_precached()), "version": offline_bundle.fingerprint()[:16]}
    response = render(request, SERVICE_WORKER, context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def _precached():
    scripts = [
        static(f"js/{name}")
        for name in (
            "htmx.min.js",
            "htmx-ext-sse.js",
            "console.js",
            "screen-status.js",
            "outbox.js",
            "wakelock.js",
            "stroke-preview.js",
            "site.js",
        )
    ]
    styles = [static(f"css/{name}") for name in ("site.css", "console.css")]
    worker = reverse("games:engine_worker")
    return [*scripts, *styles, offline_engine_url(), worker]


# --- after the game ----------------------------------------------------------------------


@marker_required
@require_GET
def result(request, pk):
    """The result of a closed game, with a rematch on the same table."""
    game = _game(pk)
    if game.status == GameStatus.IN_PROGRESS:
        return redirect("games:console", pk=game.pk)
    return render(request, RESULT, _result_context(game))


def _result_context(game, error=None):
    return {
        "game": game,
        "seats": selectors.seats_of(game),
        "table_busy": selectors.current_game(game.table) is not None,
        "error": error,
    }


@marker_required
@require_POST
def rematch(request, pk):
    game = _game(pk)
    try:
        new_game = services.rematch(game=game, marker=request.user)
    except ValidationError as error:
        text = " ".join(error.messages)
        return render(request, RESULT, _result_context(game, error=text), status=CONFLICT)
    return htmx_redirect(request, reverse("games:console", args=[new_game.pk]))
