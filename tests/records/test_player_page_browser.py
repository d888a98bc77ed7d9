"""The player page on a 360 px phone: nothing wider than the screen (tables scroll in their box)."""

import random
from pathlib import Path

import pytest
from django.urls import reverse

from games import demo, rules
from tables.models import Table
from tests.factories import PlayerFactory, UserFactory
from toolbox.roles import MARKERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def test_the_player_page_fits_a_360_px_phone(browser, live_server):
    marker = UserFactory(username="marker-phone", groups=[MARKERS])
    player = PlayerFactory(full_name="Константин Преображенский")
    rival = PlayerFactory(full_name="Александра Константинопольская")
    rng = random.Random(8)
    table = Table.objects.create(number=1)
    for key, variant in rules.VARIANTS.items():  # a game of each kind: every summary row
        for _game in range(2):
            demo.play(
                table=table,
                variant=key,
                settings={},
                players=[player, rival][: max(2, variant.min_seats)],
                marker=marker,
                rng=rng,
            )
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('players:detail', args=[player.pk])}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "player-page-360x740.png"), full_page=True)
    sizes = page.evaluate(
        """() => ({page: document.scrollingElement.scrollWidth, screen: window.innerWidth,
                   rows: document.querySelectorAll("table.records-summary tbody tr").length})"""
    )
    assert sizes["rows"] == len(rules.VARIANTS)
    assert sizes["page"] <= sizes["screen"], sizes
    context.close()
