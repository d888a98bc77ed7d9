"""Django's Redis cache that survives a dead Redis: a slow site, not a broken one.

The boards' rendered fragments and the ratings are only a cache: when Redis is down (refused,
unreachable, or not answering within the short socket timeouts) every call answers as a miss
— ``get`` gives the default, ``set`` stores nothing — and the page is computed. The failure is
logged (the first at once, then at most once a minute with the count), and for a few seconds
after one this process does not even try, so that a Redis that hangs costs one timeout now and
then instead of one per call.
"""

import logging
import threading
import time
from functools import wraps

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

FAILURES = (RedisConnectionError, RedisTimeoutError)
RETRY_AFTER_SECONDS = 5  # after a failure, answer misses without asking Redis for this long
REPORT_EVERY_SECONDS = 60


def _or_miss(name, answer):
    """RedisCache's method ``name``, a Redis failure giving ``answer(*args, **kwargs)``."""
    method = getattr(RedisCache, name)

    @wraps(method)
    def wrapper(self, *args, **kwargs):
        if self._resting():
            return answer(*args, **kwargs)
        try:
            return method(self, *args, **kwargs)
        except FAILURES as error:
            self._failed(name, error)
            return answer(*args, **kwargs)

    return wrapper


def _nothing(*args, **kwargs):
    return None


def _false(*args, **kwargs):
    return False


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._unreported = 0
        self._reported_at = None

    def _resting(self):
        return time.monotonic() < self._down_until

    def _failed(self, operation, error):
        now = time.monotonic()
        with self._lock:
            self._down_until = now + RETRY_AFTER_SECONDS
            self._unreported += 1
            if self._reported_at is not None and now - self._reported_at < REPORT_EVERY_SECONDS:
                return
            count, self._unreported, self._reported_at = self._unreported, 0, now
        logger.warning(
            "Redis cache unavailable (%s: %s); computing instead of caching "
            "(%d failed call(s) since the last report)",
            operation,
            error,
            count,
        )

    # Every call answers, Redis or not: as a miss (the default, nothing stored or found).
    get = _or_miss("get", lambda key, default=None, version=None: default)
    set = _or_miss("set", _nothing)
    add = _or_miss("add", _false)
    touch = _or_miss("touch", _false)
    delete = _or_miss("delete", _false)
    get_many = _or_miss("get_many", lambda *args, **kwargs: {})
    has_key = _or_miss("has_key", _false)
    set_many = _or_miss("set_many", lambda data, *args, **kwargs: list(data))
    delete_many = _or_miss("delete_many", _nothing)
    clear = _or_miss("clear", _false)

    def incr(self, key, delta=1, version=None):
        # A counter has no "computed instead" value: say it is missing, as for an unknown key.
        try:
            if self._resting():
                raise ValueError(f"Key '{key}' not found (Redis unavailable)")
            return super().incr(key, delta, version)
        except FAILURES as error:
            self._failed("incr", error)
            raise ValueError(f"Key '{key}' not found (Redis unavailable)") from error
