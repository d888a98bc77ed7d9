"""How fresh a screen is, said on the screen (live/status.html, static/js/screen-status.js),
in a real browser: a board whose stream is cut says "reconnecting", then «Нет обновлений N с»
counting up, and catches up by itself once the server answers again; a board that wakes
(the tab shown again) reopens its stream with what it shows and gets the current board at
once; the other pushed screens carry the same status line."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from live import streams
from tables.models import Table
from tests.factories import ev, record, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TV = {"width": 1920, "height": 1080}
POLLS = "**/tables/3/board/?fp=*"
STREAMS = "**/tables/3/board/stream/**"
STALE = re.compile(r"Нет обновлений (\d+) с")


@pytest.fixture
def quick_heartbeats(monkeypatch):
    """A heartbeat every 2 s: a screen is late after 4 s of silence (the server's streams and
    the page's status read the same figure)."""
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 2)


def score_of(page, seat):
    return page.locator(f'#board [data-seat="{seat}"] [data-score]')


def status(page):
    return page.locator("[data-screen-status]")


def stale_seconds(page):
    match = STALE.search(status(page).inner_text())
    return int(match.group(1)) if match else None


def test_a_cut_board_says_reconnecting_then_no_update_for_n_s_and_catches_up(
    browser, live_server, marker_user, settings, quick_heartbeats
):
    settings.LIVE_WSGI_STREAM_SECONDS = 3  # the server ends each stream after 3 s
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    context = browser.new_context(viewport=TV, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/3/board/")
    page.locator("body.streaming").wait_for(timeout=5000)
    expect(status(page)).to_have_attribute("data-state", "live")
    expect(status(page)).to_contain_text("Онлайн")
    assert re.search(r"\d\d:\d\d:\d\d", status(page).inner_text())  # the last update's time
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "status-board-live.png"))

    # The server is out of reach: its stream ends and neither it nor a poll gets through.
    page.route(STREAMS, lambda route: route.abort("internetdisconnected"))
    page.route(POLLS, lambda route: route.abort("internetdisconnected"))
    expect(status(page)).to_have_attribute("data-state", "reconnecting", timeout=8000)
    expect(status(page)).to_contain_text("Переподключение")
    record(game, marker_user, ev("foul", fouls=("miss",)))  # recorded meanwhile
    expect(status(page)).to_have_attribute("data-state", "stale", timeout=8000)
    first = stale_seconds(page)
    assert first is not None and first >= 4, status(page).inner_text()
    page.wait_for_timeout(2100)
    assert stale_seconds(page) >= first + 2  # counting up, each second
    assert score_of(page, 0).inner_text() == "1"  # (still the old board: and it says so)
    page.screenshot(path=str(ARTIFACTS / "status-board-stale.png"))

    page.unroute(STREAMS)  # the server answers again (polls still fail): the stream catches up
    expect(score_of(page, 0)).to_have_text("−1", timeout=10000)
    expect(status(page)).to_have_attribute("data-state", "live", timeout=3000)
    context.close()


def test_a_board_that_wakes_reopens_its_stream_and_shows_the_game_as_it_is(
    page, live_server, marker_user
):
    """A stream that looks open but will say nothing for ten minutes (as after a TV's sleep):
    once the tab is shown again the board reopens it with the fingerprint it shows, and the
    server sends the current board at once."""
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    page.route(POLLS, lambda route: route.abort("internetdisconnected"))  # the stream alone
    page.route(
        STREAMS,
        lambda route: route.fulfill(
            status=200, content_type="text/event-stream", body="retry: 600000\n\n"
        ),
    )  # the browser's own reconnection would come in ten minutes
    opened = []
    page.on("request", lambda request: "/stream/" in request.url and opened.append(request.url))
    page.goto(f"{live_server.url}/tables/3/board/")
    expect(score_of(page, 0)).to_have_text("1")
    record(game, marker_user, ev("foul", fouls=("miss",)))
    page.unroute(STREAMS)
    page.wait_for_timeout(1500)
    assert score_of(page, 0).inner_text() == "1"  # nothing reaches the board by itself

    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the tab is shown
    expect(score_of(page, 0)).to_have_text("−1", timeout=4000)
    assert any("fp=" in url for url in opened[1:]), opened  # reopened with what it showed
    expect(status(page)).to_have_attribute("data-state", "live", timeout=3000)


def test_the_wall_and_the_tournament_board_carry_the_status_too(page, live_server, db):
    Table.objects.create(number=3)
    page.goto(f"{live_server.url}/board/")
    expect(status(page)).to_have_attribute("data-state", "live")
    assert status(page).count() == 1
    box = status(page).bounding_box()
    assert box["width"] < 400 and box["height"] < 60  # a small pill, not a banner
