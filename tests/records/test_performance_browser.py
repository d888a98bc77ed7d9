"""The performance on the player page of a 360 px phone and the desk's warning at 1280×800,
with long names, in Russian and English (issue 33, item 3). Screenshots go to
test-artifacts/ (git-ignored) so that a person can look at them."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tables.models import Table
from tests.conftest import login
from tests.factories import UserFactory, player
from tests.records.test_performance import draw, sandbagger, win
from tests.tournaments.test_tournaments import play_match
from toolbox.roles import ADMINS
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LONG = "Константин Преображенский-Длиннофамильный"


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"performance-{name}.png"), full_page=True)


# What sticks out of the screen, but for what scrolls in its own box (a table's .scroll).
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth)
    .filter(e => !e.parentElement.closest(".scroll"))
    .map(e => `${e.tagName}.${e.className}`).slice(0, 12)"""


def fits(page):
    return page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")


def played_a_tournament(who, rivals, tables):
    tournament = Tournament.objects.create(
        name="Открытый кубок клуба по русскому бильярду памяти основателей",
        date=timezone.localdate(),
        format="single",
        variant="clockwise",
        race_upper=2,
        race_final=2,
    )
    for entrant in [who, *rivals[:3]]:
        services.add_entrant(tournament=tournament, player=entrant)
    services.start_tournament(tournament=tournament, method="rating")
    while ready := [i for i in selectors.tournament_view(tournament).items if i.status == "ready"]:
        match = services.start_tournament_match(
            tournament=tournament, key=ready[0].spec.key, table=tables[0], marker=None
        )
        play_match(match, "a")
    return tournament


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_player_page_shows_the_months_on_a_phone(browser, live_server, language):
    tables = [Table.objects.create(number=n) for n in (1, 2)]
    ann = player(LONG)
    rivals = [player(f"Александра Константинопольская {i}", skill_class="3") for i in range(4)]
    at = timezone.now() - timedelta(days=95)
    for i in range(24):  # four months of games, two families
        rival = rivals[i % 4]
        if i % 3:
            win(ann, rival, at)
        else:
            draw(ann, rival, at)
        if i % 4 == 0:
            win(rival, ann, at + timedelta(minutes=30), variant="cork")
        at += timedelta(days=4)
    tournament = played_a_tournament(ann, rivals, tables)
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU" if language == "ru" else "en-US"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('players:detail', args=[ann.pk])}")
    section = page.locator("#performance")
    expect(section).to_be_visible()
    expect(section.locator("h2")).to_have_text(
        "Рейтинг игры" if language == "ru" else "Performance"
    )
    assert section.locator("tbody tr").count() >= 5  # the months of both families
    expect(page.locator(".player-tournaments tbody tr .performance-value")).to_have_count(1)
    screenshot(page, f"player-page-360x740-{language}")
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"performance-player-months-360x740-{language}.png"))
    # each month's table fits the phone whole: its last column is in sight
    assert page.evaluate(
        """() => [...document.querySelectorAll("#performance .scroll, .player-tournaments .scroll")]
            .every(box => box.scrollWidth <= box.clientWidth)"""
    )
    page.locator(".player-tournaments").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"performance-player-tournaments-360x740-{language}.png"))
    wide = page.evaluate(WIDER_THAN_THE_SCREEN)
    assert fits(page), wide
    # The tournament's final places, with the performance, on the same phone.
    page.goto(f"{live_server.url}{reverse('tournaments:detail', args=[tournament.pk])}#places")
    expect(page.locator("table.places tbody tr .performance-value")).to_have_count(4)
    assert fits(page), page.evaluate(WIDER_THAN_THE_SCREEN)
    page.locator("#places").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"performance-places-360x740-{language}.png"))
    context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_desk_warns_of_a_sandbagger_at_1280(browser, live_server, language):
    UserFactory(username="club-admin", groups=[ADMINS])
    sam, rivals = sandbagger(name="Самуил Сэндбэггеров-Длиннофамильный (Сэм)")
    tournament = Tournament.objects.create(
        name="Кубок с форой для всех разрядов, от новичков до мастеров спорта",
        date=timezone.localdate() + timedelta(days=3),
        format="single",
        variant="clockwise",
        handicap="head_start",
    )
    for who in [sam, *rivals]:
        services.add_entrant(tournament=tournament, player=who)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="ru-RU" if language == "ru" else "en-US"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    login(page, live_server, "club-admin")
    page.goto(f"{live_server.url}{reverse('tournaments:manage', args=[tournament.pk])}")
    warnings = page.locator("[data-form-warning]")
    expect(warnings).to_have_count(1)
    expect(warnings).to_contain_text(sam.full_name)
    expect(warnings).to_contain_text("проверьте фору" if language == "ru" else "check the handicap")
    assert fits(page)
    screenshot(page, f"desk-1280x800-{language}")
    context.close()
