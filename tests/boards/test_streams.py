"""The boards' pushed streams (Server-Sent Events): the current board at once when the screen
is stale, every change the moment it commits, heartbeats, Last-Event-ID; under WSGI (the
test client, runserver) and ASGI (uvicorn) alike."""

import asyncio
import time

import pytest
from django.db import connection, connections
from django.http import Http404
from django.test import AsyncClient, Client
from django.test.utils import CaptureQueriesContext

from boards.fragments import render_table
from live import hub as hubs
from live import streams
from tests.factories import TableFactory, ev, record, start
from tests.helpers import asgi_scope, run_async, shown_fp

BOARD = "/tables/3/board/"
STREAM = "/tables/3/board/stream/"


def messages(chunks, count):
    """The next ``count`` SSE messages (comments included) of a stream, as text."""
    return [next(chunks).decode() for _ in range(count)]


def is_heartbeat(message):
    return field(message, "event") == ["hb"]


def field(message, name):
    return [line[len(name) + 2 :] for line in message.split("\n") if line.startswith(name + ": ")]


@pytest.fixture
def quick_heartbeats(monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.2)


@pytest.fixture
def listening_hub():
    """This process's hub, listening (so that a publish reaches it at once)."""
    hub = hubs.get_hub()
    hub.subscribe(hubs.ThreadSubscription("nothing"))
    deadline = time.monotonic() + 5
    while not hub.connected and time.monotonic() < deadline:
        time.sleep(0.01)
    assert hub.connected
    return hub


@pytest.mark.django_db
def test_the_boards_hold_a_stream_and_keep_polling_only_as_the_fallback(client, table):
    html = client.get(BOARD).content.decode()
    assert f'sse-connect="{STREAM}?fp=free"' in html and 'sse-swap="board"' in html
    assert "js/htmx-ext-sse.js" in html
    assert 'hx-trigger="every 1s"' in html  # the fallback (board.js drops it while streaming)
    polled = client.get(BOARD + "?poll=1").content.decode()
    assert "sse-connect" not in polled and 'hx-trigger="every 1s"' in polled
    wall = client.get("/board/").content.decode()
    assert 'sse-connect="/board/stream/?fp=' in wall and 'sse-swap="wall"' in wall


@pytest.mark.django_db
def test_a_stale_screen_gets_the_current_board_at_once(client, table, marker_user):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    game = record(game, marker_user, ev("foul", fouls=("miss",)))
    response = client.get(STREAM, {"fp": "free"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Cache-Control"].startswith("no-cache")
    retry, board = messages(iter(response.streaming_content), 2)
    assert retry == "retry: 1000\n\n"
    assert field(board, "id") == [f"{game.pk}.1.p"] and field(board, "event") == ["board"]
    html = "\n".join(field(board, "data"))
    assert 'id="board"' in html and f'data-fp="{game.pk}.1.p"' in html and "−1" in html


@pytest.mark.django_db
def test_an_up_to_date_screen_gets_only_heartbeats(client, table, quick_heartbeats):
    response = client.get(STREAM, {"fp": "x"}, headers={"Last-Event-ID": "free"})
    chunks = iter(response.streaming_content)
    retry, first, second = messages(chunks, 3)
    assert retry == "retry: 1000\n\n"
    for beat in (first, second):
        # A named event the page can hear, with the server's time; no id: the browser's
        # Last-Event-ID stays the fingerprint it shows.
        assert is_heartbeat(beat) and not field(beat, "id")
        (sent,) = field(beat, "data")
        assert abs(int(sent) / 1000 - time.time()) < 5


@pytest.mark.django_db(transaction=True)
def test_a_stroke_is_pushed_the_moment_it_commits(
    client, table, marker_user, listening_hub, quick_heartbeats
):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    fp = shown_fp(client.get(BOARD).content.decode())
    chunks = iter(client.get(STREAM, {"fp": fp}).streaming_content)
    assert messages(chunks, 1) == ["retry: 1000\n\n"]
    record(game, marker_user, ev("foul", fouls=("miss",)))
    started = time.monotonic()
    message = next(chunks).decode()
    while is_heartbeat(message):  # (a heartbeat may come first on a busy machine)
        message = next(chunks).decode()
    assert field(message, "id") == [f"{game.pk}.1.p"]
    # Woken by the publish: the hub's own check of its topics comes every 15 s only.
    assert time.monotonic() - started < 2


@pytest.mark.django_db
def test_a_stream_of_no_table_is_a_404_and_only_gets_are_streams(client, table):
    assert client.get("/tables/77/board/stream/").status_code == 404
    assert client.post(STREAM).status_code == 405


@pytest.mark.django_db
def test_the_wall_streams_too(client, table, marker_user):
    start(table, "cork", ["Аня", "Борис"], marker_user)
    retry, wall = messages(iter(client.get("/board/stream/", {"fp": "old"}).streaming_content), 2)
    assert field(wall, "event") == ["wall"] and 'id="wall"' in "\n".join(field(wall, "data"))


@pytest.mark.django_db
def test_the_console_stream_is_for_markers(marker_client, table, marker_user):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    url = f"/marker/games/{game.pk}/stream/"
    assert Client().get(url).status_code in (302, 403)  # nobody signed in
    retry, message = messages(iter(marker_client.get(url, {"fp": "old"}).streaming_content), 2)
    assert field(message, "event") == ["console"] and field(message, "id") == ["0-in_progress"]
    html = marker_client.get(f"/marker/games/{game.pk}/").content.decode()
    assert f'sse-connect="{url}?fp=0-in_progress"' in html and "console-pushed" in html


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_stream_is_asynchronous_and_pushed(table, marker_user, settings):
    settings.LIVE_STREAM_SECONDS = 5
    game = start(table, "cork", ["Аня", "Борис"], marker_user)

    async def scenario():
        response = await AsyncClient().get(STREAM, {"fp": f"{game.pk}.0.p"})
        assert response.status_code == 200
        chunks = aiter(response.streaming_content)
        assert await anext(chunks) == b"retry: 1000\n\n"
        await asyncio.sleep(0.2)  # the stream now waits for a change
        await asyncio.to_thread(record_and_close, game, marker_user)
        message = (await asyncio.wait_for(anext(chunks), 3)).decode()
        await chunks.aclose()  # the client went away: the stream unsubscribes
        return message

    message = run_async(scenario())
    assert field(message, "id") == [f"{game.pk}.1.p"]
    assert not hubs.get_hub()._subscribers.get("table.3")  # unsubscribed when it ended


def record_and_close(game, user):
    try:
        return record(game, user, ev("foul", fouls=("miss",)))
    finally:
        connections.close_all()  # this thread's: the test database is dropped at the end


# --- the ASGI application: public streams beside Django's handler ---------------------------


def asgi_get(path, query="", headers=(), disconnect_after=1):
    """GETs ``path`` from clubsite.asgi's application; returns (status, headers, body) once
    ``disconnect_after`` body chunks came (then the client goes away)."""
    from clubsite.asgi import application

    async def scenario():
        sent, gone, asked = [], asyncio.Event(), []

        async def receive():
            asked.append(True)
            if len(asked) == 1:  # the request (no body), then the client's going away
                return {"type": "http.request", "body": b"", "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)
            if sum(1 for m in sent if m.get("body")) >= disconnect_after:
                gone.set()

        await asyncio.wait_for(application(asgi_scope(path, query, headers), receive, send), 10)
        return sent

    sent = run_async(scenario())
    start = sent[0]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], dict(start["headers"]), body.decode()


@pytest.mark.django_db(transaction=True)
def test_the_asgi_application_serves_board_streams_itself(table, marker_user, monkeypatch):
    from django.core.handlers.asgi import ASGIHandler

    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    game = record(game, marker_user, ev("foul", fouls=("miss",)))

    async def no_django(*args):
        raise AssertionError("a public stream must not go through Django's handler")

    monkeypatch.setattr(ASGIHandler, "__call__", no_django)
    status, headers, body = asgi_get(STREAM, "fp=free", disconnect_after=2)
    assert status == 200 and headers[b"content-type"].startswith(b"text/event-stream")
    assert headers[b"content-language"] == b"ru"
    assert body.startswith("retry: 1000\n\n") and f"id: {game.pk}.1.p\nevent: board\n" in body
    status, headers, body = asgi_get(STREAM, "lang=en", [(b"last-event-id", b"x")], 2)
    assert headers[b"content-language"] == b"en" and "Bank" in body
    assert asgi_get("/tables/77/board/stream/")[0] == 404
    assert asgi_get("/board/stream/", "fp=x", disconnect_after=2)[0] == 200
    monkeypatch.undo()
    status, headers, body = asgi_get("/healthz")  # everything else: Django
    assert status == 200


def test_a_stream_for_another_host_is_refused(settings):
    settings.ALLOWED_HOSTS = ["club.example"]
    assert asgi_get("/board/stream/")[0] == 400


@pytest.mark.django_db(transaction=True)
def test_a_screen_that_stops_reading_is_dropped_not_kept(table, monkeypatch, caplog):
    """Issue 27 item 7: a client that reads nothing (its connection's buffer full, the
    server's send waiting) is dropped after ``SLOW_CLIENT_SECONDS``, not kept for
    ``LIVE_STREAM_SECONDS``: the application returns without ending the response (uvicorn then
    closes the connection) and says so as a warning."""
    from clubsite.asgi import application
    from live import asgi as live_asgi

    monkeypatch.setattr(live_asgi, "SLOW_CLIENT_SECONDS", 0.5)

    async def scenario():
        sent, never = [], asyncio.Event()

        async def receive():
            if not sent:
                return {"type": "http.request", "body": b"", "more_body": False}
            await never.wait()  # the client never says it left: it just stops reading

        async def send(message):
            if sum(1 for m in sent if m.get("body")) >= 1:
                await never.wait()  # the second chunk finds the buffer full: it waits
            sent.append(message)

        started = asyncio.get_running_loop().time()
        await asyncio.wait_for(application(asgi_scope(STREAM, "fp=stale"), receive, send), 10)
        return sent, asyncio.get_running_loop().time() - started

    sent, took = run_async(scenario())
    assert took < 3  # dropped after half a second of waiting, not after 900 s
    assert not any(m.get("more_body") is False for m in sent)  # the response was not ended
    assert "stopped reading" in caplog.text


def test_uvicorn_s_word_for_a_dropped_stream_is_a_warning():
    import logging

    from live.asgi import DroppedStreamFilter

    record = logging.LogRecord(
        "uvicorn.error", logging.ERROR, "", 0,
        "ASGI callable returned without completing response.", (), None,
    )  # fmt: skip
    assert DroppedStreamFilter().filter(record) and record.levelname == "WARNING"


def test_opening_a_stream_costs_no_query_per_screen(table, django_assert_num_queries):
    """10,000 phones opening the final's stream: the tables' numbers are read once (and again
    at most every few seconds), not once a screen; a table added meanwhile is found at once."""
    from boards.feeds import feed_for_path

    feed_for_path(STREAM)
    with django_assert_num_queries(0):
        for _ in range(50):
            assert feed_for_path(STREAM).topic == f"table.{table.number}"
    TableFactory(number=table.number + 40)
    assert feed_for_path(f"/tables/{table.number + 40}/board/stream/") is not None
    with pytest.raises(Http404):
        feed_for_path("/tables/999/board/stream/")


@pytest.mark.django_db
def test_the_page_carries_the_board_its_stream_sends_rendered_once(client, table, marker_user):
    assert render_table(3) in client.get(BOARD).content.decode()  # the free table
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    record(game, marker_user, ev("foul", fouls=("miss",)))
    fragment = render_table(3)
    assert 'data-fp="' in fragment and fragment in client.get(BOARD).content.decode()
    # A second screen's page reuses that render (one per change and language).
    with CaptureQueriesContext(connection) as queries:
        client.get(BOARD)
    read = " ".join(query["sql"] for query in queries)
    assert "games_seat" not in read and "games_event" not in read  # no game read, no render
