"""The hub: one listening broker connection per server process, fanned out in memory.

Screens' streams ``subscribe`` to a topic; the hub's thread runs the broker's ``listen`` (its
own asyncio loop, so it serves ASGI and WSGI processes alike) and, for each message, bumps the
topic's *generation* and wakes that topic's subscribers — an asyncio stream through its own
event loop (one ``call_soon_threadsafe`` per loop and message, not one per screen), a
WSGI stream through a threading event. A woken stream asks ``snapshot`` for what its screen
should show: computed once per topic generation and language in the process, whatever the
number of screens.

The hub also wakes every subscribed topic on its own: every ``SWEEP_SECONDS`` (changes nobody
published: a table edited, a result that has been shown long enough), every second while the
broker is unreachable (the screens degrade to being polled by the hub, one query per topic
and process a second, not one per screen), and once when the listening connection is back.
The thread starts with the first subscriber, so nothing is started by merely importing this.
"""

import asyncio
import logging
import threading
import time

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 15


def topics_of(topic):
    """A subscription's topics: one topic, or a tuple of them (a screen that follows several,
    e.g. a player's page: his own topic and his tournament's)."""
    return (topic,) if isinstance(topic, str) else tuple(topic)


OUTAGE_SWEEP_SECONDS = 1
MAX_BACKOFF_SECONDS = 30


class AsyncSubscription:
    """A stream in an asyncio loop: ``await wait(timeout)`` is True when its topic changed,
    False when ``timeout`` seconds passed first.

    A bare future per wait (no task, no ``wait_for``): cheap for thousands of idle streams,
    and a stream cancelled while it waits (its client went away) ends at once. The timer is
    armed once per timeout, not once per wait: a change wakes a hall of screens at once, and
    each would otherwise cancel a timer and arm a new one."""

    def __init__(self, topic):
        self.topic = topic
        self.loop = asyncio.get_running_loop()
        self._changed = False
        self._waiter = None
        self._timer = None
        self._timed_out = False

    def _set(self):  # in the loop's thread (the hub calls it through call_soon_threadsafe)
        self._changed = True
        _resolve(self._waiter)

    def nudge(self):
        """Wakes the waiter as a change of its topic would (in the loop's thread)."""
        self._set()

    def _time_up(self):
        self._timer, self._timed_out = None, True
        _resolve(self._waiter)

    async def wait(self, timeout):
        if not self._changed and not self._timed_out:
            if self._timer is None:
                self._timer = self.loop.call_later(timeout, self._time_up)
            self._waiter = self.loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        changed, self._changed = self._changed, False
        if not changed:
            self._timed_out = False
        return changed

    def close(self):
        if self._timer is not None:
            self._timer.cancel()


def _resolve(waiter):
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


class ThreadSubscription:
    """A stream in a WSGI thread: ``wait(timeout)`` blocks the thread until a change."""

    loop = None

    def __init__(self, topic):
        self.topic = topic
        self._event = threading.Event()

    def _set(self):
        self._event.set()

    def wait(self, timeout):
        changed = self._event.wait(timeout)
        self._event.clear()
        return changed

    def close(self):
        pass


def _wake(subscriptions):
    for subscription in subscriptions:
        subscription._set()


class Hub:
    def __init__(self, broker):
        self.broker = broker
        self.connected = False
        self._lock = threading.Lock()
        self._subscribers = {}  # topic -> set of subscriptions
        self._generations = {}  # topic -> int, bumped by every change
        self._thread = None
        self._stopped = False
        self._stopping = None
        self._loop = None

    # --- the screens' side ----------------------------------------------------------------

    def subscribe(self, subscription):
        with self._lock:
            for topic in topics_of(subscription.topic):
                self._subscribers.setdefault(topic, set()).add(subscription)
        self._start()
        return subscription

    def unsubscribe(self, subscription):
        subscription.close()
        with self._lock:
            for topic in topics_of(subscription.topic):
                subscribers = self._subscribers.get(topic)
                if subscribers is not None:
                    subscribers.discard(subscription)
                    if not subscribers:
                        del self._subscribers[topic]

    def generation(self, topic):
        """How many changes the topic has seen (of several topics: their sum, which grows
        with any of them)."""
        return sum(self._generations.get(name, 0) for name in topics_of(topic))

    def subscriber_count(self):
        with self._lock:
            return len({sub for subscribers in self._subscribers.values() for sub in subscribers})

    # --- the broker's side ----------------------------------------------------------------

    def deliver(self, topics):
        """Topics changed: wake their subscribers (any thread may call this)."""
        by_loop = {}
        with self._lock:
            for topic in topics:
                self._generations[topic] = self._generations.get(topic, 0) + 1
                for subscription in self._subscribers.get(topic, ()):
                    by_loop.setdefault(subscription.loop, {})[subscription] = None
        for loop, subscriptions in by_loop.items():
            if loop is None:
                _wake(subscriptions)
            else:
                try:
                    loop.call_soon_threadsafe(_wake, subscriptions)
                except RuntimeError:  # that loop is closed: its streams are gone
                    pass

    def sweep(self):
        with self._lock:
            topics = list(self._subscribers)
        if topics:
            self.deliver(topics)

    def _start(self):
        with self._lock:
            if self._stopped or (self._thread is not None and self._thread.is_alive()):
                return
            thread = threading.Thread(target=self._run, name="live-hub", daemon=True)
            thread.start()
            self._thread = thread  # only once started: ``stop`` may join it at any moment

    def _run(self):
        asyncio.run(self._main())

    async def _main(self):
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        if self._stopped:  # stopped while this thread was starting
            return
        sweeper = asyncio.create_task(self._sweeper())
        delay = 0.5
        try:
            while not self._stopping.is_set():
                listening = asyncio.create_task(self.broker.listen(self.deliver, self._ready))
                stop = asyncio.create_task(self._stopping.wait())
                await asyncio.wait({listening, stop}, return_when=asyncio.FIRST_COMPLETED)
                if stop.done():
                    listening.cancel()
                    await asyncio.gather(listening, return_exceptions=True)
                    break
                stop.cancel()
                error = listening.exception()
                was_connected, self.connected = self.connected, False
                if was_connected:
                    delay = 0.5
                logger.warning(
                    "live: %s broker connection lost or refused (%s); retrying in %.1f s, "
                    "screens are refreshed every %d s meanwhile",
                    self.broker.name,
                    error,
                    delay,
                    OUTAGE_SWEEP_SECONDS,
                )
                try:
                    await asyncio.wait_for(self._stopping.wait(), delay)
                except TimeoutError:
                    pass
                delay = min(delay * 2, MAX_BACKOFF_SECONDS)
        finally:
            sweeper.cancel()
            self.connected = False

    def _ready(self):
        if not self.connected:
            logger.info("live: listening through the %s broker", self.broker.name)
        self.connected = True
        self.sweep()  # whatever changed while nobody listened

    async def _sweeper(self):
        last = time.monotonic()
        while True:
            await asyncio.sleep(OUTAGE_SWEEP_SECONDS)
            now = time.monotonic()
            if not self.connected or now - last >= SWEEP_SECONDS:
                last = now
                self.sweep()

    def stop(self, timeout=5):
        """Stops the thread for good (tests)."""
        with self._lock:
            self._stopped = True
            thread = self._thread
        loop = self._loop
        if loop is not None and self._stopping is not None:
            try:
                loop.call_soon_threadsafe(self._stopping.set)
            except RuntimeError:
                pass
        if thread is not None:
            thread.join(timeout)


_hub = None
_hub_lock = threading.Lock()


def get_hub():
    """This process's hub, made on first use with the broker the settings choose."""
    global _hub
    if _hub is None:
        with _hub_lock:
            if _hub is None:
                from live.brokers import broker_from_settings

                _hub = Hub(broker_from_settings())
    return _hub


def reset_hub():
    """Stops and forgets this process's hub (tests that change the broker's settings)."""
    global _hub
    with _hub_lock:
        hub, _hub = _hub, None
    if hub is not None:
        hub.stop()
