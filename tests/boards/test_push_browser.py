"""Pushed boards in a real browser: a stroke from the marker's console is on the table board in
under a second without a single poll; a board whose stream dies shows the reconnecting mark,
reconnects by itself and catches up; ``?poll=1`` polls as before."""

import time
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import expect

from games import selectors
from games.i18n import minus
from tables.models import Table
from tests.conftest import login as sign_in
from tests.factories import ev, record, start
from tests.helpers import free_port, start_server, stop_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TV = {"width": 1920, "height": 1080}
POLLS = "**/tables/3/board/?fp=*"
STREAMS = "**/tables/3/board/stream/**"


def score_of(page, seat):
    return page.locator(f'#board [data-seat="{seat}"] [data-score]')


def polls_of(page):
    """The board's polls the page sends from now on."""
    sent = []
    page.on("request", lambda request: "?fp=" in request.url and sent.append(request.url))
    return sent


def test_a_stroke_is_pushed_to_the_board_in_under_a_second_without_polling(
    browser, page, live_server, marker_user
):
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    page.goto(f"{live_server.url}/tables/3/board/")
    page.locator("body.streaming").wait_for(timeout=5000)
    polls = polls_of(page)
    page.wait_for_timeout(1500)  # a poll would have been sent by now
    assert polls == []

    console = browser.new_context(locale="ru-RU").new_page()
    sign_in(console, live_server, marker_user.username)
    console.goto(f"{live_server.url}/marker/games/{game.pk}/")
    console.click('button.action-button[data-kind="score"]')  # «Пробка сбита»: +2 = 3
    clicked = time.monotonic()
    expect(score_of(page, 0)).to_have_text("3", timeout=1000)
    elapsed = time.monotonic() - clicked
    assert elapsed < 1, f"the stroke took {elapsed:.3f} s to reach the board"
    assert polls == []  # pushed, not polled
    # The event just recorded is highlighted for a few seconds.
    expect(page.locator("#board.just-changed .ticker li.newest")).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "board-pushed-stroke.png")
    expect(page.locator("#board.just-changed")).to_have_count(0, timeout=6000)
    console.context.close()


def test_a_board_whose_stream_dies_reconnects_and_catches_up(
    page, live_server, marker_user, settings
):
    settings.LIVE_WSGI_STREAM_SECONDS = 2  # the server ends every stream after 2 s
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    page.route(POLLS, lambda route: route.abort("internetdisconnected"))  # streams only
    page.goto(f"{live_server.url}/tables/3/board/")
    page.locator("body.streaming").wait_for(timeout=5000)
    mark = page.locator(".reconnecting")
    assert mark.is_hidden()

    page.route(STREAMS, lambda route: route.abort("internetdisconnected"))
    page.locator("body:not(.streaming)").wait_for(timeout=5000)  # the stream ended
    mark.wait_for(state="visible", timeout=5000)
    record(game, marker_user, ev("foul", fouls=("miss",)))  # while the board is cut off
    page.wait_for_timeout(500)
    assert score_of(page, 0).inner_text() == "1"

    page.unroute(STREAMS)  # the stream is back (polls still fail): it alone must catch up
    expect(score_of(page, 0)).to_have_text("−1", timeout=8000)
    mark.wait_for(state="hidden", timeout=2000)
    page.locator("body.streaming").wait_for(timeout=2000)


def test_a_board_opened_with_poll_1_polls_and_holds_no_stream(page, live_server, marker_user):
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    streams = []
    page.on("request", lambda request: "/stream/" in request.url and streams.append(request))
    polls = polls_of(page)
    page.goto(f"{live_server.url}/tables/3/board/?poll=1")
    record(game, marker_user, ev("foul", fouls=("miss",)))
    expect(score_of(page, 0)).to_have_text("−1", timeout=3000)
    assert polls and not streams
    assert page.locator("body.streaming").count() == 0


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a server of its own needs PostgreSQL"
)
def test_screens_served_by_uvicorn_all_show_each_stroke_at_once(browser, marker_user):
    """As in production: uvicorn answers the streams beside Django (``live.asgi``), one
    audience writes each stroke to every screen of the table — two TVs and a phone here, in
    two languages — through PostgreSQL's NOTIFY from the stroke's own statement."""
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    port = free_port()
    server = start_server(port)
    screens = [
        (TV, "ru-RU", ""),
        (TV, "ru-RU", ""),
        ({"width": 360, "height": 740}, "en-US", "?lang=en"),
    ]
    contexts = []
    try:
        pages = []
        for viewport, locale, query in screens:
            contexts.append(browser.new_context(viewport=viewport, locale=locale))
            page = contexts[-1].new_page()
            page.goto(f"http://127.0.0.1:{port}/tables/3/board/{query}")
            page.locator("body.streaming").wait_for(timeout=5000)
            pages.append(page)
        for event in (ev("foul", fouls=("miss",)), ev("score")):
            game = record(game, marker_user, event)
            recorded = time.monotonic()
            scores = selectors.game_state(game).scores  # what the engine says
            for page in pages:
                for seat, points in enumerate(scores):
                    expect(score_of(page, seat)).to_have_text(str(minus(points)), timeout=2000)
            elapsed = time.monotonic() - recorded
            assert elapsed < 1.5, f"the stroke took {elapsed:.3f} s to reach the last screen"
        expect(pages[2].locator("#board")).to_contain_text("Bank")  # the phone's language
        ARTIFACTS.mkdir(exist_ok=True)
        pages[0].screenshot(path=ARTIFACTS / "board-pushed-by-uvicorn-tv.png")
        pages[2].screenshot(path=ARTIFACTS / "board-pushed-by-uvicorn-phone.png")
    finally:
        for context in contexts:
            context.close()
        stop_server(server)
