"""The pyramid games' console in a real browser on a phone, tapped as a marker taps: the
classic game's called pot shows the points it would score before it is recorded, and a
stroke of seven balls or more is one tap behind "+7…".

Screenshots go to test-artifacts/ (git-ignored): look at them.
"""

import pytest

from clubsite.roles import MARKERS
from tests.conftest import login as sign_in
from tests.factories import TableFactory, UserFactory, start

from .test_console_browser import PHONE, no_horizontal_scroll, scores, screenshot, tap

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
