"""With the Content-Security-Policy on, the site works in a real browser and breaks no rule.

Chromium reports every blocked inline script, inline event handler, injected <style> or eval
as a console error naming the Content Security Policy: the test listens to the console of
every page it opens.
"""

import re

import pytest
from playwright.sync_api import expect

from games import services
from players.models import Player
from tables.models import Table
from tests.conftest import login
from tests.factories import UserFactory
from toolbox.roles import ADMINS, MARKERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def violations(page):
    """Console messages and page errors about the Content-Security-Policy, of every page."""
    found = []

    def watch(target):
        def on_console(message):
            text = message.text
            if "Content Security Policy" in text or "Refused to" in text:
                found.append(f"{message.type}: {text}")

        target.on("console", on_console)
        target.on("pageerror", lambda error: found.append(f"pageerror: {error}"))

    watch(page)
    page.context.on("page", watch)
    return found


def test_console_search_and_board_work_under_the_policy(page, live_server, violations):
    marker = UserFactory(username="marker-csp", groups=[MARKERS])
    UserFactory(username="admin-csp", groups=[ADMINS])
    table = Table.objects.create(number=7)
    Player.objects.create(full_name="Пётр Сидоров")
    lonely = Player.objects.create(full_name="Ошибочно Добавленный")
    game = services.start_game(
        table=table, variant="cork", settings={}, seats=["Анна", "Борис"], marker=marker
    )

    # The board on a TV, refreshing itself.
    board = page.context.new_page()
    response = board.goto(f"{live_server.url}/tables/7/board/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    shown = board.locator("[data-fp]").first.get_attribute("data-fp")

    # The marker taps a stroke on the console.
    login(page, live_server, "marker-csp")
    response = page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    assert "content-security-policy" in response.headers
    page.click('button.action-button[data-kind="stroke"]')
    page.wait_for_selector('#console[data-seq="1"]')
    page.click('button[data-foul="miss"]')
    page.wait_for_selector('#console[data-seq="2"]')

    # The board follows by itself.
    expect(board.locator("[data-fp]").first).not_to_have_attribute("data-fp", shown, timeout=8000)

    # An admin searches the roster as he types and deletes a player added by mistake.
    page.context.clear_cookies()
    login(page, live_server, "admin-csp")
    page.goto(f"{live_server.url}/players/")
    page.locator("input[name=q]").press_sequentially("сидо", delay=50)
    results = page.locator("#player-results")
    expect(results).to_contain_text("Пётр Сидоров")
    expect(results).not_to_contain_text("Ошибочно Добавленный")
    page.goto(f"{live_server.url}/players/{lonely.pk}/edit/")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("form[data-confirm] button").click()
    page.wait_for_url(re.compile(r"/players/$"))
    assert asked == ["Удалить этого игрока навсегда?"]
    assert not Player.objects.filter(pk=lonely.pk).exists()

    assert violations == []


def test_the_policy_is_enforced(page, live_server, violations):
    """The listener does see a violation: an inline script is refused and reported."""
    Table.objects.create(number=8)
    page.goto(f"{live_server.url}/tables/8/board/")
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.ran = true'; document.head.appendChild(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.ran") is None
    assert any("inline script" in v and "script-src 'self'" in v for v in violations)


def test_the_game_pickers_change_the_game_without_inline_script(page, live_server, violations):
    """Another game on the tournament form posts the form (site.js, ``data-submit-op``); on the
    match form, as on the start form, htmx swaps the form: both show that game's settings
    with nothing inline."""
    UserFactory(username="admin-match", groups=[ADMINS])
    Table.objects.create(number=9)
    login(page, live_server, "admin-match")
    page.goto(f"{live_server.url}/tournaments/new/")
    select = page.locator("select[data-submit-op]")
    other = select.locator("option").evaluate_all("os => os.map(o => o.value)")[-1]
    assert select.input_value() != other
    with page.expect_navigation():
        select.select_option(other)  # site.js submits the form with op=variant
    assert page.locator("select[data-submit-op]").input_value() == other
    page.goto(f"{live_server.url}/marker/matches/new/")
    select = page.locator("#match-form select[name=variant]")
    other = select.locator("option").evaluate_all("os => os.map(o => o.value)")[-1]
    assert select.input_value() != other
    select.select_option(other)  # htmx posts op=variant and swaps the form
    expect(page.locator("#match-form fieldset.settings")).to_contain_text("Фора")
    assert page.locator("#match-form select[name=variant]").input_value() == other
    assert violations == []
