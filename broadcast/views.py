"""The overlays (OBS "Browser source"), their help page, and the embeds other sites frame.

Overlay and embed pages — and only they — may be framed by any site: their views replace
the Content-Security-Policy's ``frame-ancestors`` (``EMBED_FRAME_ANCESTORS``, default any
site) and drop ``X-Frame-Options``; every other page keeps ``frame-ancestors 'none'``. Like
the boards, an overlay or a table's embed holds a pushed stream and polls (an empty 204
while unchanged) only while the stream is down; nobody signs in to see them.

Options come from the address and a bad one is no error (the default is shown instead):
``position`` (``bottom-left``… see ``POSITIONS``), ``size`` (``s``, ``m``, ``l``), ``theme``
(``dark``, ``light``); a tournament's overlay also takes ``table`` (follow that table's
match instead of the match started last).
"""

import functools

from django.conf import settings
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from boards.polls import answer_poll, poll_fingerprint, table_fingerprint
from broadcast import feeds, fragments
from games.models import default_variant, variant_choices
from leagues import selectors as league_selectors
from leagues.models import League
from live.streams import stream_response
from records import stats
from season import selectors as season_selectors
from tables.models import Table
from toolbox.parsing import parse_id, parse_int
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament, TournamentStatus

POSITIONS = ("bottom-left", "bottom", "bottom-right", "top-left", "top", "top-right")
SIZES = ("m", "s", "l")
THEMES = ("dark", "light")
MAX_TABLE = 32767  # Table.number is a small integer: a larger one names no table
DEFAULT_MIN_GAMES = 3
LEADERBOARD_ROWS = 10


def frameable(view):
    """A page other sites may frame: ``frame-ancestors`` from the settings (django-csp's
    per-response replacement, as its ``csp_replace`` sets it), no ``X-Frame-Options``; only
    GET and HEAD, never cached."""

    @functools.wraps(view)
    def framed(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response._csp_replace = {"frame-ancestors": settings.EMBED_FRAME_ANCESTORS}
        return response

    return require_safe(never_cache(xframe_options_exempt(framed)))


def _choice(request, name, choices):
    value = request.GET.get(name)
    return value if value in choices else choices[0]


def options(request):
    """The page's looks from its address; a wrong value gives the default."""
    return {
        "position": _choice(request, "position", POSITIONS),
        "size": _choice(request, "size", SIZES),
        "theme": _choice(request, "theme", THEMES),
        "stream": request.GET.get("poll") != "1",
    }


def _table_number(number):
    if not 0 < number <= MAX_TABLE or table_fingerprint(number) is None:
        raise Http404("no such table")
    return number


def _pinned(request):
    """``?table=N`` of a tournament's overlay: follow the match at that table (None: the
    match started last); a value that is no table number is left out."""
    number = parse_id(request.GET.get("table", ""))
    return number if number and number <= MAX_TABLE else None


# --- overlays ---------------------------------------------------------------------------------


@frameable
def table_overlay(request, number):
    """A table's lower third on a transparent page; a poll gets 204 while unchanged."""
    number = _table_number(number)
    shown = poll_fingerprint(request)
    fp = table_fingerprint(number)
    if shown is not None:
        return answer_poll(
            shown,
            fp,
            fragments.table_key(number),
            get_language(),
            lambda: fragments.render_table_overlay(number),
        )
    context = fragments.table_overlay_context(number) | options(request)
    context["stream_url"] = reverse("broadcast:table_overlay_stream", args=[number])
    return render(request, fragments.OVERLAY, context)


@frameable
def tournament_overlay(request, pk):
    """The lower third of a tournament's featured match (or of the match at ``?table=``)."""
    pinned = _pinned(request)
    fp = fragments.tournament_fingerprint(pk, pinned)
    if fp is None:
        raise Http404("no such tournament")
    shown = poll_fingerprint(request)
    if shown is not None:
        return answer_poll(
            shown,
            fp,
            fragments.tournament_key(pk, pinned),
            get_language(),
            lambda: fragments.render_tournament_overlay(pk, pinned, fp),
        )
    context = fragments.tournament_overlay_context(pk, pinned, fp) | options(request)
    if pinned:
        kwargs = {"pk": pk, "number": pinned}
    else:
        kwargs = {"pk": pk}
        context["follow"] = fragments.followed_table(pk) or 0
    context["stream_url"] = reverse("broadcast:tournament_overlay_stream", kwargs=kwargs)
    return render(request, fragments.OVERLAY, context)


@require_safe
def table_overlay_stream(request, number):
    return stream_response(request, feeds.table_overlay_feed(_table_number(number)))


@require_safe
def tournament_overlay_stream(request, pk, number=None):
    if tournament_selectors.board_fingerprint(pk) is None:
        raise Http404("no such tournament")
    return stream_response(request, feeds.tournament_overlay_feed(pk, number))


@require_safe
def overlay_help(request):
    """How to put an overlay in OBS, with its options previewed over a sample video frame,
    the embeds' snippets, and the TV boards for the hall (the wall, the series', the
    leagues' standings)."""
    tables = list(Table.objects.filter(is_active=True).order_by("number"))
    tournaments = list(
        Tournament.objects.exclude(status=TournamentStatus.DRAFT).order_by("-date", "-pk")[:20]
    )
    chosen = options(request)
    table = parse_id(request.GET.get("table", ""))
    tournament = parse_id(request.GET.get("tournament", ""))
    if tournament and any(t.pk == tournament for t in tournaments):
        overlay_url = reverse("broadcast:tournament_overlay", args=[tournament])
    else:
        tournament = None
        numbers = [t.number for t in tables]
        table = table if table in numbers else (numbers[0] if numbers else None)
        overlay_url = reverse("broadcast:table_overlay", args=[table]) if table else ""
    query = f"?position={chosen['position']}&size={chosen['size']}&theme={chosen['theme']}"
    context = {
        "tables": tables,
        "tournaments": tournaments,
        "chosen": chosen,
        "positions": POSITIONS,
        "sizes": SIZES,
        "themes": THEMES,
        "table": table,
        "tournament": tournament,
        "overlay_url": overlay_url + query if overlay_url else "",
        "table_embed_url": reverse("broadcast:table_embed", args=[table]) if table else "",
        "series_boards": list(season_selectors.visible_series()),
        "league_boards": list(league_selectors.leagues()),
    }
    return render(request, "broadcast/overlay_help.html", context)


# --- embeds -----------------------------------------------------------------------------------


@frameable
def table_embed(request, number):
    """A table's live score in a box, for another site's page: the overlay's region."""
    number = _table_number(number)
    context = fragments.table_overlay_context(number) | options(request)
    context["stream_url"] = reverse("broadcast:table_overlay_stream", args=[number])
    context["embed"] = True
    return render(request, fragments.OVERLAY, context)


@frameable
def bracket_embed(request, pk):
    """A tournament's bracket (or group table), pushed as results come in."""
    fp = tournament_selectors.board_fingerprint(pk)
    if fp is None:
        raise Http404("no such tournament")
    shown = poll_fingerprint(request)
    if shown is not None:
        return answer_poll(
            shown,
            fp,
            fragments.bracket_key(pk),
            get_language(),
            lambda: fragments.render_bracket(pk, fp),
        )
    tournament = get_object_or_404(Tournament, pk=pk)
    context = fragments.bracket_context(tournament, fp) | options(request)
    context["stream_url"] = reverse("broadcast:bracket_stream", args=[pk])
    return render(request, fragments.BRACKET, context)


@require_safe
def bracket_stream(request, pk):
    if tournament_selectors.board_fingerprint(pk) is None:
        raise Http404("no such tournament")
    return stream_response(request, feeds.bracket_feed(pk))


@frameable
def leaderboard_embed(request):
    """The first players of a game's leaderboard: ``?variant=``, ``period=``,
    ``min_games=`` as on the leaderboards page (a wrong value gives the default)."""
    variants = dict(variant_choices())
    variant = request.GET.get("variant")
    variant = variant if variant in variants else default_variant()
    period = _choice(request, "period", ("all", "year", "month"))
    min_games = parse_int(request.GET.get("min_games", ""), max_digits=5, signed=False)
    min_games = min_games if min_games else DEFAULT_MIN_GAMES
    rows = fragments.leaderboard_rows(variant, period, min_games)[:LEADERBOARD_ROWS]
    context = options(request) | {
        "rows": rows,
        "variant_name": variants[variant],
        "period_label": stats.PERIODS[period],
        "query": {"variant": variant, "period": period, "min_games": min_games},
    }
    return render(request, "broadcast/embed_leaderboard.html", context)


@frameable
def series_embed(request, pk):
    """A series' standings (``season``) for another site's page; it reloads every minute."""
    series = season_selectors.series_at_club(pk)
    if series is None:
        raise Http404("no such series")
    context = options(request) | {
        "series": series,
        "table": season_selectors.table_of(series),
    }
    return render(request, "broadcast/embed_series.html", context)


@frameable
def league_embed(request, pk):
    """A team league's standings, division by division (its current season)."""
    league = get_object_or_404(League, pk=pk)
    season = league_selectors.current_season(league)
    context = options(request) | {
        "league": league,
        "tables": league_selectors.divisions_with_tables(season),
    }
    return render(request, "broadcast/embed_league.html", context)
