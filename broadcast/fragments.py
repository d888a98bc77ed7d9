"""The overlays' and embeds' swappable regions, rendered once per fingerprint and language
(``boards.polls.rendered``) for every screen that shows them, whether it holds a stream
(``broadcast.feeds``) or polls; and their fingerprints, from small queries.

The region never depends on the page's options (position, size, theme: classes of the
page's ``<body>``), so one render serves every overlay and embed of a table.
"""

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from boards.polls import FREE, rendered, table_fingerprint
from broadcast import scoreboard
from records import stats
from tournaments import fragments as tournament_fragments
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament

OVERLAY = "broadcast/overlay.html"
BRACKET = "broadcast/embed_bracket.html"
GONE = "gone"  # the fingerprint of a tournament that no longer exists


def _rows(board):
    """(seat, frames won, its chance of the match now in percents, provisional) per seat."""
    frames = scoreboard.seat_frames(board)
    chances = scoreboard.seat_chances(board)
    game = board["game"]
    if not game:
        return []
    return [
        (seat, won, chance, provisional)
        for seat, won, (chance, provisional) in zip(game["seats"], frames, chances, strict=True)
    ]


# --- a table's overlay (and its embed) -------------------------------------------------------


def table_key(number):
    return f"overlay-t{number}"


def table_overlay_context(number):
    board = scoreboard.table_scoreboard(number)
    return {
        "sb": board,
        "rows": _rows(board),
        "fp": board["fingerprint"],
        "poll_url": reverse("broadcast:table_overlay", args=[number]),
    }


def render_table_overlay(number):
    return render_to_string(f"{OVERLAY}#region", table_overlay_context(number))


def table_overlay(number, fp):
    """Table ``number``'s overlay region for fingerprint ``fp``, from the render cache."""
    return rendered(table_key(number), fp, get_language(), lambda: render_table_overlay(number))


# --- a tournament's overlay: its featured match (or the one at a pinned table) ---------------


def tournament_key(pk, pinned):
    return f"overlay-tr{pk}-{pinned or 'f'}"


def tournament_fingerprint(pk, pinned=None):
    """What the tournament's overlay shows changes with the tournament (its board's
    fingerprint), the match it follows and that match's table; None: no such tournament."""
    tournament_fp = tournament_selectors.board_fingerprint(pk)
    if tournament_fp is None:
        return None
    found = scoreboard.featured(pk, pinned)
    table = found[1] if found else None
    table_fp = (table_fingerprint(table) or FREE) if table else FREE
    return f"{tournament_fp}.{table or 0}.{table_fp}"


def followed_table(pk, pinned=None):
    """The table whose changes the tournament's overlay follows now (None: none yet)."""
    if pinned:
        return pinned
    found = scoreboard.featured(pk)
    return found[1] if found else None


def tournament_overlay_context(pk, pinned, fp):
    tournament = Tournament.objects.get(pk=pk)
    found = scoreboard.featured(pk, pinned)
    table = found[1] if found else pinned
    board = scoreboard.table_scoreboard(table) if table else {"table": None, "game": None}
    poll_url = reverse("broadcast:tournament_overlay", args=[pk])
    return {
        "sb": board,
        "rows": _rows(board),
        "fp": fp,
        "tournament": tournament,
        "stage": scoreboard.stage_label(tournament, found[2]) if found else "",
        "poll_url": f"{poll_url}?table={pinned}" if pinned else poll_url,
    }


def render_tournament_overlay(pk, pinned, fp):
    context = tournament_overlay_context(pk, pinned, fp)
    return render_to_string(f"{OVERLAY}#region", context)


def tournament_overlay(pk, pinned, fp):
    key = tournament_key(pk, pinned)
    return rendered(key, fp, get_language(), lambda: render_tournament_overlay(pk, pinned, fp))


# --- a tournament's bracket, embedded ---------------------------------------------------------


def bracket_key(pk):
    return f"embed-bracket{pk}"


def bracket_context(tournament, fp):
    return tournament_fragments.public_context(tournament) | {"fp": fp}


def render_bracket(pk, fp):
    tournament = Tournament.objects.get(pk=pk)
    return render_to_string(f"{BRACKET}#region", bracket_context(tournament, fp))


def bracket(pk, fp):
    return rendered(bracket_key(pk), fp, get_language(), lambda: render_bracket(pk, fp))


# --- the leaderboards, embedded --------------------------------------------------------------


def leaderboard_rows(variant, period, min_games):
    rows, _sort, _desc = stats.leaderboard(variant, period, min_games)
    return rows
