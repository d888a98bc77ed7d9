"""What the overlays' and embeds' pushed streams send (``live.streams.Feed``): the regions of
``broadcast.fragments``, on the topics the boards use — a table's overlay follows the table,
a tournament's bracket the tournament, a tournament's overlay the table of the match it
follows (the tournament itself before the first match). A stroke reaches an overlay as fast
as it reaches the table's board: the same hub, the same wake-up.
"""

from django.http import Http404
from django.urls import Resolver404, resolve

from boards.feeds import table_exists
from boards.polls import table_fingerprint
from broadcast import fragments
from live import topics
from live.streams import Feed
from tournaments import selectors as tournament_selectors

OVERLAY_EVENT = "overlay"
EMBED_EVENT = "embed"


def table_overlay_feed(number):
    def snapshot():
        fp = table_fingerprint(number) or fragments.FREE  # a table deleted meanwhile: free
        return fp, fragments.table_overlay(number, fp)

    return Feed(
        key=fragments.table_key(number),
        topic=topics.table(number),
        event=OVERLAY_EVENT,
        snapshot=snapshot,
    )


def tournament_overlay_feed(pk, pinned=None):
    """Follows the table of the match the overlay shows as the stream opens; when the
    overlay moves to another match the page reloads (``overlay.js``) and follows that one."""
    follow = fragments.followed_table(pk, pinned)
    topic = topics.table(follow) if follow else topics.tournament(pk)

    def snapshot():
        fp = fragments.tournament_fingerprint(pk, pinned) or fragments.GONE
        return fp, fragments.tournament_overlay(pk, pinned, fp)

    key = f"{fragments.tournament_key(pk, pinned)}-{follow or 0}"
    return Feed(key=key, topic=topic, event=OVERLAY_EVENT, snapshot=snapshot)


def bracket_feed(pk):
    def snapshot():
        fp = tournament_selectors.board_fingerprint(pk) or fragments.GONE
        return fp, fragments.bracket(pk, fp)

    return Feed(
        key=fragments.bracket_key(pk),
        topic=topics.tournament(pk),
        event=EMBED_EVENT,
        snapshot=snapshot,
    )


def feed_for_path(path):
    """The feed of an overlay's or an embed's stream path (``live.asgi.StreamRouter`` serves
    it beside Django), None for any other path; Http404 for a table or tournament that does
    not exist."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    name, kwargs = match.view_name, match.kwargs
    if name == "broadcast:table_overlay_stream":
        if not table_exists(kwargs["number"]):
            raise Http404("no such table")
        return table_overlay_feed(kwargs["number"])
    if name in ("broadcast:tournament_overlay_stream", "broadcast:bracket_stream"):
        if tournament_selectors.board_fingerprint(kwargs["pk"]) is None:
            raise Http404("no such tournament")
        if name == "broadcast:bracket_stream":
            return bracket_feed(kwargs["pk"])
        return tournament_overlay_feed(kwargs["pk"], kwargs.get("number"))
    return None
