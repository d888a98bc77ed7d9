"""What the boards' pushed streams send (``live.streams.Feed``): the same fingerprints and
the same per-fingerprint render cache as their polls (``boards.polls``), so a change is
rendered once per language whether a TV polls or holds a stream."""

from django.utils.translation import get_language

from boards.fragments import render_table, render_wall
from boards.polls import FREE, rendered, table_fingerprint, wall_fingerprint
from live import topics
from live.streams import Feed


def table_feed(number):
    key = f"t{number}"

    def snapshot():
        fp = table_fingerprint(number) or FREE  # a table deleted meanwhile shows free
        return fp, rendered(key, fp, get_language(), lambda: render_table(number))

    return Feed(key=key, topic=topics.table(number), event="board", snapshot=snapshot)


def wall_feed():
    def snapshot():
        fp = wall_fingerprint()
        return fp, rendered("wall", fp, get_language(), render_wall)

    return Feed(key="wall", topic=topics.WALL, event="wall", snapshot=snapshot)
