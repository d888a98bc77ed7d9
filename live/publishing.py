"""``publish_on_commit(*topics)``: after the writer's transaction commits, tell every server
process that these topics changed.

Publishing can never fail a write: the stroke is committed before anything is published, and a
broker that is down or slow (a Redis that refuses, or does not answer within
``REDIS_TIMEOUT``) is logged and then left alone for a few seconds, so that a dead broker costs
one timeout now and then, not one per stroke. Meanwhile the screens do not miss the change:
each process's hub re-checks what its screens show on its own (every second while its
listening connection is down, every ``SWEEP_SECONDS`` otherwise), and a screen without a
stream polls.
"""

import logging
import time

from django.db import transaction

from live import hub
from live.topics import named

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5  # after a failed publish, do not try again for this long
_down_until = 0.0


def publish_on_commit(*topics):
    """Publishes ``topics`` (in one message) once the current transaction commits; at once
    outside a transaction. Nothing is published for a transaction that rolls back."""
    topics = [named(topic) for topic in topics]  # the club's own (live.topics)
    transaction.on_commit(lambda: publish_now(topics), robust=True)


def publish_clause(*topics):
    """``(sql, params)``: an expression a writer's own SQL statement on the site's database can
    evaluate instead of calling ``publish_on_commit(*topics)`` — where the broker is that
    database's NOTIFY, it publishes as the statement commits, with no round trip of its own.
    None with any other broker (then ``publish_on_commit``)."""
    if time.monotonic() < _down_until:
        return None
    return hub.get_hub().broker.clause([named(topic) for topic in topics])


def publish_now(topics):
    """Publishes at once; never raises (a broker failure is logged)."""
    global _down_until
    if time.monotonic() < _down_until:
        return False
    broker = hub.get_hub().broker
    try:
        broker.publish(topics)
    except Exception as error:  # noqa: BLE001 - any broker failure must spare the write
        _down_until = time.monotonic() + RETRY_AFTER_SECONDS
        logger.warning(
            "live: publishing %s through %s failed (%s); screens catch up by themselves",
            " ".join(topics),
            broker.name,
            error,
        )
        return False
    return True
