"""With REDIS_URL the server's processes share one cache: what one renders, the others reuse."""

import uuid

import pytest
import redis
from django.core.cache import cache

from boards import fragments
from records import rating
from tests.factories import ev, record, start
from tests.helpers import poll, reachable, shown_fp

pytestmark = pytest.mark.django_db

BOARD = "/tables/3/board/"


@pytest.fixture
def redis_cache(settings):
    if not reachable(6379):
        pytest.skip("no Redis on 127.0.0.1:6379")
    prefix = f"luza-test-{uuid.uuid4().hex}"  # this test's keys only
    settings.CACHES = {
        "default": {
            "BACKEND": "toolbox.cache.ResilientRedisCache",
            "LOCATION": "redis://127.0.0.1:6379/15",
            "KEY_PREFIX": prefix,
        }
    }
    yield cache
    client = redis.Redis(db=15)  # not cache.clear(): that would empty the whole database
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_a_board_rendered_by_one_process_is_served_by_the_next(
    client, table, marker_user, redis_cache, monkeypatch
):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    old_fp = shown_fp(client.get(BOARD).content.decode())
    record(game, marker_user, ev("foul", fouls=("miss",)))
    first = poll(client, BOARD, old_fp)  # renders it into Redis

    def no_render(*args, **kwargs):
        raise AssertionError("the board must come from the shared cache")

    monkeypatch.setattr(fragments, "table_context", no_render)
    second = poll(client, BOARD, old_fp)
    assert second.status_code == 200 and second.content == first.content


def test_ratings_computed_by_one_process_are_read_by_the_next(redis_cache, monkeypatch):
    rating.forget()
    computed = rating.current("cork")
    rating._memo.clear()  # another process: nothing in its memory

    def no_recompute(*args, **kwargs):
        raise AssertionError("the ratings must come from those stored")

    monkeypatch.setattr(rating, "recompute", no_recompute)
    read = rating.current("cork")  # stored in the database now (issue 27 item 8)
    assert (read.ratings, read.games, read.count) == (
        computed.ratings,
        computed.games,
        computed.count,
    )
