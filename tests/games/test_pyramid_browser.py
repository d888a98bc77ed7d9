"""The pyramid games' console in a real browser on a phone, tapped as a marker taps: the
classic game's called pot shows the points it would score before it is recorded, and a
stroke of seven balls or more is one tap behind "+7…"; a refused stroke says why in the
sticky strip; the winning stroke brings "Finish" into sight.

Screenshots go to test-artifacts/ (git-ignored): look at them.
"""

import pytest
from playwright.sync_api import expect

from games import rules
from tests.conftest import login as sign_in
from tests.factories import TableFactory, UserFactory, ev, record, start
from toolbox.roles import MARKERS

from .test_console_browser import (
    ARTIFACTS,
    PHONE,
    no_horizontal_scroll,
    scores,
    screenshot,
    tap,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "seven-balls-in-one"


@pytest.fixture
def marker_on_phone(page, live_server):
    marker = UserFactory(username="marker-pyramid", password=PASSWORD, groups=[MARKERS])
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "marker-pyramid", PASSWORD)
    return marker


def open_console(page, live_server, game):
    page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    page.wait_for_selector(f'#console[data-seq="{game.last_seq}"]')


def test_the_called_pot_shows_its_points_before_it_is_recorded(page, live_server, marker_on_phone):
    game = start(TableFactory(number=7), "pyramid_classic", ["Анна", "Борис"], marker_on_phone)
    open_console(page, live_server, game)
    preview = page.locator("form.called-pot [data-preview]")
    page.click('.called-pot label.ball-pick:has(input[name="ball"][value="1"])')
    assert preview.inner_text() == "+11"  # the ace
    page.click(".called-pot details.other-balls summary")
    page.click('.called-pot label.ball-pick:has(input[name="balls"][value="5"])')
    assert preview.inner_text() == "+16"  # the ace and ball 5
    page.click('.called-pot label.pocket-pick:has(input[value="far_left"])')
    no_horizontal_scroll(page)
    screenshot(page, "pyramid_classic-called-pot")
    tap(page, '.called-pot button[data-kind="pot"]', 1)
    assert scores(page) == [16, 0]


def test_a_stroke_of_seven_balls_is_two_taps_away(page, live_server, marker_on_phone):
    game = start(TableFactory(number=8), "pyramid_dynamic", ["Анна", "Борис"], marker_on_phone)
    open_console(page, live_server, game)
    seven = page.locator('.action-pot button[data-count="7"]')
    assert not seven.is_visible()  # +1 … +6 at hand, the rest folded away
    page.click(".action-pot details.more-counts summary")
    screenshot(page, "pyramid_dynamic-more-counts")
    no_horizontal_scroll(page)
    tap(page, '.action-pot button[data-count="7"]', 1)
    assert scores(page) == [7, 0]


def in_sight(page, selector):
    """The element is on the phone's screen, below the sticky strip."""
    box = page.locator(selector).bounding_box()
    strip = page.locator("#console [data-strip]").bounding_box()
    return (
        box is not None
        and box["y"] >= strip["y"] + strip["height"] - 1
        and (box["y"] + box["height"] <= PHONE["height"])
    )


def test_a_refused_stroke_says_why_where_the_marker_is_looking(page, live_server, marker_on_phone):
    game = start(TableFactory(number=9), "pyramid_classic", ["Анна", "Борис"], marker_on_phone)
    game = record(game, marker_on_phone, ev("pot", ball=15, pocket=rules.Pocket.FAR_LEFT))
    open_console(page, live_server, game)
    page.locator('.called-pot button[data-kind="pot"]').scroll_into_view_if_needed()
    page.click('.called-pot label.pocket-pick:has(input[value="far_left"])')
    # A console out of step with the table (a ball already down): the server refuses it.
    page.evaluate(
        """() => { const ball = document.querySelector('.called-pot input[name="ball"]');
                   ball.value = "15"; ball.checked = true; }"""
    )
    page.click('.called-pot button[data-kind="pot"]')
    alert = "#console [data-strip] [role=alert]"
    page.wait_for_selector(alert)
    assert page.locator(alert).inner_text() == "Шара 15 нет на столе: он уже забит."
    assert in_sight(page, '.called-pot button[data-kind="pot"]')  # the marker stays put
    screenshot(page, "pyramid_classic-refused")
    assert page.locator("#console").get_attribute("data-seq") == "1"
    assert scores(page) == [15, 0]


def test_the_winning_stroke_brings_finish_into_sight(page, live_server, marker_on_phone):
    names = ["Константин Преображенский", "Николай Фёдоров"]
    game = start(
        TableFactory(number=10), "pyramid_free", names, marker_on_phone, weaker_seat=1, head_start=1
    )
    game = record(game, marker_on_phone, ev("pot", count=7))
    open_console(page, live_server, game)
    # scrolled down to the buttons, "+1" mid-screen (the fouls in view below)
    page.evaluate(
        """() => { const plus = document.querySelector('.action-pot button[data-count="1"]');
                   window.scrollTo(0, plus.getBoundingClientRect().top + window.scrollY - 300); }"""
    )
    tap(page, '.action-pot button[data-count="1"]', 2)
    page.wait_for_timeout(300)
    assert in_sight(page, "[data-finish]")
    screenshot(page, "pyramid_free-won")


def test_opened_on_a_phone_the_buttons_are_at_hand(page, live_server, marker_on_phone):
    """The site's menu, the heading, the scoreboard and the figures pushed every button below
    a 740 px screen: the marker had to scroll before his first tap."""
    names = ["Константин Преображенский", "Николай Фёдоров"]
    game = start(TableFactory(number=11), "pyramid_dynamic", names, marker_on_phone, head_start=2)
    open_console(page, live_server, game)
    page.wait_for_timeout(200)
    assert in_sight(page, '.action-pot button[data-count="1"]')
    assert in_sight(page, "#console .scoreboard")  # both scores beneath the strip
    page.screenshot(path=str(ARTIFACTS / "console-pyramid_dynamic-opened.png"))


def test_a_called_pot_without_its_ball_says_why_in_the_page(page, live_server, marker_on_phone):
    """Issue 22 item 7: «Забит по заказу» with no ball chosen showed the browser's bubble (in
    the browser's language), with the first row of balls scrolled under the sticky strip. The
    page says which choice is missing, and the balls come into sight below the strip."""
    game = start(TableFactory(number=12), "pyramid_classic", ["Анна", "Борис"], marker_on_phone)
    open_console(page, live_server, game)
    page.locator('.called-pot button[data-kind="pot"]').scroll_into_view_if_needed()
    page.click('.called-pot button[data-kind="pot"]')
    missing = page.locator(".called-pot [data-missing]").first
    expect(missing).to_be_visible()
    assert missing.inner_text() == "Сначала выберите заказанный шар: нажмите на его номер."
    page.wait_for_timeout(300)
    assert in_sight(page, ".called-pot .ball-grid label.ball-pick >> nth=0")
    assert in_sight(page, ".called-pot [data-missing] >> nth=0")
    screenshot(page, "pyramid_classic-no-ball")
    assert page.locator("#console").get_attribute("data-seq") == "0"  # nothing was sent
    # The ball chosen, its message goes; the pocket's says what is left to choose.
    page.click('.called-pot label.ball-pick:has(input[name="ball"][value="15"])')
    expect(missing).to_be_hidden()
    page.click('.called-pot button[data-kind="pot"]')
    pocket = page.locator(".called-pot [data-missing]").nth(1)
    expect(pocket).to_have_text("Сначала выберите заказанную лузу.")
    page.click('.called-pot label.pocket-pick:has(input[value="far_left"])')
    tap(page, '.called-pot button[data-kind="pot"]', 1)
    assert scores(page) == [15, 0]
