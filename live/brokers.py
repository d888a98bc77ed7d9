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
in-process broker.
"""

import asyncio
import logging

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


def broker_from_settings():
    choice = getattr(settings, "LIVE_BROKER", "") or ""
    redis_url = getattr(settings, "REDIS_URL", "") or ""
    is_postgres = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    if not choice:
        choice = "redis" if redis_url else "postgres" if is_postgres else "inprocess"
    if choice == "redis" and redis_url:
        return RedisBroker(redis_url, timeout=getattr(settings, "REDIS_TIMEOUT", 0.5))
    if choice == "postgres" and is_postgres:
        return PostgresBroker()
    if choice != "inprocess":
        logger.warning("LIVE_BROKER=%s cannot be used here: in-process broker instead", choice)
    return InProcessBroker()
