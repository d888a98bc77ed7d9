"""The screens' streams served straight from the ASGI server, beside Django's handler.

Django's ASGI handler runs synchronous middleware (and the request signals' receivers) in a
thread of the request's own, kept until the response ends: for a stream held open for hours
that is a thread — and, with a view that touched the database, a database connection — per
screen. Public streams need none of that middleware: ``StreamRouter`` answers them itself
(``find_feed(path)`` names the feed, e.g. from the URLconf) with the same ``Feed`` as the view
(``live.streams``). What it checks as Django would: the method, the host (``ALLOWED_HOSTS``),
the language (``?lang=``, the language cookie, ``Accept-Language``). Everything else, and any
stream that needs a signed-in user (the marker's console), goes to Django.

The screens of one feed in one language form an ``Audience``: one task of the process waits
for the feed's topic to change (or for the heartbeat), reads the snapshot once and writes it
to every screen in turn — no task, generator or timer a screen (a final's 10,000 phones:
``bench/board_push.py``). A screen's own request only waits for its client to leave. A
write that cannot go at once (the client's socket buffer is full) is finished apart, and
meanwhile that screen is skipped; it gets the newest snapshot when its write is through.

A screen that stops reading (a TV gone to sleep without closing its connection, a client
that reads nothing on purpose) cannot hold the server's memory: once its unsent data passes
the connection's write buffer, the server's send waits; after ``SLOW_CLIENT_SECONDS`` of
waiting the stream is dropped (uvicorn closes the connection), not kept for
``LIVE_STREAM_SECONDS``. A screen that reads again reconnects at once (EventSource does).
"""

import asyncio
import io
import logging
import time
import weakref

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404
from django.utils.translation import get_language_from_request

from live import streams
from live.hub import AsyncSubscription, get_hub
from live.streams import RETRY_MILLISECONDS, heartbeat, last_shown, read, snapshot_async

logger = logging.getLogger(__name__)
SLOW_CLIENT_SECONDS = 10  # a send that waits this long for the client to read: dropped


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
        """A public stream: answered here, for as long as the screen holds it (in this one
        coroutine: each open stream's bytes count, bench/board_push.py); anything else:
        Django."""
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope.get("method") not in ("GET", "HEAD")
            or not path.endswith("/stream/")
            or not path.startswith(self.prefixes)
        ):
            return await self.django_app(scope, receive, send)
        opened = await self._open(scope, receive, send, path)
        if opened is None:  # answered otherwise (Django, 404, 400, HEAD)
            return
        feed, language, shown = opened
        screen = _Screen(send, shown, time.monotonic() + settings.LIVE_STREAM_SECONDS)
        audience = _audience(feed, language)
        try:
            entry = await snapshot_async(feed, language, fresh=True)
        except Exception:  # noqa: BLE001 - the database went away: the next change brings it
            logger.warning("live: %s could not be read", feed.key, exc_info=True)
            entry = None
        audience.join(screen, entry)
        try:
            while (await receive())["type"] != "http.disconnect":
                pass
            return  # the client went away
        except asyncio.CancelledError:
            if screen.ending is None:
                raise  # the server is stopping
            asyncio.current_task().uncancel()
        finally:
            audience.leave(screen)
        if screen.ending == SLOW:
            # Returning without ending the response: uvicorn closes the connection.
            logger.warning("live: a screen stopped reading %s; its stream is dropped", path)
        elif screen.ending == TIME_UP:
            await send({"type": "http.response.body"})  # the stream's time is up

    async def _open(self, scope, receive, send, path):
        """(feed, language, what the screen shows) once the stream's head and opening are
        sent; None when the path was answered otherwise."""
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
        await send({"type": "http.response.body", "body": OPENING, "more_body": True})
        return feed, language, shown


OPENING = f"retry: {RETRY_MILLISECONDS}\n\n".encode()  # the browser's reconnection delay


TIME_UP, SLOW, GONE = "time up", "slow", "gone"  # why the audience ends a screen's stream


class _Screen:
    """One open stream: where to write, what it shows, until when; ``pending``: a write
    still waiting for the client; ``ending``: why its audience ended it (None: it has not)."""

    __slots__ = ("send", "shown", "deadline", "task", "pending", "ending")

    def __init__(self, send, shown, deadline):
        self.send, self.shown, self.deadline = send, shown, deadline
        self.task = asyncio.current_task()
        self.pending = None
        self.ending = None

    def end(self, why):
        if self.ending is None:
            self.ending = why
            self.task.cancel()


_audiences = weakref.WeakKeyDictionary()  # event loop -> {(feed key, language): _Audience}


def _audience(feed, language):
    loop_audiences = _audiences.setdefault(asyncio.get_running_loop(), {})
    audience = loop_audiences.get((feed.key, language))
    if audience is None:
        audience = loop_audiences[(feed.key, language)] = _Audience(feed, language)
    return audience


class _Audience:
    """The screens of one feed in one language in this process, and the task that writes
    each change (and each heartbeat) to all of them."""

    def __init__(self, feed, language):
        self.feed, self.language = feed, language
        self.screens = {}  # _Screen -> None: the open streams, in the order they came
        self.latest = None  # the newest snapshot written
        self.subscription = None
        self.task = None

    def join(self, screen, entry):
        """``screen`` gets ``entry`` (its first snapshot) now, and every change after it."""
        self.screens[screen] = None
        if self.subscription is None:  # the first screen: the audience starts listening
            self.subscription = get_hub().subscribe(AsyncSubscription(self.feed.topic))
            self.task = asyncio.get_running_loop().create_task(self._run())
        self._keep(entry)
        if self.latest is None:  # nothing could be read yet: the next change brings it
            return
        self._write(screen, self.latest)
        if self.latest.generation != get_hub().generation(self.feed.topic):
            self.subscription.nudge()  # a change came while it was read: read it again

    def leave(self, screen):
        self.screens.pop(screen, None)

    def _keep(self, entry):
        """Keeps ``entry`` as the newest snapshot, unless one read later is newer."""
        if entry is None:
            return
        if self.latest is None or entry.generation >= self.latest.generation:
            self.latest = entry

    async def _run(self):
        subscription = self.subscription
        try:
            while self.screens:
                changed = await subscription.wait(streams.HEARTBEAT_SECONDS)
                if changed:
                    await self._changed()
                else:
                    beat = heartbeat()
                    for screen in list(self.screens):
                        self._write(screen, None, beat)
                self._end_expired(time.monotonic())
        finally:
            get_hub().unsubscribe(subscription)
            self.subscription = None
            loop_audiences = _audiences.get(asyncio.get_running_loop(), {})
            if loop_audiences.get((self.feed.key, self.language)) is self:
                del loop_audiences[(self.feed.key, self.language)]
            if self.screens:  # a screen came as it ended: it needs an audience that listens
                for screen in list(self.screens):
                    screen.end(GONE)

    async def _changed(self):
        try:
            entry = await snapshot_async(self.feed, self.language)
        except Exception:  # noqa: BLE001 - the database went away: try at the next wake-up
            logger.warning("live: %s could not be read", self.feed.key, exc_info=True)
            return
        self._keep(entry)
        for screen in list(self.screens):
            self._write(screen, self.latest)

    def _end_expired(self, now):
        for screen in list(self.screens):
            if screen.deadline <= now:
                screen.end(TIME_UP)

    def _write(self, screen, entry, message=None):
        """Writes ``entry`` (a snapshot; nothing if the screen shows it already) or
        ``message`` (a heartbeat) to ``screen``; a screen whose last write still waits is
        skipped (it gets the newest snapshot once that write is through)."""
        if screen.pending is not None or screen.ending is not None:
            return
        if entry is not None:
            if entry.fingerprint == screen.shown:
                return
            screen.shown, message = entry.fingerprint, entry.message
        try:
            waiting = _send_now(screen.send, message)
        except Exception:  # noqa: BLE001 - the connection is gone
            screen.end(GONE)
            return
        if waiting is not None:
            screen.pending = asyncio.ensure_future(self._finish(screen, waiting))

    async def _finish(self, screen, waiting):
        try:
            await asyncio.wait_for(waiting, SLOW_CLIENT_SECONDS)
        except TimeoutError:
            screen.end(SLOW)
            return
        except Exception:  # noqa: BLE001 - the connection is gone
            screen.end(GONE)
            return
        finally:
            screen.pending = None
        if screen in self.screens and self.latest is not None:
            self._write(screen, self.latest)


def _send_now(send, body):
    """Writes ``body`` through the ASGI ``send`` if it can go at once (the usual case: the
    socket's buffer has room, the server's send returns without waiting): None. Otherwise
    the rest of that send, as an awaitable (the client has not read what came before)."""
    sending = send({"type": "http.response.body", "body": body, "more_body": True})
    if not asyncio.iscoroutine(sending):
        return sending
    try:
        waiting = sending.send(None)
    except StopIteration:
        return None
    return _resume(sending, waiting)


async def _resume(sending, waiting):
    """Finishes a send stopped at ``waiting`` (what it awaited): as its own task would."""
    try:
        while True:
            if waiting is None:  # a bare yield: it only let the loop run
                await asyncio.sleep(0)
            else:
                # What a Task does with the future its coroutine yields: take it over (an
                # asyncio future refuses to be awaited twice while it is marked as yielded).
                waiting._asyncio_future_blocking = False
                await waiting
            try:
                waiting = sending.send(None)
            except StopIteration:
                return
    finally:
        sending.close()  # cancelled while it waited: the send is abandoned


def _language(request):
    language = request.GET.get("lang")
    if language in dict(settings.LANGUAGES):
        return language
    return get_language_from_request(request)


class DroppedStreamFilter(logging.Filter):
    """uvicorn logs a response ended without its last message as an error; a stream dropped
    because its client stopped reading (logged above) is no error: it is told as a warning."""

    def filter(self, record):
        if record.getMessage() == "ASGI callable returned without completing response.":
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


async def _plain(send, status, body):
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
