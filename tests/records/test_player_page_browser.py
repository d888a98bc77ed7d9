"""The player page on a 360 px phone: nothing wider than the screen (tables scroll in their box)."""

import random
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from games import demo, rules
from tables.models import Table
from tests.factories import T0, PlayerFactory, UserFactory, clockwise_stats, finished
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


@pytest.mark.parametrize(
    ("locale", "language", "mark", "hint"),
    [("ru-RU", "ru", "П", "Предварительный"), ("en-GB", "en", "provisional", "Provisional")],
)
def test_a_newcomer_s_rating_is_marked_provisional_and_a_regular_s_is_not(
    browser, live_server, locale, language, mark, hint
):
    """Issue 33: a newcomer after three games and a regular after thirty no longer look alike."""
    regular = PlayerFactory(full_name="Константин Преображенский")
    rival = PlayerFactory(full_name="Александра Константинопольская")
    newcomer = PlayerFactory(full_name="Новичок Первогодкин")
    start = T0
    for i in range(30):
        winner, loser = (regular, rival) if i % 3 else (rival, regular)
        clockwise(winner, loser, start + timedelta(days=i))
    for i in range(3):
        clockwise(newcomer, regular, start + timedelta(days=31 + i))
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"{live_server.url}{reverse('players:detail', args=[newcomer.pk])}")
    card = page.locator("#rating-pocketing h3")
    badge = card.locator("abbr.provisional")
    assert badge.inner_text() == mark and badge.is_visible()
    assert hint in badge.get_attribute("title")
    assert "±" in card.inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"newcomer-provisional-{language}.png"), full_page=True)
    page.goto(f"{live_server.url}{reverse('players:detail', args=[regular.pk])}")
    assert page.locator("#rating-pocketing h3 abbr.provisional").count() == 0
    assert page.locator("#rating-pocketing svg polygon.band").count() == 1
    context.close()


def clockwise(winner, loser, at):
    return finished(
        "clockwise",
        [(winner, "win", 70, clockwise_stats(9, 70)), (loser, "loss", 40, clockwise_stats(4, 40))],
        at=at,
    )
