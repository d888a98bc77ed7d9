"""What a board's poll costs: its fingerprint, the empty 204, the render cache.

A board holds a pushed stream (``boards.feeds``); while it cannot, or when opened with
``?poll=1``, it polls itself with htmx every second and sends the fingerprint (``fp``) of
what it shows. The fingerprint comes from one small query (two for the wall): an unchanged
board gets an empty 204 — no replay, no template rendering (htmx does not swap on 204). A
changed board is rendered once per fingerprint and language and kept in the cache for a
little while, so a hall of TVs that all notice the same stroke costs one render, not one per
TV; the pushed streams share that render.
"""

import hashlib
from datetime import timedelta

from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers

from games.models import Game, GameStatus
from live import topics
from tables.models import Table

RESULT_SHOWN_FOR = timedelta(minutes=15)  # how long a finished game stays on its board
RENDER_CACHE_SECONDS = 30  # a changed board is rendered once per fingerprint, then reused
FREE = "free"  # the fingerprint of a table with nothing to show


def _fingerprint(pk, last_seq, status, recent):
    """``"<game>.<last_seq>.<p|f>"`` for a game a board shows, else None. ``recent``: the
    game finished less than RESULT_SHOWN_FOR ago."""
    if status == GameStatus.IN_PROGRESS:
        return f"{pk}.{last_seq}.p"
    if status == GameStatus.FINISHED and recent:
        return f"{pk}.{last_seq}.f"
    return None


def game_fingerprint(pk, last_seq, status, finished_at, now):
    recent = finished_at is not None and finished_at >= now - RESULT_SHOWN_FOR
    return _fingerprint(pk, last_seq, status, recent)


def table_fingerprint(number):
    """The fingerprint of table ``number``'s board, from one query (the table and its newest
    game); None when there is no such table (its poll is a 404)."""
    row = (
        Table.objects.filter(number=number)
        .order_by("-games__pk")
        .values_list("games__pk", "games__last_seq", "games__status", "games__finished_at")
        .first()
    )
    if row is None:
        return None
    return game_fingerprint(*row, timezone.now()) or FREE


def games_on_show(now):
    """The games boards show: in progress, or finished less than RESULT_SHOWN_FOR ago."""
    return Game.objects.filter(
        Q(status=GameStatus.IN_PROGRESS)
        | Q(status=GameStatus.FINISHED, finished_at__gte=now - RESULT_SHOWN_FOR)
    )


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
        games_on_show(now)
        .filter(table__is_active=True)
        .order_by("-pk")
        .values_list("table_id", "pk", "last_seq", "status", "finished_at")
    )
    for table_id, *row in games:
        shown.setdefault(table_id, game_fingerprint(*row, now))
    return tables, shown


def wall_fingerprint():
    tables, shown = _wall_rows()
    text = repr([(t, shown.get(t[0])) for t in tables])
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def poll_fingerprint(request):
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
    response["X-Board-Fingerprint"] = fp
    add_never_cache_headers(response)
    return response


def answer_poll(shown, fp, key, language, render):
    """The answer to a board's poll. ``shown``: the fingerprint the board shows; ``fp``: the
    current one; ``key`` names the board ("t<number>", "wall") in the render cache.
    Unchanged: the empty 204; changed: the fragment, rendered by ``render()`` unless
    another TV (or a stream) had it rendered in ``language`` already."""
    if shown == fp:
        return unchanged()
    return fragment(rendered(key, fp, language, render), fp)


def rendered(key, fp, language, render):
    """Board ``key``'s fragment for fingerprint ``fp`` in ``language``: from the render cache,
    else ``render()``'d and cached. The polls and the pushed streams (``boards.feeds``) share
    it: one render per change and language. Kept in the club's live namespace
    (``live.topics``): a free table 3 of one club is not another's (its club's name)."""
    cache_key = f"boards:{topics.named(key)}:{fp}:{language}"
    html = cache.get(cache_key)
    if html is None:
        html = render()
        cache.set(cache_key, html, RENDER_CACHE_SECONDS)
    return html


def answer_table_poll(number, shown, language, render):
    """``answer_poll`` for the board of table ``number``; a 404 when there is no such table."""
    fp = table_fingerprint(number)
    if fp is None:
        raise Http404("no such table")
    return answer_poll(shown, fp, f"t{number}", language, render)
