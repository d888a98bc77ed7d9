"""The three brokers carry a published change to a listening connection; the hub fans one
listening connection out to its subscribers; a dead broker never fails a write."""

import asyncio
import threading
import time
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from live import hub as hubs
from live import publishing
from live.brokers import (
    FallbackBroker,
    InProcessBroker,
    PostgresBroker,
    RedisBroker,
    broker_from_settings,
)
from live.hub import AsyncSubscription, Hub, ThreadSubscription
from tests.factories import ev, record, start
from tests.helpers import free_port, reachable, run_async


class Listening:
    """Runs ``broker.listen`` in a thread of its own (as the hub does) and keeps what it hears."""

    def __init__(self, broker):
        self.broker = broker
        self.heard = []
        self.ready = threading.Event()
        self.heard_something = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.task = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _deliver(self, topics):
        self.heard.append(topics)
        self.heard_something.set()

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(self.broker.listen(self._deliver, self.ready.set))
        try:
            self.loop.run_until_complete(self.task)
        except BaseException:  # noqa: BLE001 - cancelled at the end of the test
            pass

    def __enter__(self):
        self.thread.start()
        assert self.ready.wait(5), "the broker never started listening"
        return self

    def __exit__(self, *exc):
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(5)
        self.loop.close()


def assert_carries(broker):
    with Listening(broker) as listening:
        started = time.monotonic()
        broker.publish(["table.3", "wall", "game.17"])
        assert listening.heard_something.wait(3), f"{broker.name}: nothing heard"
        assert listening.heard == [["table.3", "wall", "game.17"]]
        return time.monotonic() - started


def test_the_in_process_broker_delivers_to_its_listener():
    broker = InProcessBroker()
    broker.publish(["wall"])  # nobody listens yet: dropped, no error
    assert assert_carries(broker) < 0.5


@pytest.mark.skipif(not reachable(5432), reason="no PostgreSQL on 127.0.0.1:5432")
def test_postgres_listen_notify_carries_a_change_between_connections():
    params = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "postgres"}
    broker = PostgresBroker(channel=f"luza_test_{uuid.uuid4().hex[:8]}", connection_params=params)
    assert assert_carries(broker) < 1


@pytest.mark.skipif(not reachable(6379), reason="no Redis on 127.0.0.1:6379")
def test_redis_pub_sub_carries_a_change_between_connections():
    broker = RedisBroker("redis://127.0.0.1:6379/15", channel=f"luza_test_{uuid.uuid4().hex}")
    assert assert_carries(broker) < 1


@pytest.mark.skipif(not (reachable(5432) and reachable(6379)), reason="needs PostgreSQL, Redis")
def test_a_process_whose_redis_link_is_dead_still_reaches_the_others_at_once():
    """Two server processes on Redis with PostgreSQL beside it: the first one's Redis is gone
    (nothing answers at its address), the second's is fine. A change the first publishes
    reaches the second's listener in well under 2 s, through PostgreSQL; and so does the
    next one, while the first leaves its dead Redis alone."""
    channel = f"luza_test_{uuid.uuid4().hex[:8]}"
    params = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "postgres"}
    dead = RedisBroker(f"redis://127.0.0.1:{free_port()}/15", channel=channel, timeout=0.3)
    healthy = RedisBroker("redis://127.0.0.1:6379/15", channel=channel)
    first = FallbackBroker(dead, PostgresBroker(channel=channel, connection_params=params))
    second = FallbackBroker(healthy, PostgresBroker(channel=channel, connection_params=params))
    with Listening(second) as listening:
        for topics in (["table.3"], ["table.4"]):
            listening.heard_something.clear()
            started = time.monotonic()
            first.publish(topics)
            assert listening.heard_something.wait(2), "the other process heard nothing"
            assert time.monotonic() - started < 2
            assert listening.heard[-1] == topics
        listening.heard_something.clear()
        second.publish(["wall"])  # its own Redis carries it, once
        assert listening.heard_something.wait(2)
        time.sleep(0.3)
        assert listening.heard[-1] == ["wall"] and listening.heard.count(["wall"]) == 1


def test_the_settings_pick_the_broker(settings):
    settings.LIVE_BROKER = ""
    settings.REDIS_URL = ""
    is_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    assert broker_from_settings().name == ("postgres" if is_postgres else "inprocess")
    settings.REDIS_URL = "redis://127.0.0.1:6379/15"
    # On PostgreSQL, Redis comes with PostgreSQL as its fallback (issue 27 item 6).
    assert broker_from_settings().name == ("redis+postgres" if is_postgres else "redis")
    settings.LIVE_BROKER = "inprocess"
    assert broker_from_settings().name == "inprocess"
    settings.LIVE_BROKER, settings.REDIS_URL = "redis", ""  # nothing to reach it with
    assert broker_from_settings().name == "inprocess"


# --- the hub --------------------------------------------------------------------------------


class FailingBroker(InProcessBroker):
    """A broker whose server is down: every attempt to listen fails."""

    name = "failing"

    def __init__(self):
        super().__init__()
        self.attempts = 0

    async def listen(self, deliver, ready):
        self.attempts += 1
        raise ConnectionRefusedError("the broker is down")


def test_one_listening_connection_wakes_every_subscriber_of_the_topic():
    broker = InProcessBroker()
    hub = Hub(broker)
    # The first subscription starts the hub; a screen subscribed before it was connected is
    # woken once it is (whatever changed meanwhile), one subscribed after has nothing to catch.
    screens, waiting = [], []
    for topic in ["table.3"] * 50 + ["table.4"]:
        screen = hub.subscribe(ThreadSubscription(topic))
        if not hub.connected:
            waiting.append(screen)
        screens.append(screen)
    *screens, other = screens
    try:
        deadline = time.monotonic() + 5
        while not hub.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert hub.connected and waiting  # the first, at least, came before
        assert all(screen.wait(5) for screen in waiting)  # a busy machine
        time.sleep(0.3)
        for screen in [*screens, other]:  # (a second wake-up of that start, if any)
            screen.wait(0)
        before = hub.generation("table.3"), hub.generation("table.4")
        broker.publish(["table.3"])
        assert all(screen.wait(2) for screen in screens)
        assert not other.wait(0.2)  # another table's screen is not woken
        assert (hub.generation("table.3"), hub.generation("table.4")) == (before[0] + 1, before[1])
        assert hub.subscriber_count() == 51
        for screen in screens:
            hub.unsubscribe(screen)
        assert hub.subscriber_count() == 1
    finally:
        hub.stop()


def test_a_screen_woken_by_a_change_keeps_its_heartbeat_timer():
    """A stroke wakes a hall of screens at once: none of them re-arms its heartbeat timer for
    it (that was a tenth of a worker's time in the fan-out); the quiet wait after the change
    still ends when the first timer was due."""

    async def scenario():
        subscription = AsyncSubscription("table.3")
        loop = asyncio.get_running_loop()
        started = loop.time()
        loop.call_later(0.1, subscription._set)
        assert await subscription.wait(0.3) is True  # the change, at 0.1 s
        assert await subscription.wait(0.3) is False  # the heartbeat, due at 0.3 s, not 0.4 s
        quiet = loop.time() - started
        assert await subscription.wait(0.05) is False  # the next heartbeat: a new timer
        subscription.close()
        return quiet

    assert 0.28 <= run_async(scenario()) < 0.38


def test_a_dead_broker_degrades_to_the_hub_checking_every_second(monkeypatch):
    monkeypatch.setattr(hubs, "SWEEP_SECONDS", 3600)  # only the outage makes it sweep
    broker = FailingBroker()
    hub = Hub(broker)
    screen = hub.subscribe(ThreadSubscription("table.3"))
    try:
        started = time.monotonic()
        assert screen.wait(3), "the screen must be refreshed while the broker is down"
        assert time.monotonic() - started < 2.5
        assert not hub.connected
        assert screen.wait(3)  # and again, about every second
        assert broker.attempts >= 1  # and it keeps trying to listen (with back-off)
    finally:
        hub.stop()


# --- publishing never fails a write -----------------------------------------------------------


@pytest.fixture
def dead_redis_broker(settings):
    settings.LIVE_BROKER = "redis"
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    hubs.reset_hub()
    publishing._down_until = 0.0
    yield
    hubs.reset_hub()
    publishing._down_until = 0.0


@pytest.mark.django_db
def test_a_stroke_is_recorded_while_the_broker_is_down(
    dead_redis_broker, table, marker_user, caplog, django_capture_on_commit_callbacks
):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game = record(game, marker_user, ev("foul", fouls=("miss",)))
    assert callbacks, "the stroke publishes once it commits"
    assert game.last_seq == 1
    assert time.monotonic() - started < 3
    assert "publishing" in caplog.text and "failed" in caplog.text
    # The next strokes do not wait for the dead broker again for a while.
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        game = record(game, marker_user, ev("foul", fouls=("miss",)))
    assert game.last_seq == 2 and time.monotonic() - started < 0.5


@pytest.fixture
def broker_choice(settings):
    """Sets ``LIVE_BROKER`` for the test: ``broker_choice("postgres")``; the hub is made anew."""

    def choose(name):
        settings.LIVE_BROKER = name
        hubs.reset_hub()

    yield choose
    hubs.reset_hub()


@pytest.mark.django_db
def test_a_stroke_publishes_its_table_the_wall_and_its_console(
    broker_choice, table, marker_user, django_capture_on_commit_callbacks, monkeypatch
):
    broker_choice("inprocess")  # (as Redis would: a publish of its own once committed)
    published = []
    monkeypatch.setattr(publishing, "publish_now", published.append)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    with django_capture_on_commit_callbacks(execute=True):
        game = record(game, marker_user, ev("foul", fouls=("miss",)))
    expected = [f"table.{table.number}", "wall", f"game.{game.pk}"]
    assert published[-1] == expected
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        record(game, marker_user, ev("foul", fouls=("miss",)))
    assert len(callbacks) == 1  # published after the commit, not before


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's NOTIFY")
def test_on_postgresql_the_stroke_s_own_statement_notifies(
    broker_choice, table, marker_user, monkeypatch
):
    """The write that records the stroke carries its NOTIFY: the listeners hear the topics
    once it commits, with no publish of its own; a refused stroke is heard by nobody."""
    broker_choice("postgres")
    published = []
    monkeypatch.setattr(publishing, "publish_now", published.append)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    published.clear()  # the start's
    with Listening(PostgresBroker()) as listening:
        with CaptureQueriesContext(connection) as queries:
            game = record(game, marker_user, ev("foul", fouls=("miss",)))
        assert listening.heard_something.wait(3), "nothing heard"
        assert listening.heard == [[f"table.{table.number}", "wall", f"game.{game.pk}"]]
        assert [q for q in queries if "pg_notify" in q["sql"]], "the NOTIFY is not in the write"
        listening.heard_something.clear()
        with pytest.raises(services.StaleEvent):
            services.record_event(game=game, expected_seq=0, event=ev("stroke"), user=None)
        assert not listening.heard_something.wait(0.5)
    assert published == []
