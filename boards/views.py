"""Spectator boards: the TV board of one table and the club wall. Nobody signs in to watch.

What a board shows is built by ``boards.content``; how its once-a-second polls stay cheap (the
fingerprint, the empty 204, the render cache) is ``boards.polls``; while a board holds its
Server-Sent Events stream (``boards.feeds``, ``live``) it does not poll.

What a board shows of a table: its game in progress; else its game finished in the last
``polls.RESULT_SHOWN_FOR`` (the table board with the winner banner; the wall as a free
table with that result beneath in small type); else "the table is free".
"""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from boards.feeds import table_feed, wall_feed
from boards.fragments import page_options, render_table, render_wall
from boards.polls import (
    answer_poll,
    answer_table_poll,
    poll_fingerprint,
    wall_fingerprint,
)
from clubs.current import working_club
from live.streams import stream_response
from tables.models import Table
from toolbox.qr import qr_svg
from toolbox.shared_pages import shared_briefly

# --- the table board ------------------------------------------------------------------------


@require_safe
@never_cache
@shared_briefly
def board(request, number):
    """The TV board of one table; an htmx poll gets a 204 when nothing has changed."""
    shown = poll_fingerprint(request)
    if shown is not None:
        return answer_table_poll(number, shown, get_language(), lambda: render_table(number))
    table = get_object_or_404(Table, number=number)
    # The page around the board's fragment exactly as its stream sends it: rendered once per
    # change and language for every screen, as the wall's.
    fp, board_html = table_feed(number).snapshot()
    context = {
        "table": table,
        "number": number,
        "fp": fp,
        "board_html": board_html,
        **page_options(request),
        "qr": qr_svg(request.build_absolute_uri(request.path)),
    }
    return render(request, "boards/table.html", context)


# --- the club wall --------------------------------------------------------------------------


@require_safe
@never_cache
@shared_briefly
def wall(request):
    """The club wall: every active table as a tile; polls like the table board."""
    shown = poll_fingerprint(request)
    if shown is not None:
        return answer_poll(shown, wall_fingerprint(), "wall", get_language(), render_wall)
    # The page around the wall's fragment as its stream sends it: rendered once per change
    # and language for every screen (a hall's TVs opening at once cost one render).
    fp, fragment = wall_feed().snapshot()
    context = {"fp": fp, "wall_html": fragment, "club_name": working_club().name}
    return render(request, "boards/wall.html", context | page_options(request))


# --- the pushed streams (live/): the same fragments, sent the moment they change ------------


@require_safe
def board_stream(request, number):
    """Server-Sent Events of a table's board: its fragment whenever it changes."""
    get_object_or_404(Table, number=number)
    return stream_response(request, table_feed(number))


@require_safe
def wall_stream(request):
    return stream_response(request, wall_feed())
