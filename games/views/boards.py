"""Spectator boards: the TV board of one table and the club wall. Nobody signs in to watch.

Both pages poll themselves with htmx every second (``hx-trigger="every 1s"``) and send the
fingerprint (``fp``) of what they show. The server recomputes the fingerprint with one small
query on Game (two for the wall) and answers an unchanged board with an empty 204: no replay,
no template rendering, no session or user lookup (htmx does not swap on 204). A changed board
is re-rendered once per fingerprint and language and kept in the cache for a little while, so a
hall full of TVs that all notice the same stroke within a second costs one render, not one per
TV. ``games.middleware.BoardPollMiddleware`` makes the table board's checks before most of the
middleware runs; the view makes them again when it is absent.

What a board shows of a table: its game in progress; else its game finished in the last
``RESULT_SHOWN_FOR`` (with the winner banner); else "the table is free".
"""

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta
from functools import lru_cache

import segno
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games import rules, selectors
from games.i18n import render_message
from games.models import Game, GameStatus
from tables.models import Table

RESULT_SHOWN_FOR = timedelta(minutes=15)  # how long a finished game stays on its board
TICKER_LENGTH = 5  # newest events shown at the bottom of the table board
RENDER_CACHE_SECONDS = 30  # a changed board is rendered once per fingerprint, then reused
THEMES = ("dark", "light")  # ?theme=…; the first is the default (a TV in a dim hall)
FREE = "free"  # the fingerprint of a table with nothing to show


# --- the cheap check ------------------------------------------------------------------------


def _fingerprint(pk, last_seq, status, recent):
    """``"<game>.<last_seq>.<p|f>"`` for a game a board shows, else None. ``recent``: the
    game finished less than RESULT_SHOWN_FOR ago."""
    if status == GameStatus.IN_PROGRESS:
        return f"{pk}.{last_seq}.p"
    if status == GameStatus.FINISHED and recent:
        return f"{pk}.{last_seq}.f"
    return None


def _game_fingerprint(pk, last_seq, status, finished_at, now):
    recent = finished_at is not None and finished_at >= now - RESULT_SHOWN_FOR
    return _fingerprint(pk, last_seq, status, recent)


# The table's newest game, as plain SQL: building the same query with the ORM costs about
# 1.3 ms of CPU per poll (measured; the query itself about 0.1 ms), and this runs once a
# second for every TV in the hall.
TABLE_FINGERPRINT_SQL = (
    "SELECT g.id, g.last_seq, g.status, g.finished_at >= %s"
    f" FROM {Game._meta.db_table} g INNER JOIN {Table._meta.db_table} t ON t.id = g.table_id"
    " WHERE t.number = %s ORDER BY g.id DESC LIMIT 1"
)


def table_fingerprint(number):
    """The fingerprint of table ``number``'s board, from one small query on Game."""
    cutoff = connection.ops.adapt_datetimefield_value(timezone.now() - RESULT_SHOWN_FOR)
    with connection.cursor() as cursor:
        cursor.execute(TABLE_FINGERPRINT_SQL, [cutoff, number])
        row = cursor.fetchone()
    return (row and _fingerprint(*row)) or FREE


def _wall_rows():
    """The wall's tables and the games it shows: two small queries, no replay."""
    tables = list(
        Table.objects.filter(is_active=True)
        .order_by("number")
        .values_list("pk", "number", "name", "out_of_service")
    )
    now = timezone.now()
    shown = {}  # table pk -> fingerprint of its game (newest first wins)
    games = (
        Game.objects.filter(table__is_active=True)
        .filter(
            Q(status=GameStatus.IN_PROGRESS)
            | Q(status=GameStatus.FINISHED, finished_at__gte=now - RESULT_SHOWN_FOR)
        )
        .order_by("-pk")
        .values_list("table_id", "pk", "last_seq", "status", "finished_at")
    )
    for table_id, *row in games:
        shown.setdefault(table_id, _game_fingerprint(*row, now))
    return tables, shown


def wall_fingerprint():
    tables, shown = _wall_rows()
    text = repr([(t, shown.get(t[0])) for t in tables])
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _poll_fingerprint(request):
    """The fingerprint an htmx poll says its board shows, or None for an ordinary request."""
    return request.GET.get("fp") if request.htmx else None


def unchanged():
    """The answer to a poll of an unchanged board: empty, never cached."""
    response = HttpResponse(status=204)
    add_never_cache_headers(response)
    return response


def fragment(html, fp):
    """A changed board's fragment; the client keeps ``fp`` for its next poll."""
    response = HttpResponse(html)
    response["Content-Length"] = len(response.content)  # the fast path skips CommonMiddleware
    response["X-Board-Fingerprint"] = fp
    add_never_cache_headers(response)
    return response


def _cache_key(key, language):
    return f"boards:{key}:{language}"


def cached_table_board(number, fp, language):
    """The rendered board of table ``number`` at ``fp`` if a poll has rendered it, else None."""
    return cache.get(_cache_key(f"t{number}:{fp}", language))


def _cached_render(key, build):
    """``build()`` -> html, kept per key and language (the boards' texts are translated)."""
    key = _cache_key(key, translation.get_language())
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, RENDER_CACHE_SECONDS)
    return html


# --- what a board shows ---------------------------------------------------------------------


@dataclass
class SeatView:
    index: int
    name: str
    score: int
    turn: bool = False
    winner: bool = False
    figures: list = field(default_factory=list)  # (label, value) pairs under the score
    role: str = ""  # cue_vs_hand: "cue" or "hand"


@dataclass
class PocketView:
    key: str
    label: str
    balls: str  # "1 · 7 · 13": the balls still on the table that belong in this pocket
    x: float
    y: float
    text_x: float
    text_y: float
    anchor: str
    designated: bool = False  # the ball on's pocket


@dataclass
class GameBoard:
    game: Game
    variant_key: str
    variant_name: str
    state: object
    seats: list
    ticker: list
    finished: bool
    banner: str = ""
    decided: bool = False  # the result is known while the game is still being played
    target: int | None = None
    panel: dict = field(default_factory=dict)


# Where each pocket sits on the SVG table (viewBox 0 0 320 272, home at the bottom) and where
# its label goes: (pocket x, pocket y, label x, label y, text-anchor).
POCKET_GEOMETRY = {
    rules.Pocket.FAR_LEFT: (110, 35, 96, 31, "end"),
    rules.Pocket.FAR_RIGHT: (210, 35, 224, 31, "start"),
    rules.Pocket.RIGHT_MIDDLE: (210, 135, 226, 140, "start"),
    rules.Pocket.NEAR_RIGHT: (210, 235, 224, 247, "start"),
    rules.Pocket.NEAR_LEFT: (110, 235, 96, 247, "end"),
    rules.Pocket.LEFT_MIDDLE: (110, 135, 94, 140, "end"),
}


def clockwise_pockets(state):
    """The six pockets with the balls still to go into each, and the ball on's pocket."""
    groups = {pocket: [] for pocket in rules.Pocket}
    for ball, pocket in sorted(state.pocket_map.items()):
        groups[pocket].append(str(ball))
    designated = state.pocket_map.get(state.ball_on) if state.ball_on is not None else None
    return [
        PocketView(
            key=pocket.value,
            label=render_message(pocket.label),
            balls=" · ".join(groups[pocket]),
            x=x,
            y=y,
            text_x=tx,
            text_y=ty,
            anchor=anchor,
            designated=pocket == designated,
        )
        for pocket, (x, y, tx, ty, anchor) in POCKET_GEOMETRY.items()
    ]


def _handicap(settings, names):
    """The handicap of «Кладка шаров кием» as the board shows it: a figure and two notes."""
    kind = getattr(settings, "handicap", "none")
    strokes = getattr(settings, "handicap_strokes", 0)
    strong_seat = getattr(settings, "strong_seat", 0)
    strong = names[strong_seat] if 0 <= strong_seat < len(names) else ""
    if kind == "none":
        return {"figure": "", "note": _("No handicap"), "strong": ""}
    note = {
        "start": _("the stronger starts"),
        "extra_strokes": _("extra strokes for the weaker"),
        "mixed": _("added to the stronger's total; the stronger starts"),
    }.get(kind, "")
    return {
        "figure": f"+{strokes}" if kind in ("extra_strokes", "mixed") else "",
        "note": note,
        "strong": _("stronger: %(name)s") % {"name": strong},
    }


def _seat_figures(key, state, index):
    if key == "clockwise":
        return [(_("balls"), len(state.pocketed[index]))]
    if key == "cue_run":
        figures = [
            (_("balls"), f"{state.balls_down[index]}/16"),
            (_("penalties"), state.penalties[index]),
        ]
        if state.adjusted[index] is not None and state.adjusted[index] != state.strokes[index]:
            figures.append((_("adjusted"), state.adjusted[index]))
        return figures
    return []


def _main_figure(key, state, index):
    """The big number of a seat: strokes for «Кладка шаров кием», the score otherwise."""
    return state.strokes[index] if key == "cue_run" else state.scores[index]


def _panel(key, state, settings, names):
    if key == "cork":
        return {"bank": state.bank, "fouls": state.fouls_committed}
    if key == "clockwise":
        ball_on = state.ball_on
        pocket = state.pocket_map.get(ball_on) if ball_on is not None else None
        return {
            "ball_on": ball_on,
            "pocket": render_message(pocket.label) if pocket else "",
            "awaiting_nomination": state.awaiting_nomination,
            "pockets": clockwise_pockets(state),
            "balls_left": len(state.balls_left),
        }
    if key == "cue_run":
        return {"handicap": _handicap(settings, names), "to_beat": state.to_beat}
    if key == "cue_vs_hand":
        return {"broken": state.broken}
    return {}


def _banner(result, names):
    if result is None:
        return ""
    winners = [names[i] for i in result.winners if 0 <= i < len(names)]
    if result.draw == "normal":
        return _("Draw (every run 16 in 16)")
    if result.draw:
        return _("Draw: %(names)s") % {"names": ", ".join(winners)}
    if len(winners) == 1:
        return _("Winner: %(name)s") % {"name": winners[0]}
    return _("Winners: %(names)s") % {"names": ", ".join(winners)}


def game_board(game):
    """Everything a board shows of ``game``: one replay of its stored events."""
    variant = selectors.variant_of(game)
    settings = selectors.settings_of(game)
    log = selectors.game_log(game)
    state = log[-1].after if log else variant.initial_state(settings)
    names = [seat.name for seat in selectors.seats_of(game)]
    names += [str(i + 1) for i in range(len(names), state.seats)]  # never index past the list
    key = variant.key
    finished = state.finished or game.status == GameStatus.FINISHED
    # «Кладка шаров кием» declares its result as soon as it is decided, before the runs end.
    result = state.result or getattr(state, "declared", None)
    winners = set(result.winners) if result else set()
    seats = [
        SeatView(
            index=i,
            name=names[i],
            score=_main_figure(key, state, i),
            turn=not finished and state.turn == i,
            winner=i in winners,
            figures=_seat_figures(key, state, i),
            role=(
                ("cue" if state.cue_seat == i else "hand" if state.hand_seat == i else "")
                if key == "cue_vs_hand"
                else ""
            ),
        )
        for i in range(state.seats)
    ]
    effective = [s for s in log if not s.undone and s.event.kind != rules.UNDO]
    ticker = [render_message(s.description) for s in reversed(effective[-TICKER_LENGTH:])]
    return GameBoard(
        game=game,
        variant_key=key,
        variant_name=render_message(variant.name),
        state=state,
        seats=seats,
        ticker=ticker,
        finished=finished,
        banner=_banner(result, names) if finished or result else "",
        decided=result is not None and not finished,
        target=getattr(settings, "target", None) or getattr(settings, "winning_points", None),
        panel=_panel(key, state, settings, names),
    )


# --- the table board ------------------------------------------------------------------------


def _shown_game(number):
    game = Game.objects.filter(table__number=number).select_related("table").order_by("-pk")
    game = game.first()
    if game is None:
        return None, FREE
    fp = _game_fingerprint(game.pk, game.last_seq, game.status, game.finished_at, timezone.now())
    return (game, fp) if fp else (None, FREE)


def _board_context(number):
    game, fp = _shown_game(number)
    return {
        "number": number,
        "fp": fp,
        "board": game_board(game) if game else None,
        "club_name": django_settings.CLUB_NAME,
    }


def _theme(request):
    theme = request.GET.get("theme")
    return theme if theme in THEMES else THEMES[0]


@lru_cache(maxsize=128)
def qr_svg(url):
    """The QR code of ``url`` as inline SVG (sized by CSS), made here by segno."""
    return segno.make(url, error="m").svg_inline(
        scale=1, border=2, omitsize=True, dark="#000", light="#fff"
    )


@require_safe
@never_cache
def board(request, number):
    """The TV board of one table; an htmx poll gets a 204 when nothing has changed."""
    shown = _poll_fingerprint(request)
    if shown is not None:
        # games.middleware.BoardPollMiddleware has usually made this check already.
        fp = getattr(request, "board_fingerprint", None) or table_fingerprint(number)
        if shown == fp:
            return unchanged()

        def build():
            return render_to_string("games/boards/table.html#board", _board_context(number))

        return fragment(_cached_render(f"t{number}:{fp}", build), fp)
    table = get_object_or_404(Table, number=number)
    context = _board_context(number)
    context |= {
        "table": table,
        "theme": _theme(request),
        "qr": qr_svg(request.build_absolute_uri(request.path)),
    }
    return render(request, "games/boards/table.html", context)


# --- the club wall --------------------------------------------------------------------------


def wall_grid(count):
    """(columns, rows) that fit ``count`` tiles on one 16:9 screen; 12 tables take 4 × 3."""
    for columns, rows in [(1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (4, 2), (3, 3), (4, 3)]:
        if count <= columns * rows:
            return columns, rows
    columns = 5 if count <= 20 else 6
    return columns, -(-count // columns)


def _wall_context():
    tables = list(Table.objects.filter(is_active=True).order_by("number"))
    now = timezone.now()
    games = (
        Game.objects.filter(table__in=tables)
        .filter(
            Q(status=GameStatus.IN_PROGRESS)
            | Q(status=GameStatus.FINISHED, finished_at__gte=now - RESULT_SHOWN_FOR)
        )
        .order_by("-pk")
    )
    shown = {}
    for game in games:
        shown.setdefault(game.table_id, game)
    tiles = [
        {"table": t, "board": game_board(shown[t.pk]) if t.pk in shown else None} for t in tables
    ]
    columns, rows = wall_grid(len(tiles))
    return {
        "tiles": tiles,
        "columns": columns,
        "rows": rows,
        "fp": wall_fingerprint(),
        "club_name": django_settings.CLUB_NAME,
    }


@require_safe
@never_cache
def wall(request):
    """The club wall: every active table as a tile; polls like the table board."""
    shown = _poll_fingerprint(request)
    if shown is not None:
        fp = wall_fingerprint()
        if shown == fp:
            return unchanged()

        def build():
            return render_to_string("games/boards/wall.html#wall", _wall_context())

        return fragment(_cached_render(f"wall:{fp}", build), fp)
    context = _wall_context() | {"theme": _theme(request)}
    return render(request, "games/boards/wall.html", context)
