"""The boards' swappable regions: their contexts and the rendered partials that a poll or a
pushed stream brings (``boards.polls``, ``boards.feeds``); the pages around them are
``boards.views``."""

from django.template.loader import render_to_string
from django.utils import timezone

from boards.content import game_board, wall_grid
from boards.polls import FREE, game_fingerprint, games_on_show, wall_fingerprint
from clubs.current import working_club
from games.models import Game, GameStatus
from tables.models import Table

CROWDED_SEATS = 6  # more players than this: the wall tile is two columns wide
THEMES = ("dark", "light")  # ?theme=…; the first is the default (a TV in a dim hall)


def _shown_game(number):
    game = Game.objects.filter(table__number=number).select_related("table").order_by("-pk")
    game = game.first()
    if game is None:
        return None, FREE
    fp = game_fingerprint(game.pk, game.last_seq, game.status, game.finished_at, timezone.now())
    return (game, fp) if fp else (None, FREE)


def table_context(number):
    game, fp = _shown_game(number)
    return {
        "number": number,
        "fp": fp,
        "board": game_board(game) if game else None,
        "club_name": working_club().name,
    }


def render_table(number):
    return render_to_string("boards/table.html#board", table_context(number))


def wall_context():
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
        "club_name": working_club().name,
    }


def render_wall():
    return render_to_string("boards/wall.html#wall", wall_context())


def page_options(request):
    """What every board's page (the table's, the wall, a tournament's) takes from its address:
    the theme (``?theme=``), and the stream unless ``?poll=1``."""
    theme = request.GET.get("theme")
    return {
        "theme": theme if theme in THEMES else THEMES[0],
        "stream": request.GET.get("poll") != "1",
    }
