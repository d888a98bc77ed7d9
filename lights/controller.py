"""The loop that keeps every table's light as its clock says.

One controller drives the relays of the club (``manage.py lights``; ``leader.py`` makes sure
that of several processes only one does). It holds the relays' driver connection and:

- wakes when a clock or a light changes (the ``lights`` topic of ``live``, published after
  the write commits: never for a rollback) and every ``TICK`` seconds (the grace after a
  pause ends, a broker that carries no message);
- reads what every light should be (``selectors.wanted_lights``: one query) and switches
  each relay that is not so; a relay that does not confirm within ``CONFIRM_SECONDS`` is
  asked again, and after ``TRIES`` is shown as not answering;
- hears every relay's state: one reporting ON for a table whose light should be off, when
  it was not asked to, was lit by hand — the alarm (``LIGHT_GUARD``: ``warn`` shows it,
  ``switch_off`` also switches it off again, ``off`` does neither);
- on every (re)connection sets every relay to what the clocks say (reconciled: a broker
  restarted, the controller restarted), and says on each heartbeat that it holds the broker.

The database is used from one thread of its own; nothing here ever blocks a request.
"""

import asyncio
import contextvars
import logging
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.db import DatabaseError, close_old_connections, connections

from lights import selectors, services
from live import topics
from live.hub import AsyncSubscription, get_hub

logger = logging.getLogger(__name__)

TICK = 0.5  # seconds between two looks at the clocks without a message
CONFIRM_SECONDS = 3.0  # a relay that has not confirmed a command by then is asked again
TRIES = 3  # commands sent before a relay is shown as not answering
RECONNECT_SECONDS = (1, 2, 5, 10)  # back-off after a lost connection


@dataclass
class Relay:
    """What the controller knows of one table's relay."""

    table_id: int
    number: int
    wanted: bool | None = None
    on: bool | None = None  # its last reported state
    online: bool | None = None
    sent: bool | None = None  # the last command
    sent_at: float = 0.0
    tries: int = 0
    answering: bool = True
    alarm: bool = False


class Controller:
    def __init__(self, driver, *, guard="warn", name=""):
        self.driver = driver
        self.guard = guard
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.relays = {}  # topic -> Relay
        # What relays no table had yet told (topic -> (kind, value)): a retained will comes
        # once, on subscribing, possibly before the first reconcile reads the tables.
        self.unplaced = {}
        self.connected = False
        self.commands = 0  # sent so far (tests, the bench)
        self._db = ThreadPoolExecutor(1, thread_name_prefix="lights-db")
        self._wake = None
        self._last_beat = 0.0
        self._heard = {}  # table pk -> what to store of its relay at the next write

    # --- the database, from its own thread ------------------------------------------------

    async def _db_call(self, function, *args, **kwargs):
        def call():
            close_old_connections()
            try:
                return function(*args, **kwargs)
            finally:
                close_old_connections()

        # Within the controller's context: its club (``manage.py lights --club``).
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self._db, context.run, call)

    def close(self):
        self._db.submit(connections.close_all).result(timeout=10)
        self._db.shutdown()

    # --- the loop -------------------------------------------------------------------------

    async def serve(self, stop=None):
        """Runs until ``stop`` (an asyncio.Event) is set: connects, controls, reconnects."""
        stop = stop or asyncio.Event()
        self._wake = asyncio.Event()
        hub = get_hub()
        subscriptions = [
            hub.subscribe(AsyncSubscription(topic)) for topic in (topics.CLOCKS, topics.LIGHTS)
        ]
        hearing = [asyncio.create_task(self._hear(s)) for s in subscriptions]
        attempt = 0
        try:
            while not stop.is_set():
                ok = await self._session(stop)
                attempt = 0 if ok else attempt + 1
                if not stop.is_set():
                    delay = RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)]
                    await _sleep_or(stop, delay)
        finally:
            for task, subscription in zip(hearing, subscriptions, strict=True):
                task.cancel()
                hub.unsubscribe(subscription)

    async def _hear(self, subscription):
        while True:
            if await subscription.wait(60):
                self._wake.set()

    async def _session(self, stop):
        """One connection to the broker, until it is lost or ``stop``: True if it connected."""
        ready = asyncio.Event()
        running = asyncio.create_task(self.driver.run(self._report, ready.set))
        stopping = asyncio.create_task(stop.wait())
        ticking = None
        try:
            await asyncio.wait({running, asyncio.create_task(ready.wait())},
                               return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
            if not ready.is_set():
                running.result()  # the connection's error
                return False
            self.connected = True
            logger.info("lights: connected to the relays through %s", self.driver.name)
            for relay in self.relays.values():  # on every connection: all set anew
                relay.sent, relay.tries, relay.on = None, 0, None
            await self._beat(force=True)
            ticking = asyncio.create_task(self._tick())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if running.done():
                running.result()
            return True
        except Exception as error:  # noqa: BLE001 - any driver failure: reconnect later
            logger.warning("lights: the relays' broker is not reachable (%s)", error)
            return ready.is_set()
        finally:
            for task in (running, stopping, ticking):
                if task is not None:
                    task.cancel()
            self.connected = False
            await self._db_call(services.beat, connected=False, name=self.name)

    async def _tick(self):
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), TICK)
            except TimeoutError:
                pass
            self._wake.clear()
            try:
                await self.reconcile()
                await self._write()
                await self._beat()
            except DatabaseError as error:  # a busy or restarting database: the next tick
                logger.warning("lights: the clocks could not be read (%s)", error)

    async def _write(self):
        """What was heard of the relays since the last write, in one transaction."""
        heard, self._heard = self._heard, {}
        if heard:
            try:
                await self._db_call(services.record_states, heard)
            except DatabaseError:
                for table_id, fields in heard.items():  # kept for the next write
                    self._heard[table_id] = fields | self._heard.get(table_id, {})
                raise

    def _note(self, relay, **fields):
        self._heard.setdefault(relay.table_id, {"number": relay.number}).update(fields)

    async def _beat(self, force=False):
        if force or time.monotonic() - self._last_beat >= selectors.HEARTBEAT_SECONDS:
            self._last_beat = time.monotonic()
            await self._db_call(services.beat, connected=self.connected, name=self.name)

    # --- deciding and switching -----------------------------------------------------------

    async def reconcile(self):
        """Every relay switched to what the clocks say (a command per relay that is not)."""
        wanted = await self._db_call(selectors.wanted_lights)
        for topic in set(self.relays) - set(wanted):
            del self.relays[topic]  # a relay taken off its table
        now = time.monotonic()
        commands = []
        for topic, (table_id, number, on) in wanted.items():
            if topic not in self.relays:
                self.relays[topic] = Relay(table_id, number)
                if topic in self.unplaced:  # it spoke before its table was read
                    self._report(topic, *self.unplaced.pop(topic))
            relay = self.relays[topic]
            relay.table_id, relay.number = table_id, number
            if relay.wanted != on:
                relay.wanted, relay.tries = on, 0
                if on and relay.alarm:
                    self._alarm(relay, False)
            if self._keep(topic, relay, now):
                commands.append(self.driver.switch(topic, relay.wanted))
        self.commands += len(commands)
        await asyncio.gather(*commands)  # every relay at once (40 tables in one commit)

    def _keep(self, topic, relay, now):
        """Whether ``relay`` is to be sent a command now (it is noted as sent)."""
        if relay.on == relay.wanted:
            relay.tries = 0
            if not relay.answering:
                relay.answering = True
                self._note(relay, answering=True)
            return False
        if relay.alarm and self.guard != "switch_off":
            return False  # lit by hand, and the club only wants to know: left lit, shown
        waited = now - relay.sent_at
        if relay.sent == relay.wanted and waited < CONFIRM_SECONDS:
            return False  # asked: its answer is on its way
        if relay.sent == relay.wanted and relay.tries >= TRIES:
            if relay.answering:
                relay.answering = False
                logger.warning("lights: the relay %s does not answer", topic)
                self._note(relay, answering=False)
            return False
        relay.tries = relay.tries + 1 if relay.sent == relay.wanted else 1
        relay.sent, relay.sent_at = relay.wanted, now
        return True

    def _report(self, topic, kind, value):
        """A relay told its state (in the loop): kept, stored, the alarm decided."""
        relay = self.relays.get(topic)
        if relay is None:  # no table has this relay (yet): kept for the next reconcile
            if len(self.unplaced) < 1000 or topic in self.unplaced:
                self.unplaced[topic] = (kind, value)
            return
        if kind == "online":
            back = value and relay.online is False
            relay.online = value
            self._note(relay, online=value)
            if back:
                relay.sent, relay.on = None, None  # back online: set it as the clocks say
            self._wake.set()
            return
        relay.on, relay.answering = value, True
        self._note(relay, on=value, answering=True)
        lit_by_hand = value and relay.wanted is False and relay.sent is not True
        if lit_by_hand and not relay.alarm and self.guard != "off":
            self._alarm(relay, True)
        elif relay.alarm and (not value or relay.wanted):
            self._alarm(relay, False)
        self._wake.set()

    def _alarm(self, relay, raised):
        relay.alarm = raised
        switched_off = raised and self.guard == "switch_off"
        if raised:
            logger.warning("lights: table %s is lit without a clock", relay.number)
            relay.sent, relay.tries = None, 0  # under switch_off: switched off again
        self._note(relay, alarm=raised, switched_off=switched_off)


async def _sleep_or(stop, seconds):
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass
