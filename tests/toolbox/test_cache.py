"""A dead Redis is a slow site, not a broken one: cache failures are misses, logged."""

import socket
import time
import uuid

import pytest
from django.core.cache import cache

from records import rating
from tests.factories import (
    PlayerFactory,
    TableFactory,
    cork_stats,
    ev,
    finished,
    record,
    start,
)
from tests.helpers import poll, reachable, shown_fp
from toolbox import cache as resilient

pytestmark = pytest.mark.django_db


def use_redis_at(settings, url, timeout=0.5):
    settings.CACHES = {
        "default": {
            "BACKEND": "toolbox.cache.ResilientRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"luza-dead-{uuid.uuid4().hex}",  # this test's keys only
            "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
        }
    }


@pytest.fixture
def dead_redis(settings):
    """REDIS_URL naming a port where nothing listens (connection refused)."""
    use_redis_at(settings, "redis://127.0.0.1:1/0")  # after fresh_caches emptied the old one
    yield
    rating._memo.clear()


@pytest.fixture
def silent_redis(settings):
    """A "Redis" that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)  # the kernel completes the handshakes; nobody ever reads
    use_redis_at(settings, f"redis://127.0.0.1:{server.getsockname()[1]}/0", timeout=0.3)
    yield
    server.close()


def test_boards_leaderboards_player_and_game_pages_answer_with_redis_down(
    client, dead_redis, marker_user, caplog
):
    table = TableFactory(number=3)
    anna, boris = PlayerFactory(full_name="Анна Доступная"), PlayerFactory()
    game = start(table, "cork", [anna, boris], marker_user)
    board = client.get("/tables/3/board/")
    assert board.status_code == 200
    old_fp = shown_fp(board.content.decode())
    assert poll(client, "/tables/3/board/", old_fp).status_code == 204

    game = record(game, marker_user, ev("foul", fouls=("miss",)))
    changed = poll(client, "/tables/3/board/", old_fp)
    assert changed.status_code == 200
    assert shown_fp(changed.content.decode()) != old_fp

    assert client.get("/board/").status_code == 200

    # A finished game for the ratings and the leaderboard to compute.
    finished("cork", [(anna, "win", 0, cork_stats()), (boris, "loss", 3, cork_stats())], number=5)
    leaderboard = client.get("/leaderboards/", {"variant": "cork", "min_games": 1})
    assert leaderboard.status_code == 200
    assert "Анна Доступная" in leaderboard.content.decode()
    player_page = client.get(f"/players/{anna.pk}/")
    assert player_page.status_code == 200
    assert "Анна Доступная" in player_page.content.decode()
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert "Redis cache unavailable" in caplog.text


def test_a_failure_is_a_miss_and_is_reported_once_a_minute(dead_redis, caplog, monkeypatch):
    monkeypatch.setattr(resilient, "RETRY_AFTER_SECONDS", 0)  # ask Redis every time
    assert cache.get("k", "fallback") == "fallback"
    assert cache.set("k", 1) is None
    assert cache.add("k", 1) is False
    assert cache.get_many(["a", "b"]) == {}
    assert cache.set_many({"a": 1}) == ["a"]
    assert cache.delete("k") is False
    assert cache.get_or_set("k", 7) == 7
    with pytest.raises(ValueError):
        cache.incr("k")
    reports = [r for r in caplog.records if "Redis cache unavailable" in r.getMessage()]
    assert len(reports) == 1
    assert "Connection refused" in reports[0].getMessage()


def test_a_redis_that_never_answers_costs_one_timeout_then_nothing(silent_redis, caplog):
    started = time.monotonic()
    assert cache.get("k", "fallback") == "fallback"
    first = time.monotonic() - started
    assert 0.2 < first < 2  # the socket timeout, not the OS's minutes
    started = time.monotonic()
    for _ in range(50):
        assert cache.get("k") is None
    assert time.monotonic() - started < 0.2  # resting: Redis is not asked again for a while
    assert "Redis cache unavailable" in caplog.text


def test_a_live_redis_is_used_as_before(settings):
    if not reachable(6379):
        pytest.skip("no Redis on 127.0.0.1:6379")
    use_redis_at(settings, "redis://127.0.0.1:6379/15")
    cache.set("luza-dead-redis-probe", "here", 5)
    try:
        assert cache.get("luza-dead-redis-probe") == "here"
    finally:
        cache.delete("luza-dead-redis-probe")
