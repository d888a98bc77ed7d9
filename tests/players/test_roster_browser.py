import re

import pytest
from playwright.sync_api import expect

from players.models import Player
from tests.conftest import login
from tests.factories import PlayerFactory


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_admin_adds_a_player_and_finds_him_by_live_search(page, live_server, admin_user):
    PlayerFactory(full_name="Пётр Сидоров")
    login(page, live_server, "admin-user")

    page.goto(f"{live_server.url}/players/")
    page.get_by_role("link", name="Добавить игрока").click()
    page.fill("input[name=full_name]", "Святослав Игоревич Громов")
    page.fill("input[name=nickname]", "Гром")
    page.fill("input[name=phone]", "+7 912 000-11-22")
    page.select_option("select[name=skill_class]", "cms")
    page.get_by_role("button", name="Сохранить").click()
    page.wait_for_url(re.compile(r"/players/$"))
    assert Player.objects.filter(full_name="Святослав Игоревич Громов", nickname="Гром").exists()

    results = page.locator("#player-results")
    expect(results).to_contain_text("Пётр Сидоров")
    # Typing filters the list without reloading the page.
    page.evaluate("window.notReloaded = true")
    page.locator("input[name=q]").press_sequentially("гром", delay=50)
    expect(results).to_contain_text("Святослав Игоревич Громов")
    expect(results).not_to_contain_text("Пётр Сидоров")
    assert page.evaluate("window.notReloaded") is True
    expect(page).to_have_url(re.compile(r"\?q=%D0%B3%D1%80%D0%BE%D0%BC"))
