"""The tournament board's pushed stream (``live.streams.Feed``): the same fingerprint and the
same per-fingerprint render cache as its poll (``boards.polls.answer_poll``), so a change is
rendered once per language whether a TV polls or holds a stream."""

from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils.translation import get_language

from boards.polls import rendered
from live import topics
from live.streams import Feed
from tournaments import fragments, selectors


def cache_key(pk):
    return f"tournament{pk}"


def tournament_feed(pk):
    def snapshot():
        fp = selectors.board_fingerprint(pk) or "gone"
        return fp, rendered(
            cache_key(pk), fp, get_language(), lambda: fragments.render_board(pk, fp)
        )

    return Feed(key=cache_key(pk), topic=topics.tournament(pk), event="tboard", snapshot=snapshot)


def feed_for_path(path):
    """The feed of a tournament board's stream path, None for any other path; Http404 for a
    tournament that does not exist (``live.asgi.StreamRouter`` serves it beside Django)."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.view_name != "tournaments:board_stream":
        return None
    pk = match.kwargs["pk"]
    if selectors.board_fingerprint(pk) is None:
        raise Http404("no such tournament")
    return tournament_feed(pk)
