"""Two markers (or a double tap) racing on one game: exactly one stroke is recorded.

These need concurrent connections (and, for the other writes, row locks): PostgreSQL only.
"""

import threading
import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import rules, services
from games.models import Event, Game
from tests.factories import start
from tests.helpers import HX

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL: SQLite has no SELECT … FOR UPDATE and serialises writers",
    ),
]

FOUL = rules.Event("foul", fouls=("miss",))


def run_together(count, work):
    """Runs ``work(i)`` in ``count`` threads released at the same moment; returns results."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def target(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as error:  # noqa: BLE001 - reported by the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.fixture
def slow_replay(monkeypatch):
    """Each writer takes a while between reading the game and writing, so both read it as
    it was before either wrote."""
    read = services._read_for_a_stroke

    def slow_read(game):
        found = read(game)
        time.sleep(0.2)
        return found

    monkeypatch.setattr(services, "_read_for_a_stroke", slow_read)


def test_two_posts_with_the_same_seq_record_exactly_one(table, players, marker_user, slow_replay):
    game = start(table, "cork", players, marker_user)

    def post(_i):
        fresh = Game.objects.get(pk=game.pk)
        return services.record_event(game=fresh, expected_seq=0, event=FOUL, user=marker_user)

    results = run_together(2, post)
    applied = [r for r in results if isinstance(r, Game)]
    stale = [r for r in results if isinstance(r, services.StaleEvent)]
    assert (len(applied), len(stale)) == (1, 1), results
    assert list(Event.objects.values_list("seq", flat=True)) == [1]
    game.refresh_from_db()
    assert game.last_seq == 1


def test_two_markers_tapping_at_once_through_the_views(
    table, players, marker_user, admin_user, slow_replay
):
    game = start(table, "cork", players, marker_user)
    clients = []
    for user in (marker_user, admin_user):
        client = Client()
        client.force_login(user)
        clients.append(client)
    url = reverse("games:record", args=[game.pk])

    def tap(i):
        return clients[i].post(url, {"seq": 0, "kind": "foul", "fouls": "miss"}, headers=HX)

    responses = run_together(2, tap)
    assert sorted(r.status_code for r in responses) == [200, 409], responses
    rejected = next(r for r in responses if r.status_code == 409).content.decode()
    assert str(services.StaleEvent.message) in rejected
    assert 'data-seq="1"' in rejected  # the fresh console, with the other marker's stroke
    assert Event.objects.count() == 1


def test_many_writers_retrying_lose_no_stroke(table, players, marker_user):
    game = start(table, "cork", players, marker_user, target=10**9)
    writers, strokes_each = 6, 5

    def write(_i):
        done = 0
        while done < strokes_each:
            fresh = Game.objects.get(pk=game.pk)
            try:
                services.record_event(
                    game=fresh,
                    expected_seq=fresh.last_seq,
                    event=rules.Event("stroke"),
                    user=marker_user,
                )
            except services.StaleEvent:
                continue
            done += 1
        return done

    assert run_together(writers, write) == [strokes_each] * writers
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, writers * strokes_each + 1))
    game.refresh_from_db()
    assert game.last_seq == writers * strokes_each
