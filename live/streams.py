"""A screen's Server-Sent Events stream: what it shows, pushed the moment it changes.

A ``Feed`` names what a screen follows: its ``topic`` (``live.topics``), a ``key`` for the
process's memo, the SSE ``event`` name, and ``snapshot()`` → ``(fingerprint, data)`` — what
the screen should show now, in the active language (a board's rendered fragment, from the
boards' own per-fingerprint render cache); ``headers``: more response headers, as (name,
value) pairs (the API's feed: ``Access-Control-Allow-Origin``).
``stream_response(request, feed, shown)`` answers with ``text/event-stream``:

    retry: 1000                      the browser's reconnection delay
    id: <fingerprint>                every message: a reconnecting browser sends it back as
    event: board                     Last-Event-ID, and gets the current state at once if
    data: <section id="board" …>     that is not what it shows
    event: hb                        a heartbeat after HEARTBEAT_SECONDS without a message:
    data: <server time, epoch ms>    a named event (no id: the browser's Last-Event-ID stays
                                     the fingerprint), so a screen sees it and can say how
                                     fresh it is (``static/js/screen-status.js``: "no update
                                     for N s" past twice this interval), a dead connection is
                                     noticed and proxies keep it open. A client that only
                                     listens to its own event (the API's ``table``) ignores it

Under ASGI the stream is an async generator: an idle stream is a suspended coroutine waiting
on an asyncio event, it never holds a worker or a thread; a vanished client cancels it (Django
listens for the disconnect), a slow one only fills its own socket buffer. Under WSGI
(``runserver``, the test server) it is a plain generator that holds a thread, so it ends after
``WSGI_STREAM_SECONDS`` (the browser reconnects). The snapshot of a topic is computed once
per change (the topic's generation in the hub) and language in the process, in one of the
process's reader threads (which keep their database connection), then shared by every
stream that shows it.
"""

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import StreamingHttpResponse
from django.utils import translation

from live import topics
from live.hub import AsyncSubscription, ThreadSubscription, get_hub

logger = logging.getLogger(__name__)

RETRY_MILLISECONDS = 1000
HEARTBEAT_SECONDS = 15
FRESH_SECONDS = 1.0  # a new stream's first snapshot may be this old, no older
HEARTBEAT_EVENT = "hb"


def heartbeat():
    """The heartbeat message: ``event: hb`` with the server's time (epoch milliseconds)."""
    return f"event: {HEARTBEAT_EVENT}\ndata: {int(time.time() * 1000)}\n\n".encode()


@dataclass(frozen=True)
class Feed:
    key: str
    topic: str
    event: str
    snapshot: Callable[[], tuple]
    headers: tuple = ()

    def __post_init__(self):
        # The club's own (``live.topics``): its memo, its audience and its topic.
        object.__setattr__(self, "key", topics.named(self.key))
        object.__setattr__(self, "topic", topics.named(self.topic))


@dataclass(frozen=True)
class Snapshot:
    generation: int
    at: float
    fingerprint: str
    message: bytes


def format_event(event, fingerprint, data):
    """One SSE message; every line of ``data`` gets its own ``data:`` field, its indentation
    and the blank lines dropped (HTML: a line break is as good a space as the indentation;
    a hall of TVs receives every message, so it is kept small)."""
    lines = [f"id: {fingerprint}", f"event: {event}"]
    lines += [f"data: {line}" for line in _lines(data)]
    return ("\n".join(lines) + "\n\n").encode()


def _lines(data):
    lines = [line.strip() for line in (data or "").split("\n")]
    return [line for line in lines if line] or [""]


# --- the per-process memo: one snapshot per feed, language and generation -------------------

_memo = {}  # (key, language) -> Snapshot
_memo_lock = threading.Lock()
_inflight = {}  # (key, language) -> (generation, loop, future): async single flight
_compute_locks = {}  # (key, language) -> Lock: threaded single flight


def _usable(entry, generation, fresh):
    if entry is None or entry.generation != generation:
        return False
    return not fresh or time.monotonic() - entry.at < FRESH_SECONDS


# The streams' reads (a snapshot, a stream's feed) run in these few threads of the process's
# own, which keep their database connection between changes as a request's thread would
# (CONN_MAX_AGE): a change is on the screens without first connecting to the database.
READER_THREADS = 2


def _new_readers():
    return ThreadPoolExecutor(READER_THREADS, thread_name_prefix="live-reader")


_readers = _new_readers()


def give_back_connections():
    """This thread's database connections go back (to the pool, or closed) unless one is in
    a transaction: what Django does at a request's end, for a stream whose request goes on.
    (A test's client reads the stream inside the test's transaction, which must stay.)"""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def _tidily(function, *args):
    """``function(*args)`` in a reader thread, its database connection looked after as
    Django does around a request (closed when broken or older than CONN_MAX_AGE)."""
    close_old_connections()
    try:
        return function(*args)
    finally:
        close_old_connections()


def read(function, *args):
    """Awaits ``function(*args)`` run in a reader thread (it may use the ORM), within the
    caller's context (its club, its time zone)."""
    context = contextvars.copy_context()
    return asyncio.get_running_loop().run_in_executor(
        _readers, context.run, _tidily, function, *args
    )


def _compute(feed, language, generation):
    with translation.override(language):
        fingerprint, data = feed.snapshot()
    entry = Snapshot(
        generation, time.monotonic(), fingerprint, format_event(feed.event, fingerprint, data)
    )
    with _memo_lock:
        current = _memo.get((feed.key, language))
        if current is None or current.generation <= generation:
            _memo[(feed.key, language)] = entry
    return entry


async def snapshot_async(feed, language, fresh=False):
    generation = get_hub().generation(feed.topic)
    key = (feed.key, language)
    entry = _memo.get(key)
    if _usable(entry, generation, fresh):
        return entry
    loop = asyncio.get_running_loop()
    flight = _inflight.get(key)
    if (
        flight is None
        or flight[0] != generation
        or flight[1] is not loop
        or (fresh and flight[2].done())
    ):
        future = read(_compute, feed, language, generation)
        _inflight[key] = flight = (generation, loop, future)
    return await asyncio.shield(flight[2])


def snapshot_sync(feed, language, fresh=False):
    generation = get_hub().generation(feed.topic)
    key = (feed.key, language)
    with _memo_lock:
        lock = _compute_locks.setdefault(key, threading.Lock())
    with lock:
        entry = _memo.get(key)
        if _usable(entry, generation, fresh):
            return entry
        return _compute(feed, language, generation)


def forget():
    """Empties the memo; the reader threads close their database connections and make way
    for new ones (tests: the test database is dropped at the end, and a test that may not
    use the database must not find a connection left open)."""
    global _readers
    with _memo_lock:
        _memo.clear()
        _inflight.clear()
    gathered = threading.Barrier(READER_THREADS, timeout=10)  # one task in each thread

    def close():
        gathered.wait()
        connections.close_all()

    old, _readers = _readers, _new_readers()
    for task in [old.submit(close) for _ in range(READER_THREADS)]:
        task.result()
    old.shutdown()


# --- the streams ----------------------------------------------------------------------------


class _Screen:
    """What one stream has sent: decides what to send next, and when the stream ends."""

    def __init__(self, feed, shown, seconds):
        self.feed = feed
        self.shown = shown
        self.deadline = time.monotonic() + seconds
        self.fresh = True  # the first snapshot must be recent: nobody may have published

    def opening(self):
        return f"retry: {RETRY_MILLISECONDS}\n\n".encode()

    def reply(self, changed, entry):
        """What to send after a wait: the message of ``entry`` (the snapshot read because the
        topic ``changed``; None when it could not be read), or a heartbeat after a quiet
        wait; nothing when the screen already shows that snapshot."""
        if not changed:
            return [heartbeat()]
        self.fresh = False
        if entry is None or entry.fingerprint == self.shown:
            return []
        self.shown = entry.fingerprint
        return [entry.message]

    def unreadable(self):
        """The database went away: nothing to send now, try again at the next wake-up."""
        logger.warning("live: %s could not be read", self.feed.key, exc_info=True)

    def left(self):
        """Seconds until the next heartbeat or the stream's end; None: the stream is over."""
        left = min(HEARTBEAT_SECONDS, self.deadline - time.monotonic())
        return left if left > 0 else None


async def async_events(feed, language, shown, seconds):
    hub, screen = get_hub(), _Screen(feed, shown, seconds)
    subscription = hub.subscribe(AsyncSubscription(feed.topic))
    try:
        yield screen.opening()
        changed = True
        while changed is not None:
            try:
                entry = await snapshot_async(feed, language, screen.fresh) if changed else None
            except Exception:  # noqa: BLE001
                entry = screen.unreadable()
            for message in screen.reply(changed, entry):
                yield message
            left = screen.left()
            changed = None if left is None else await subscription.wait(left)
    finally:
        hub.unsubscribe(subscription)


def sync_events(feed, language, shown, seconds):
    """The same for a WSGI thread (see ``async_events``)."""
    hub, screen = get_hub(), _Screen(feed, shown, seconds)
    subscription = hub.subscribe(ThreadSubscription(feed.topic))
    try:
        yield screen.opening()
        changed = True
        while changed is not None:
            try:
                entry = snapshot_sync(feed, language, screen.fresh) if changed else None
            except Exception:  # noqa: BLE001
                entry = screen.unreadable()
            finally:
                # Read in this request's thread: its connection goes back (to the pool) while
                # the stream waits, not kept for as long as the stream lasts.
                give_back_connections()
            yield from screen.reply(changed, entry)
            changed = subscription.wait(screen.left()) if screen.left() else None
    finally:
        hub.unsubscribe(subscription)


def last_shown(request, default=None):
    """What the screen shows: the Last-Event-ID of a reconnecting EventSource, else the
    ``fp`` it was opened with."""
    return request.headers.get("Last-Event-ID") or request.GET.get("fp") or default


def stream_response(request, feed, language=None):
    """The ``text/event-stream`` response for ``feed``, async under ASGI, else threaded."""
    language = language or translation.get_language()
    shown = last_shown(request)
    if isinstance(request, ASGIRequest):
        seconds = settings.LIVE_STREAM_SECONDS
        events = async_events(feed, language, shown, seconds)
        # The view's database work is done; the stream reads in worker threads of its own:
        # this request's thread must not keep a connection for as long as the stream lasts.
        connections.close_all()
    else:
        seconds = min(settings.LIVE_STREAM_SECONDS, settings.LIVE_WSGI_STREAM_SECONDS)
        events = sync_events(feed, language, shown, seconds)
        give_back_connections()  # the view's: a WSGI stream holds its thread, not a connection
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    for name, value in feed.headers:
        response[name] = value
    return response
