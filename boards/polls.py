"""What a board's once-a-second poll costs: its fingerprint, the empty 204, the render cache.

Both boards (``boards.views``) poll themselves with htmx every second and send the
fingerprint (``fp``) of what they show. The fingerprint is recomputed from one small query on
Game (two for the wall): an unchanged board gets an empty 204 — no replay, no template
rendering, no session or user lookup (htmx does not swap on 204). A changed board is rendered
once per fingerprint and language and kept in the cache for a little while, so a hall full of
TVs that all notice the same stroke within a second costs one render, not one per TV.
``boards.middleware.BoardPollMiddleware`` answers the table board's polls with these before
most of the middleware runs.
"""

import hashlib
from datetime import timedelta

from django.core.cache import cache
from django.db import connection
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from games.models import Game, GameStatus
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


# The table and its newest game, as plain SQL: building the same query with the ORM costs
# about 1.3 ms of CPU per poll (measured; the query itself about 0.1 ms), and this runs once a
# second for every TV in the hall. No row: there is no such table.
TABLE_FINGERPRINT_SQL = (
    "SELECT g.id, g.last_seq, g.status, g.finished_at >= %s"
    f" FROM {Table._meta.db_table} t LEFT JOIN {Game._meta.db_table} g ON g.table_id = t.id"
    " WHERE t.number = %s ORDER BY g.id DESC LIMIT 1"
)
MAX_TABLE_NUMBER = 2**31 - 1  # the column's range: a bigger number is no table


def table_fingerprint(number):
    """The fingerprint of table ``number``'s board, from one small query; None when there
    is no such table (its poll is a 404)."""
    if not 0 <= number <= MAX_TABLE_NUMBER:
        return None
    cutoff = connection.ops.adapt_datetimefield_value(timezone.now() - RESULT_SHOWN_FOR)
    with connection.cursor() as cursor:
        cursor.execute(TABLE_FINGERPRINT_SQL, [cutoff, number])
        row = cursor.fetchone()
    if row is None:
        return None
    return _fingerprint(*row) or FREE


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


def fragment(html, fp, language):
    """A changed board's fragment; the client keeps ``fp`` for its next poll."""
    response = HttpResponse(html)
    response["Content-Length"] = len(response.content)  # the fast path skips CommonMiddleware
    response["X-Board-Fingerprint"] = fp
    add_never_cache_headers(response)
    # What LocaleMiddleware adds, which the fast path skips: the boards differ per language.
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    response.headers.setdefault("Content-Language", language)
    return response


def answer_poll(shown, fp, key, language, render=None):
    """The answer to a board's poll: the one function both paths use.

    ``shown``: the fingerprint the board shows; ``fp``: the current one; ``key`` names the
    board ("t<number>", "wall") in the render cache. Unchanged: the empty 204. Changed and
    already rendered in ``language`` (another TV asked first): that fragment. Else
    ``render()`` builds it, which is cached for the next TVs; without ``render`` (the fast
    path, before the session and the locale are set up) None: let the view answer.
    """
    if shown == fp:
        return unchanged()
    html = rendered(key, fp, language, render)
    return None if html is None else fragment(html, fp, language)


def rendered(key, fp, language, render=None):
    """Board ``key``'s fragment for fingerprint ``fp`` in ``language``: from the render cache,
    else ``render()``'d and cached (None without ``render``). The polls and the pushed
    streams (``boards.feeds``) share it: one render per change and language."""
    cache_key = f"boards:{key}:{fp}:{language}"
    html = cache.get(cache_key)
    if html is None and render is not None:
        html = render()
        cache.set(cache_key, html, RENDER_CACHE_SECONDS)
    return html


def answer_table_poll(number, shown, language, render=None):
    """``answer_poll`` for the board of table ``number`` (one small query); there is no such
    table: None on the fast path (the view answers), else a 404 (and nothing is cached)."""
    fp = table_fingerprint(number)
    if fp is None:
        if render is None:
            return None
        raise Http404("no such table")
    return answer_poll(shown, fp, f"t{number}", language, render)
