"""«Спорный момент» and «Ещё одно устройство ведёт эту партию» as they happen, in a real
browser: the marker's phone (360×740) marks the last stroke disputed, the table's TV board
(1920×1080) dims the scores and says «Проверяется удар» at once, then shows the game again as
the marker confirms the stroke — or without it as he undoes it; two devices recording one
game each say so. Screenshots in test-artifacts/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Event
from tables.models import Table
from tests.conftest import login as sign_in
from tests.factories import UserFactory, start
from toolbox.roles import MARKERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}
PASSWORD = "cue-and-cork-360"


@pytest.fixture
def marker(db):
    return UserFactory(username="marker-dispute", password=PASSWORD, groups=[MARKERS])


def console_on(browser, live_server, marker, game, viewport=PHONE):
    page = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server, marker.username, PASSWORD)
    page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    page.locator("body.streaming").wait_for()
    return page


def tv_board(browser, live_server):
    page = browser.new_context(viewport=TV, locale="ru-RU").new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/tables/3/board/")
    page.locator("body.streaming").wait_for()
    return page


def tap(page, selector, seq):
    page.click(selector)
    page.locator(f'#console[data-seq="{seq}"]').wait_for()


def score_of(board, seat):
    return board.locator(f'#board [data-seat="{seat}"] [data-score]')


def test_a_dispute_end_to_end_confirmed_then_undone(browser, live_server, marker):
    game = start(Table.objects.create(number=3), "cork", ["Аня", "Борис"], marker, target=3)
    console = console_on(browser, live_server, marker, game)
    board = tv_board(browser, live_server)

    tap(console, 'button.action-button[data-kind="score"]', 1)  # Аня +2 = 3: she wins
    expect(board.locator("#board [data-banner]")).to_be_visible()
    expect(console.locator("[data-dispute]")).to_be_visible()
    tap(console, "[data-dispute]", 2)
    expect(console.locator("[data-disputed]")).to_contain_text("Спорный момент")
    expect(console.locator("[data-finish]")).to_have_count(0)  # no finishing meanwhile
    expect(console.locator(".actions")).to_have_count(0)  # no stroke meanwhile

    expect(board.locator("#board.is-disputed [data-disputed]")).to_contain_text(
        "Проверяется удар", timeout=2000
    )
    expect(board.locator("#board [data-banner]")).to_have_count(0)  # no winner banner
    expect(board.locator("#board .is-winner")).to_have_count(0)
    opacity = score_of(board, 0).evaluate("e => getComputedStyle(e).opacity")
    assert float(opacity) < 0.5  # the score dimmed
    ARTIFACTS.mkdir(exist_ok=True)
    board.screenshot(path=str(ARTIFACTS / "dispute-board-1920.png"))
    console.screenshot(path=str(ARTIFACTS / "dispute-console-360.png"))

    tap(console, "[data-confirm-stroke]", 3)  # the stroke stands
    expect(board.locator("#board [data-banner]")).to_be_visible(timeout=2000)
    expect(board.locator("#board.is-disputed")).to_have_count(0)
    assert score_of(board, 0).inner_text() == "3"

    # Disputed again, and this time undone: the stroke is gone from the board.
    tap(console, "[data-dispute]", 4)
    expect(board.locator("#board.is-disputed")).to_have_count(1, timeout=2000)
    console.click("[data-undo]")
    console.locator("#confirm-undo").wait_for()
    console.wait_for_timeout(450)  # a confirmation ignores taps for 0.4 s
    tap(console, ".confirm-buttons button[type=submit]", 5)
    expect(score_of(board, 0)).to_have_text("1", timeout=2000)
    expect(board.locator("#board.is-disputed")).to_have_count(0)
    expect(board.locator("#board [data-banner]")).to_have_count(0)
    expect(console.locator(".actions")).to_be_visible()  # strokes again
    kinds = list(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["score", "dispute", "confirm", "dispute", "undo"]
    console.context.close()
    board.context.close()


def test_the_dispute_is_online_only(browser, live_server, marker):
    game = start(Table.objects.create(number=3), "cork", ["Аня", "Борис"], marker)
    console = console_on(browser, live_server, marker, game)
    tap(console, 'button.action-button[data-kind="score"]', 1)
    console.context.set_offline(True)
    expect(console.locator("[data-dispute]")).to_be_disabled()
    console.context.set_offline(False)
    expect(console.locator("[data-dispute]")).to_be_enabled()
    console.context.close()


def test_another_device_recording_the_same_game_is_said_on_the_console(
    browser, live_server, marker
):
    game = start(Table.objects.create(number=3), "cork", ["Аня", "Борис"], marker)
    phone = console_on(browser, live_server, marker, game)
    tablet = console_on(browser, live_server, marker, game, viewport={"width": 800, "height": 1280})
    notice = "Ещё одно устройство ведёт эту партию"
    tap(phone, 'button.action-button[data-kind="score"]', 1)
    expect(phone.locator("[data-other-device]")).to_have_count(0)
    # The tablet hears of the phone's stroke on its stream and shows it, with the notice.
    expect(tablet.locator("#console[data-seq='1'] [data-other-device]")).to_have_text(notice)
    tap(tablet, 'button.action-button[data-kind="score"]', 2)
    expect(phone.locator("#console[data-seq='2'] [data-other-device]")).to_have_text(notice)
    phone.screenshot(path=str(ARTIFACTS / "console-other-device-360.png"))
    box = phone.locator("[data-screen-status]").bounding_box()
    assert box["width"] < 200 and box["y"] + box["height"] <= PHONE["height"]
    phone.context.close()
    tablet.context.close()
