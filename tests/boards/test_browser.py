"""The boards in a real browser: live refresh from the marker's console, resilience, layout.

Screenshots go to test-artifacts/ (git-ignored) so that a person can look at the TV.
"""

import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from billing.models import Reservation
from games import rules, services
from tables.models import Table
from tests.conftest import login as sign_in
from tests.factories import ev, record, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def score_of(page, seat):
    return page.locator(f'#board [data-seat="{seat}"] [data-score]')


def test_board_shows_a_stroke_from_the_console_within_3_seconds(
    browser, page, live_server, marker_user
):
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    page.goto(f"{live_server.url}/tables/3/board/")
    assert score_of(page, 0).inner_text() == "1"
    page.evaluate("window.__notReloaded = true")

    console = browser.new_context(locale="ru-RU").new_page()
    sign_in(console, live_server, marker_user.username)  # the fixture's known password
    console.goto(f"{live_server.url}/marker/games/{game.pk}/")
    console.click('button.action-button[data-kind="score"]')  # «Пробка сбита»: +2 = 3
    clicked = time.monotonic()
    console.wait_for_selector('#console[data-seq="1"]')

    # (expect, not wait_for_function: that polls by eval, which the CSP forbids)
    expect(score_of(page, 0)).to_have_text("3", timeout=3000)
    assert time.monotonic() - clicked < 3
    assert page.evaluate("window.__notReloaded") is True  # swapped in place, no reload
    assert page.locator("#board [data-bank]").inner_text() == "4"
    assert "is-turn" in page.locator('#board [data-seat="0"]').get_attribute("class")
    console.context.close()


def test_board_survives_a_network_outage(page, live_server, marker_user):
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    page.goto(f"{live_server.url}/tables/3/board/?poll=1")  # the polling fallback
    mark = page.locator(".reconnecting")
    assert mark.is_hidden()

    page.route("**/tables/3/board/?fp=*", lambda route: route.abort("internetdisconnected"))
    mark.wait_for(state="visible", timeout=4000)
    record(game, marker_user, ev("foul", fouls=("miss",)))  # while the board is cut off
    page.wait_for_timeout(1500)
    assert score_of(page, 0).inner_text() == "1"

    page.unroute("**/tables/3/board/?fp=*")
    expect(score_of(page, 0)).to_have_text("−1", timeout=4000)  # U+2212, the minus sign
    mark.wait_for(state="hidden", timeout=2000)


def test_board_shows_the_mark_on_server_errors_too(page, live_server, marker_user):
    Table.objects.create(number=3)
    page.goto(f"{live_server.url}/tables/3/board/?poll=1")  # the polling fallback
    page.route(
        "**/tables/3/board/?fp=*", lambda route: route.fulfill(status=502, body="Bad gateway")
    )
    page.locator(".reconnecting").wait_for(state="visible", timeout=10_000)
    page.unroute("**/tables/3/board/?fp=*")
    page.locator(".reconnecting").wait_for(state="hidden", timeout=10_000)
    assert page.locator("#board.is-free").count() == 1  # the error was never swapped in


def test_full_screen_button(page, live_server, db):
    Table.objects.create(number=3)
    page.goto(f"{live_server.url}/tables/3/board/")
    page.click(".fullscreen-button")
    for _ in range(30):  # (not wait_for_function: it polls by eval, which the CSP forbids)
        if page.evaluate("document.fullscreenElement !== null"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("document.fullscreenElement !== null")


# --- layout: a 1920×1080 TV never scrolls ----------------------------------------------------


def setup_games(marker):
    """One table for each variant, mid-game, plus a finished game and a free table."""
    cork_big = start(
        Table.objects.create(number=1, name="Зал 1"),
        "cork",
        [f"Игрок с длинной фамилией {n}" for n in range(1, 11)],
        marker,
    )
    record(cork_big, marker, ev("stroke"), ev("foul", fouls=("miss", "touched")), ev("score"))
    clockwise = start(Table.objects.create(number=2), "clockwise", ["Александра", "Борис"], marker)
    record(
        clockwise,
        marker,
        ev("break"),
        ev("nominate", pocket=rules.Pocket.FAR_RIGHT),
        ev("pot", ball=1, pocket=rules.Pocket.FAR_RIGHT),
        ev("stroke"),
    )
    cue_run = start(
        Table.objects.create(number=3),
        "cue_run",
        ["Вера", "Глеб"],
        marker,
        handicap="extra_strokes",
        handicap_strokes=2,
        strong_seat=0,
    )
    record(cue_run, marker, *[ev(kind) for kind in cue_run_strokes()])
    start(Table.objects.create(number=4), "cue_vs_hand", ["Дина", "Егор"], marker)
    cork_2 = start(Table.objects.create(number=5), "cork", ["Жанна", "Захар"], marker, target=3)
    cork_2 = record(cork_2, marker, ev("score"))
    services.finish_game(game=cork_2, user=marker)
    Table.objects.create(number=6)


def cue_run_strokes():
    """A few legal strokes of «Кладка шаров кием», whatever the engine calls them."""
    variant = rules.get_variant("cue_run")
    state = variant.initial_state(variant.settings_from_dict({"players": 2}))
    kinds = [action.kind for action in variant.legal_actions(state) if not action.fouls]
    return kinds[:1] * 3


def assert_fits(page):
    sizes = page.evaluate(
        """() => ({
            scrollHeight: document.scrollingElement.scrollHeight,
            scrollWidth: document.scrollingElement.scrollWidth,
            innerHeight: window.innerHeight,
            innerWidth: window.innerWidth,
        })"""
    )
    assert sizes["scrollHeight"] <= sizes["innerHeight"], sizes
    assert sizes["scrollWidth"] <= sizes["innerWidth"], sizes


def overflowing(page, selector):
    """Elements matching ``selector`` whose content is cut off by their own box."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter(el => el.scrollHeight > el.clientHeight + 2)
            .map(el => {
                const where = el.closest("[data-table]")?.dataset.table ?? "";
                return `${where} ${el.className} ${el.scrollHeight}>${el.clientHeight}`;
            })""",
        selector,
    )


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_tv_boards_fit_1920x1080_without_scrolling(browser, live_server, marker_user, theme):
    ARTIFACTS.mkdir(exist_ok=True)
    setup_games(marker_user)
    context = browser.new_context(viewport=TV, locale="ru-RU")
    page = context.new_page()
    for number in range(1, 7):
        page.goto(f"{live_server.url}/tables/{number}/board/?theme={theme}")
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / f"board-{number}-{theme}.png"))
        assert_fits(page)
        assert overflowing(page, ".seat, .panel") == [], number
    page.goto(f"{live_server.url}/board/?theme={theme}")
    page.screenshot(path=str(ARTIFACTS / f"wall-{theme}.png"))
    assert_fits(page)
    context.close()


def test_a_wall_of_twelve_tables_fits_one_screen(browser, live_server, marker_user):
    ARTIFACTS.mkdir(exist_ok=True)
    setup_games(marker_user)
    for number in range(7, 13):
        game = start(
            Table.objects.create(number=number), "cork", ["Аня", "Борис", "Вера"], marker_user
        )
        record(game, marker_user, ev("foul", fouls=("miss",)))
    context = browser.new_context(viewport=TV, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}/board/")
    page.screenshot(path=str(ARTIFACTS / "wall-12.png"))
    assert page.locator(".tile").count() == 12
    assert_fits(page)
    assert overflowing(page, ".mini-seats") == []
    context.close()


def test_phone_layout(browser, live_server, marker_user):
    ARTIFACTS.mkdir(exist_ok=True)
    setup_games(marker_user)
    context = browser.new_context(viewport=PHONE, locale="ru-RU", is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/2/board/")
    page.screenshot(path=str(ARTIFACTS / "board-phone.png"), full_page=True)
    assert page.locator(".qr").is_hidden()  # a phone is already there
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"]  # it may scroll down, never sideways
    context.close()


# --- words for everyone (issue 22 item 7) ------------------------------------------------------


def test_the_newest_event_is_read_whole_on_a_tv(browser, live_server, marker_user):
    """The ticker cut the newest event «…выигрывает п…»: it takes two lines, whole."""
    names = ["Константин Преображенский", "Николай Фёдоров"]
    game = start(Table.objects.create(number=3), "pyramid_free", names, marker_user)
    record(game, marker_user, ev("pot", count=7), ev("pot", count=1))  # the winning pot
    context = browser.new_context(viewport=TV, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/3/board/")
    page.wait_for_timeout(300)
    newest = page.locator(".ticker li.newest")
    assert newest.inner_text().endswith("Константин Преображенский выигрывает партию")
    sizes = newest.evaluate(
        """(li) => ({sw: li.scrollWidth, cw: li.clientWidth, sh: li.scrollHeight,
                    ch: li.clientHeight, bottom: li.getBoundingClientRect().bottom,
                    box: li.closest('.ticker').getBoundingClientRect().bottom,
                    font: parseFloat(getComputedStyle(li).fontSize)})"""
    )
    assert sizes["sw"] <= sizes["cw"] and sizes["sh"] <= sizes["ch"] + 1  # nothing cut off
    assert sizes["bottom"] <= sizes["box"] + 1  # within the ticker, not under its edge
    assert sizes["font"] >= 30  # still read from across the hall
    page.screenshot(path=str(ARTIFACTS / "board-ticker-whole.png"))
    context.close()


def contrast(color, background):
    """WCAG's contrast ratio of two "rgb(…)" colours."""

    def luminance(rgb):
        channels = [c / 255 for c in rgb]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(color), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def rgb(text):
    return [float(part) for part in re.findall(r"[\d.]+", text)[:3]]


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_newest_events_highlight_keeps_its_contrast_while_it_fades(
    browser, live_server, marker_user, theme
):
    """The highlight faded a gold background while the text turned from dark to light: half
    way the text could hardly be read. At every moment of the fade it keeps 4.5 : 1."""
    game = start(Table.objects.create(number=3), "cork", ["Аня", "Борис"], marker_user)
    record(game, marker_user, ev("score"))
    context = browser.new_context(viewport=TV, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/3/board/?theme={theme}")
    ratios = page.evaluate(
        """async () => {
            const board = document.querySelector('#board');
            const li = board.querySelector('.ticker li.newest');
            board.classList.add('just-changed');
            const animation = li.getAnimations()[0];
            animation.pause();
            const page = getComputedStyle(document.body).backgroundColor;
            const found = [];
            for (const at of [0, 500, 1000, 1500, 2000, 2500, 3000, 3500, 3999]) {
                animation.currentTime = at;
                const style = getComputedStyle(li);
                found.push([style.color, style.backgroundColor, page]);
            }
            return found;
        }"""
    )
    for color, background, page_color in ratios:
        alpha = re.findall(r"[\d.]+", background)
        alpha = float(alpha[3]) if len(alpha) > 3 else 1.0
        behind = [
            a * alpha + b * (1 - alpha)
            for a, b in zip(rgb(background), rgb(page_color), strict=True)
        ]
        assert contrast(rgb(color), behind) >= 4.5, (color, background)
    context.close()


def test_the_reconnecting_mark_leaves_the_booking_in_sight(browser, live_server, marker_user):
    """«Переподключение…» stood over the table clock's booking chip («Бронь 21:00»)."""
    table = Table.objects.create(number=3)
    start_at = timezone.now() + timedelta(hours=2)
    Reservation.objects.create(
        table=table, name="Гость", phone="+7 900 000-00-00", starts_at=start_at,
        ends_at=start_at + timedelta(hours=1),
    )  # fmt: skip
    context = browser.new_context(viewport=TV, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}/tables/3/board/?poll=1")
    page.route("**/tables/3/board/?fp=*", lambda route: route.abort("internetdisconnected"))
    mark = page.locator(".reconnecting")
    mark.wait_for(state="visible", timeout=15_000)  # a few failed polls: longer on a busy machine
    booking = page.locator(".board-booking").bounding_box()
    badge = mark.bounding_box()
    apart = (
        badge["x"] >= booking["x"] + booking["width"]
        or booking["x"] >= badge["x"] + badge["width"]
        or badge["y"] >= booking["y"] + booking["height"]
        or booking["y"] >= badge["y"] + badge["height"]
    )
    assert apart, (badge, booking)
    assert badge["y"] + badge["height"] <= TV["height"] and badge["x"] >= 0
    page.screenshot(path=str(ARTIFACTS / "board-reconnecting.png"))
    context.close()
