"""One small interface, three brokers: in-process, PostgreSQL LISTEN/NOTIFY, Redis pub/sub.

A message is a list of topics that changed ("table.3 wall game.17"), nothing more: what the
screens show is read from the database by whoever receives it.

    broker.publish(topics)                 # sync, from the writer's on_commit; raises on failure
    await broker.listen(deliver, ready)    # the process's one listening connection: calls
                                           # ready() once listening, deliver(topics) for every
                                           # message; returns or raises when the connection
                                           # is lost (the hub then retries with back-off)

``broker_from_settings()`` picks one: ``LIVE_BROKER`` ("inprocess", "postgres", "redis") when
set, else Redis when ``REDIS_URL`` is set, else PostgreSQL when the database is, else the
in-process broker. Redis on a PostgreSQL site comes with PostgreSQL as its fallback
(``FallbackBroker``): a process whose Redis link is dead still reaches the others' screens.
"""

import asyncio
import contextlib
import logging
import time

from django.conf import settings

logger = logging.getLogger(__name__)

CHANNEL = "luza_live"  # one channel per database (PostgreSQL) or Redis server
IDLE_CHECK_SECONDS = 15  # a listening connection that heard nothing this long is checked


def encode(topics):
    return " ".join(topics)


def decode(payload):
    if isinstance(payload, bytes):
        payload = payload.decode()
    return payload.split()


class Broker:
    name = "?"

    def publish(self, topics):
        raise NotImplementedError

    def clause(self, topics):
        """An SQL expression and its parameters that publish ``topics`` as part of a
        writer's own statement on the site's database, or None where that cannot be."""
        return None

    async def listen(self, deliver, ready):
        raise NotImplementedError


class InProcessBroker(Broker):
    """The embedded default: publisher and screens are in the same (only) process."""

    name = "inprocess"

    def __init__(self):
        self._deliver = None

    def publish(self, topics):
        deliver = self._deliver
        if deliver is not None:  # nobody listens yet: no screen is open in this process
            deliver(list(topics))

    async def listen(self, deliver, ready):
        self._deliver = deliver
        ready()
        try:
            await asyncio.Event().wait()  # forever: publish() delivers directly
        finally:
            self._deliver = None


class PostgresBroker(Broker):
    """``NOTIFY luza_live, 'topics'`` through Django's connection; one ``LISTEN`` connection
    (psycopg 3, async) per server process. Notifications are per database."""

    name = "postgres"

    def __init__(self, channel=CHANNEL, connection_params=None):
        """``connection_params`` (psycopg's): another database than the site's (tests)."""
        self.channel = channel
        self._params = connection_params

    def clause(self, topics):
        """``pg_notify(…)``: a NOTIFY is sent as its statement's transaction commits."""
        if self._params is not None:  # another database than the site's
            return None
        return "pg_notify(%s, %s)", [self.channel, encode(topics)]

    def publish(self, topics):
        query, params = "SELECT pg_notify(%s, %s)", [self.channel, encode(topics)]
        if self._params is None:  # the site's own database connection
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute(query, params)
            return
        import psycopg

        with psycopg.connect(**self._params, autocommit=True) as conn:
            conn.execute(query, params)

    def connection_params(self):
        if self._params is not None:
            return self._params
        from django.db import connection

        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        return params

    async def listen(self, deliver, ready):
        import psycopg
        from psycopg import sql

        conn = await psycopg.AsyncConnection.connect(**self.connection_params(), autocommit=True)
        try:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
            ready()
            while True:
                async for notify in conn.notifies(timeout=IDLE_CHECK_SECONDS):
                    deliver(decode(notify.payload))
                await conn.execute("SELECT 1")  # quiet for a while: is the server still there?
        finally:
            await conn.close()


class RedisBroker(Broker):
    """``PUBLISH luza_live 'topics'``; one subscribed connection (redis-py's asyncio client)
    per server process, so several processes and machines all hear every change."""

    name = "redis"

    def __init__(self, url, channel=CHANNEL, timeout=0.5):
        self.url = url
        self.channel = channel
        self.timeout = timeout
        self._client = None

    def _publisher(self):
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(
                self.url, socket_timeout=self.timeout, socket_connect_timeout=self.timeout
            )
        return self._client

    def publish(self, topics):
        self._publisher().publish(self.channel, encode(topics))

    async def listen(self, deliver, ready):
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(
            self.url,
            socket_connect_timeout=max(self.timeout, 1),
            health_check_interval=IDLE_CHECK_SECONDS,
        )
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel)
            ready()
            while True:
                message = await pubsub.get_message(timeout=IDLE_CHECK_SECONDS)
                if message is None:
                    await pubsub.ping()  # quiet for a while: is the server still there?
                elif message.get("type") == "message":
                    deliver(decode(message["data"]))
        finally:
            await pubsub.aclose()
            await client.aclose()


class FallbackBroker(Broker):
    """A primary broker (Redis) with a fallback (PostgreSQL) that every process listens to as
    well: a process whose link to the primary is dead publishes through the fallback, so the
    other processes' screens hear its changes at once instead of at their next sweep. After
    a failure the primary is left alone for ``retry_after`` seconds (one timeout now and
    then, not one per stroke)."""

    def __init__(self, primary, fallback, retry_after=5.0):
        self.primary, self.fallback, self.retry_after = primary, fallback, retry_after
        self.name = f"{primary.name}+{fallback.name}"
        self._primary_down_until = 0.0

    def publish(self, topics):
        if time.monotonic() >= self._primary_down_until:
            try:
                self.primary.publish(topics)
                return
            except Exception as error:  # noqa: BLE001 - any failure: the fallback carries it
                self._primary_down_until = time.monotonic() + self.retry_after
                logger.warning(
                    "live: publishing through %s failed (%s); through %s meanwhile",
                    self.primary.name,
                    error,
                    self.fallback.name,
                )
        self.fallback.publish(topics)

    async def listen(self, deliver, ready):
        """Listens to both; ``ready`` once both listen. Either connection lost ends both (the
        hub retries them together)."""
        listening = set()

        def one_ready(name):
            listening.add(name)
            if len(listening) == 2:
                ready()

        tasks = [
            asyncio.create_task(self.primary.listen(deliver, lambda: one_ready("primary"))),
            asyncio.create_task(self.fallback.listen(deliver, lambda: one_ready("fallback"))),
        ]
        try:
            done, _pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # a lost connection's error, for the hub to log
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task


def broker_from_settings():
    choice = getattr(settings, "LIVE_BROKER", "") or ""
    redis_url = getattr(settings, "REDIS_URL", "") or ""
    is_postgres = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    if not choice:
        choice = "redis" if redis_url else "postgres" if is_postgres else "inprocess"
    if choice == "redis" and redis_url:
        redis = RedisBroker(redis_url, timeout=getattr(settings, "REDIS_TIMEOUT", 0.5))
        return FallbackBroker(redis, PostgresBroker()) if is_postgres else redis
    if choice == "postgres" and is_postgres:
        return PostgresBroker()
    if choice != "inprocess":
        logger.warning("LIVE_BROKER=%s cannot be used here: in-process broker instead", choice)
    return InProcessBroker()
