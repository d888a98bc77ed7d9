"""The series in a browser (issue 34 item 1): the standings on a 1920×1080 screen, the TV
board read from across the hall, and a player's «Series» on his 360×740 phone, on the demo
club's cup.

Screenshots go to test-artifacts/ (git-ignored): look at them.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from players.models import Player
from season import selectors
from season.models import Series
from tests.conftest import login
from tests.factories import UserFactory
from toolbox.roles import PLAYERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1920, "height": 1080}
PHONE = {"width": 360, "height": 740}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"series-{name}.png"), full_page=True)


@pytest.fixture
def cup(demo_club_rows):
    demo_club_rows.restore()
    series = Series.objects.get(name="Кубок сезона")
    table = selectors.table_of(series)
    # The last line's player holds a wildcard; the one above it has an account.
    series.wildcards.add(table.lines[-1].player_id)
    return series, table


def test_the_standings_and_the_tv_board_at_1920_by_1080(browser, live_server, cup):
    series, table = cup
    context = browser.new_context(locale="ru-RU", viewport=SCREEN)
    page = context.new_page()
    page.goto(f"{live_server.url}/series/{series.pk}/")
    expect(page.locator("h1")).to_contain_text("Кубок сезона")
    rows = page.locator(".series-table tbody tr[data-player]")
    expect(rows).to_have_count(len(table.lines))
    expect(page.locator(".series-table b.counted").first).to_be_visible()
    expect(page.locator(".series-table .final-line")).to_contain_text("Финал")
    expect(page.locator(".series-table tr.wildcard .badge")).to_be_visible()
    screenshot(page, "standings")

    page.goto(f"{live_server.url}/series/{series.pk}/board/")
    first = page.locator(".series-board-table tbody tr").first
    expect(first).to_contain_text(table.lines[0].name)
    size = float(first.evaluate("row => getComputedStyle(row.cells[1]).fontSize")[:-2])
    assert size >= 36  # read from 5 m on a 1080-line TV
    board = page.locator("#series-board").bounding_box()
    assert board["height"] <= SCREEN["height"]  # a page of lines fits the screen
    screenshot(page, "board")
    context.close()


def test_a_players_series_on_his_phone(browser, live_server, cup):
    series, table = cup
    line = table.lines[-2]
    user = UserFactory(username="cup-player", groups=[PLAYERS])
    Player.everywhere.filter(pk=line.player_id).update(user=user)
    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True)
    page = context.new_page()
    login(page, live_server, "cup-player")
    page.goto(f"{live_server.url}/me/")
    section = page.locator("[data-series]")
    expect(section).to_contain_text("Кубок сезона")
    expect(section).to_contain_text(f"Место {line.place}")
    expect(section.locator("[data-outlook]")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    section.scroll_into_view_if_needed()
    screenshot(page, "me")
    context.close()
