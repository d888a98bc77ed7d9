"""What the boards' pushed streams send (``live.streams.Feed``): the same fingerprints and
the same per-fingerprint render cache as their polls (``boards.polls``), so a change is
rendered once per language whether a TV polls or holds a stream."""

import time
from functools import lru_cache

from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils.translation import get_language

from boards.fragments import render_table, render_wall
from boards.polls import FREE, rendered, table_fingerprint, wall_fingerprint
from live import topics
from live.streams import Feed
from tables.models import Table

KNOWN_TABLES_SECONDS = 10  # how long this process trusts its list of the tables' numbers
_known = {}  # the club's live namespace -> (its tables' numbers, trusted until)


def table_feed(number):
    """A table board's feed: one object per table of a club, shared by all its screens (each
    screen keeps a reference to it, not a copy: bench/board_push.py counts a stream's
    bytes)."""
    return _table_feed(number, topics.current_namespace())


@lru_cache(maxsize=1024)
def _table_feed(number, namespace):
    # Kept by the club's live namespace too (``live.topics``): the feed names its topic and
    # memo in the namespace it is made in, and table 3 of one club is not table 3 of another
    # (nor a single club's after a test of several).
    key = f"t{number}"

    def snapshot():
        fp = table_fingerprint(number) or FREE  # a table deleted meanwhile shows free
        return fp, rendered(key, fp, get_language(), lambda: render_table(number))

    return Feed(key=key, topic=topics.table(number), event="board", snapshot=snapshot)


def wall_feed():
    return _wall_feed(topics.current_namespace())


@lru_cache(maxsize=64)
def _wall_feed(namespace):  # by the club's live namespace, as ``_table_feed``
    def snapshot():
        fp = wall_fingerprint()
        return fp, rendered("wall", fp, get_language(), render_wall)

    return Feed(key="wall", topic=topics.WALL, event="wall", snapshot=snapshot)


def feed_for_path(path):
    """The feed of a public stream's path (``live.asgi.StreamRouter`` serves those without
    Django's middleware), None for any other path; Http404 for a table that does not exist."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.view_name == "games:board_stream":
        number = match.kwargs["number"]
        if not table_exists(number):
            raise Http404("no such table")
        return table_feed(number)
    if match.view_name == "games:wall_stream":
        return wall_feed()
    return None


def forget_tables():
    """This process reads the tables' numbers afresh on the next stream (tests)."""
    _known.clear()


def table_exists(number):
    """Whether table ``number`` exists: from this process's list of the club's numbers, read
    at most every ``KNOWN_TABLES_SECONDS`` (10,000 phones opening a final's stream cost one
    query, not one each); a number not on it is looked up, so a new table is found at once."""
    namespace = topics.current_namespace()  # the club's (one list of a site of one club)
    numbers, until = _known.get(namespace, (frozenset(), 0.0))
    if time.monotonic() >= until:
        numbers = frozenset(Table.objects.values_list("number", flat=True))
        _known[namespace] = (numbers, time.monotonic() + KNOWN_TABLES_SECONDS)
    if number in numbers:
        return True
    return Table.objects.filter(number=number).exists()
