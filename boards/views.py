"""Spectator boards: the TV board of one table and the club wall. Nobody signs in to watch.

What a board shows is built by ``boards.content``; how its once-a-second polls stay cheap (the
fingerprint, the empty 204, the render cache) is ``boards.polls``.

What a board shows of a table: its game in progress; else its game finished in the last
``polls.RESULT_SHOWN_FOR`` (the table board with the winner banner; the wall as a free
table with that result beneath in small type); else "the table is free".
"""

from django.conf import settings as django_settings
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from boards.content import game_board, wall_grid
from boards.polls import (
    FREE,
    answer_poll,
    answer_table_poll,
    game_fingerprint,
    games_on_show,
    poll_fingerprint,
    wall_fingerprint,
)
from clubsite.qr import qr_svg
from games.models import Game, GameStatus
from tables.models import Table

THEMES = ("dark", "light")  # ?theme=…; the first is the default (a TV in a dim hall)


# --- the table board ------------------------------------------------------------------------


def _shown_game(number):
    game = Game.objects.filter(table__number=number).select_related("table").order_by("-pk")
    game = game.first()
    if game is None:
        return None, FREE
    fp = game_fingerprint(game.pk, game.last_seq, game.status, game.finished_at, timezone.now())
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


@require_safe
@never_cache
def board(request, number):
    """The TV board of one table; an htmx poll gets a 204 when nothing has changed."""
    shown = poll_fingerprint(request)
    if shown is not None:  # usually answered by boards.middleware already, the same way

        def render_board():
            return render_to_string("boards/table.html#board", _board_context(number))

        return answer_table_poll(number, shown, get_language(), render_board)
    table = get_object_or_404(Table, number=number)
    context = _board_context(number)
    context |= {
        "table": table,
        "theme": _theme(request),
        "qr": qr_svg(request.build_absolute_uri(request.path)),
    }
    return render(request, "boards/table.html", context)


# --- the club wall --------------------------------------------------------------------------

CROWDED_SEATS = 6  # more players than this: the wall tile is two columns wide


def _wall_context():
    tables = list(Table.objects.filter(is_active=True).order_by("number"))
    games = games_on_show(timezone.now()).filter(table__in=tables).order_by("-pk")
    shown = {}
    for game in games:
        shown.setdefault(game.table_id, game)
    tiles = []
    for table in tables:
        game = shown.get(table.pk)
        board = game_board(game) if game else None
        if game and game.status == GameStatus.FINISHED:  # the table is free again
            tiles.append({"table": table, "board": None, "last": board})
        else:
            tiles.append({"table": table, "board": board, "last": None})
    # A table of more than six players gets a tile two columns wide: whole names in two
    # columns of rows (in one tile's width they were cut).
    for tile in tiles:
        tile["wide"] = bool(tile["board"]) and len(tile["board"].seats) > CROWDED_SEATS
    columns, rows = wall_grid(len(tiles) + sum(tile["wide"] for tile in tiles))
    if columns < 2:
        for tile in tiles:
            tile["wide"] = False
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
    shown = poll_fingerprint(request)
    if shown is not None:

        def render_wall():
            return render_to_string("boards/wall.html#wall", _wall_context())

        return answer_poll(shown, wall_fingerprint(), "wall", get_language(), render_wall)
    context = _wall_context() | {"theme": _theme(request)}
    return render(request, "boards/wall.html", context)
