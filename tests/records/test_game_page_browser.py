"""The public game page on a 360×740 phone, as an anonymous visitor reads it: who recorded
the game is a role («запись: маркёр»), never a staff member's login name (issue 31 item 4).

Screenshots go to test-artifacts/screenshots/ (git-ignored): look at them.
"""

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from tables.models import Table
from tests.factories import UserFactory, ev, record, start
from toolbox.roles import ADMINS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def test_a_visitor_reads_who_recorded_the_game_by_role(browser, live_server):
    admin = UserFactory(username="admin", groups=[ADMINS])
    game = start(Table.objects.create(number=2), "cork", ["Аня", "Борис"], admin, target=3)
    services.finish_game(game=record(game, admin, ev("score")), user=admin)
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('games:detail', args=[game.pk])}")
    expect(page.locator(".records-head [data-recorded-by]")).to_have_text("запись: администратор")
    expect(page.locator(".records-head")).not_to_contain_text("admin")
    assert "маркёр: admin" not in page.content()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "game-page-recorded-by-360x740.png"))
    context.close()
