"""A tap's console rendered while PostgreSQL writes its event (``tap_sql.append_event`` with
``meanwhile``): the same write, the same guarantees, the answer read after the rendering.

Outside a transaction only (the statement commits by itself): PostgreSQL, transactional
tests.
"""

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import rules, services, tap_sql
from games.models import Event, Game
from tests.factories import record, start
from tests.helpers import HX

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's write path"),
]

STROKE = rules.Event("stroke")


@pytest.fixture
def game(table, players, marker_user):
    """A cork game with one stroke: the next one is not its first (no ``when_begun``)."""
    return record(start(table, "cork", players, marker_user, target=10**9), marker_user, STROKE)


@pytest.fixture
def overlapped(monkeypatch):
    """Counts the writes that went the overlapped way."""
    calls = []
    written_meanwhile = tap_sql._written_meanwhile

    def counted(*args):
        calls.append(args)
        return written_meanwhile(*args)

    monkeypatch.setattr(tap_sql, "_written_meanwhile", counted)
    return calls


def test_meanwhile_runs_between_the_write_sent_and_its_answer(game, marker_user, overlapped):
    seen = []

    def meanwhile(recorded):
        # Called with the game as it will be; a query made here waits for the write.
        seen.append(recorded.last_seq)
        seen.append(Event.objects.filter(game=game, seq=2).exists())

    recorded = services.record_event(
        game=Game(pk=game.pk), expected_seq=1, event=STROKE, user=marker_user, meanwhile=meanwhile
    )
    assert len(overlapped) == 1
    assert seen == [2, True]
    assert recorded.last_seq == 2
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    assert Game.objects.get(pk=game.pk).last_seq == 2


def test_a_stale_tap_writes_nothing_and_meanwhile_is_not_called(game, marker_user, overlapped):
    calls = []
    with pytest.raises(services.StaleEvent):
        services.record_event(
            game=game, expected_seq=0, event=STROKE, user=marker_user, meanwhile=calls.append
        )
    assert calls == []
    assert not overlapped
    assert Event.objects.filter(game=game).count() == 1


def test_a_write_that_lost_the_race_is_stale_and_its_rendering_dropped(
    game, marker_user, overlapped, monkeypatch
):
    """Another marker writes between this tap's read and its write: the compare-and-set
    writes nothing, whatever ``meanwhile`` did with the game."""
    read = services._read_for_a_stroke

    def read_then_other_marker(g):
        found = read(g)
        monkeypatch.setattr(services, "_read_for_a_stroke", read)  # his tap reads as ever
        other = Game.objects.get(pk=g.pk)
        services.record_event(game=other, expected_seq=1, event=STROKE, user=marker_user)
        return found

    monkeypatch.setattr(services, "_read_for_a_stroke", read_then_other_marker)
    shown = []
    with pytest.raises(services.StaleEvent):
        services.record_event(
            game=game, expected_seq=1, event=STROKE, user=marker_user, meanwhile=shown.append
        )
    assert len(overlapped) == 1  # sent, the console rendered meanwhile, nothing written
    assert [g.last_seq for g in shown] == [2]  # what it rendered is dropped
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    assert Game.objects.get(pk=game.pk).last_seq == 2


def test_a_refused_statement_is_run_again_the_ordinary_way(game, marker_user, overlapped):
    """Event 2 taken though ``last_seq`` says 1: the statement fails on the unique (game,
    seq) — nothing written, and the ordinary way raises it as Django's IntegrityError, which
    the service answers StaleEvent as ever."""
    Event.objects.create(game=game, seq=2, kind="stroke", payload={}, recorded_by=marker_user)
    with pytest.raises(services.StaleEvent):
        services.record_event(
            game=game, expected_seq=1, event=STROKE, user=marker_user, meanwhile=lambda g: None
        )
    assert len(overlapped) == 1
    assert Game.objects.get(pk=game.pk).last_seq == 1
    assert Event.objects.filter(game=game).count() == 2


def test_what_meanwhile_raises_comes_after_the_event_is_written(game, marker_user, overlapped):
    def broken(recorded):
        raise RuntimeError("the console could not be rendered")

    with pytest.raises(RuntimeError):
        services.record_event(
            game=game, expected_seq=1, event=STROKE, user=marker_user, meanwhile=broken
        )
    assert len(overlapped) == 1
    assert Game.objects.get(pk=game.pk).last_seq == 2
    assert Event.objects.filter(game=game).count() == 2  # the connection is usable


def test_meanwhile_that_needs_a_transaction_is_called_again_once_written(
    game, marker_user, overlapped
):
    """A transaction cannot begin while the write is in flight: ``meanwhile`` fails, and is
    called again once the write is done."""
    calls = []

    def in_a_transaction(recorded):
        calls.append(recorded.last_seq)
        with transaction.atomic():
            assert Event.objects.filter(game=game, seq=2).exists()

    services.record_event(
        game=game, expected_seq=1, event=STROKE, user=marker_user, meanwhile=in_a_transaction
    )
    assert len(overlapped) == 1
    assert calls == [2, 2]
    assert Game.objects.get(pk=game.pk).last_seq == 2


def test_watched_statements_go_the_ordinary_way(game, marker_user, overlapped):
    """A query log (DEBUG, a test's count) sees the write as ``cursor.execute`` runs it."""
    calls = []
    with CaptureQueriesContext(connection) as queries:
        services.record_event(
            game=game, expected_seq=1, event=STROKE, user=marker_user, meanwhile=calls.append
        )
    assert not overlapped
    assert [g.last_seq for g in calls] == [2]  # called once written
    assert any(q["sql"].startswith("WITH g AS (UPDATE") for q in queries.captured_queries)


def test_the_first_event_is_written_before_meanwhile(table, players, marker_user, overlapped):
    """``when_begun`` hooks see the first event before the console is rendered."""
    new = start(table, "cork", players, marker_user)
    calls = []
    services.record_event(
        game=new, expected_seq=0, event=STROKE, user=marker_user, meanwhile=calls.append
    )
    assert not overlapped
    assert [g.last_seq for g in calls] == [1]


def test_the_tap_through_the_view_answers_the_console_rendered_meanwhile(
    game, marker_user, overlapped
):
    client = Client()
    client.force_login(marker_user)
    url = reverse("games:record", args=[game.pk])
    response = client.post(url, {"seq": 1, "kind": "stroke"}, headers=HX)
    assert response.status_code == 200
    assert len(overlapped) == 1
    html = response.content.decode()
    assert 'data-seq="2"' in html
    assert 'name="seq" value="2"' in html
    # A double tap: refused, the console as it is.
    again = client.post(url, {"seq": 1, "kind": "stroke"}, headers=HX)
    assert again.status_code == 409
    assert Event.objects.filter(game=game).count() == 2
