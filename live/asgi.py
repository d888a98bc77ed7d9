"""The screens' streams served straight from the ASGI server, beside Django's handler.

Django's ASGI handler runs synchronous middleware (and the request signals' receivers) in a
thread of the request's own, kept until the response ends: for a stream held open for hours
that is a thread — and, with a view that touched the database, a database connection — per
screen. Public streams need none of that middleware: ``StreamRouter`` answers them itself
(``find_feed(path)`` names the feed, e.g. from the URLconf) with the same ``Feed`` and the same
async generator as the view (``live.streams``), so an idle screen costs one suspended
coroutine and its socket. What it checks as Django would: the method, the host
(``ALLOWED_HOSTS``), the language (``?lang=``, the language cookie, ``Accept-Language``).
Everything else, and any stream that needs a signed-in user (the marker's console), goes to
Django.

A screen that stops reading (a TV gone to sleep without closing its connection, a client
that reads nothing on purpose) cannot hold the server's memory: once its unsent data passes
the connection's write buffer, the server's send waits; after ``SLOW_CLIENT_SECONDS`` of
waiting the stream is dropped (uvicorn closes the connection), not kept for
``LIVE_STREAM_SECONDS``. A screen that reads again reconnects at once (EventSource does).
"""

import asyncio
import io
import logging

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404
from django.utils.translation import get_language_from_request

from live.streams import async_events, last_shown, read

logger = logging.getLogger(__name__)
SLOW_CLIENT_SECONDS = 10  # a send that waits this long for the client to read: dropped


class SlowClient(Exception):
    """The client has not read what was sent for ``SLOW_CLIENT_SECONDS``."""


HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-store"),
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


class StreamRouter:
    def __init__(self, django_app, find_feed, prefixes):
        """``find_feed(path)``: the Feed of a public stream, None for another path, or
        Http404; ``prefixes``: the paths it may answer start with one of these (a cheap
        first test, so that other requests do not pay for the URL resolver)."""
        self.django_app = django_app
        self.find_feed = find_feed
        self.prefixes = tuple(prefixes)

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope.get("method") not in ("GET", "HEAD")
            or not path.endswith("/stream/")
            or not path.startswith(self.prefixes)
        ):
            return await self.django_app(scope, receive, send)
        try:
            feed = await read(self.find_feed, path)  # (it may read the database)
        except Http404:
            return await _plain(send, 404, b"Not Found")
        if feed is None:
            return await self.django_app(scope, receive, send)
        request = ASGIRequest(scope, io.BytesIO())
        try:
            request.get_host()
        except DisallowedHost:
            return await _plain(send, 400, b"Bad Request")
        language = _language(request)
        shown = last_shown(request)
        del request  # an open stream keeps nothing of it (3 KiB a screen, bench/board_push.py)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    *HEADERS,
                    *((name.lower().encode(), value.encode()) for name, value in feed.headers),
                    (b"content-language", language.encode()),
                ],
            }
        )
        if scope["method"] == "HEAD":
            return await send({"type": "http.response.body"})
        events = async_events(feed, language, shown, settings.LIVE_STREAM_SECONDS)
        # One task a screen: this one pumps the events; a small one waits for the client to
        # leave and then cancels it (each screen's memory counts: bench/board_push.py).
        pumping = asyncio.current_task()
        listening = asyncio.ensure_future(_until_disconnect(receive))
        left = lambda _task: pumping.cancel()  # noqa: E731
        listening.add_done_callback(left)
        try:
            await _pump(events, send)
        except asyncio.CancelledError:
            if not listening.done():
                raise  # the server is stopping, not the client leaving
            return  # the client went away
        except SlowClient:
            # Returning without ending the response: uvicorn closes the connection.
            logger.warning("live: a screen stopped reading %s; its stream is dropped", path)
            return
        finally:
            listening.remove_done_callback(left)
            listening.cancel()
        await send({"type": "http.response.body"})  # the stream's time is up


def _language(request):
    language = request.GET.get("lang")
    if language in dict(settings.LANGUAGES):
        return language
    return get_language_from_request(request)


async def _pump(events, send, patience=None):
    """Sends every chunk; raises SlowClient when a send waits longer than ``patience``."""
    patience = SLOW_CLIENT_SECONDS if patience is None else patience
    try:
        async for chunk in events:
            message = {"type": "http.response.body", "body": chunk, "more_body": True}
            try:
                await asyncio.wait_for(send(message), patience)
            except TimeoutError:
                raise SlowClient from None
    finally:
        await events.aclose()


class DroppedStreamFilter(logging.Filter):
    """uvicorn logs a response ended without its last message as an error; a stream dropped
    because its client stopped reading (``SlowClient``, logged above) is no error: it is
    told as a warning."""

    def filter(self, record):
        if record.getMessage() == "ASGI callable returned without completing response.":
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


async def _until_disconnect(receive):
    while (await receive())["type"] != "http.disconnect":
        pass


async def _plain(send, status, body):
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
