"""The tournament clock and the protocol in a real browser (issue 34 items 3 and 4): the
desk at 1366×768 and the TV board at 1920×1080 flag a slow match, the time ticking without
a round trip; the protocol prints on A4.

Screenshots go to test-artifacts/tournament-*.png (git-ignored) so that a person can look at
them.
"""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from players.models import Player
from tests.conftest import login
from tests.factories import UserFactory
from toolbox.roles import ADMINS
from tournaments import selectors, services
from tournaments.models import Match, Tournament

from .test_tournament_browser import ARTIFACTS, TV, context_page, screenshot
from .test_tournaments import play_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1366, "height": 768}


def cup(n, race=3):
    tournament = Tournament.objects.create(
        name="Кубок декабря",
        date="2026-12-04",
        format="single",
        variant="clockwise",
        race_upper=race,
        race_final=race,
    )
    names = ["Сокол", "Беркут", "Ястреб", "Кречет", "Орлан", "Филин", "Сапсан", "Коршун"]
    for name in names[:n]:
        services.add_entrant(tournament=tournament, player=Player.objects.create(full_name=name))
    entrants = list(tournament.entrants.order_by("pk"))
    services.start_tournament(
        tournament=tournament, method="manual", manual=[e.pk for e in entrants]
    )
    return tournament


def call(tournament, table, started_seconds_ago):
    key = selectors.tournament_view(tournament).queue[0].spec.key
    match = services.start_tournament_match(
        tournament=tournament, key=key, table=table, marker=None
    )
    started = timezone.now() - dt.timedelta(seconds=started_seconds_ago)
    Match.objects.filter(pk=match.pk).update(started_at=started)
    return match


def test_the_desk_and_the_tv_board_flag_a_slow_match(browser, live_server, tables):
    """A race to 3 (five frames at most): slow past 35 minutes, too slow past 50. The match on
    table 1 is a few seconds short of slow when the page opens and turns slow by itself."""
    UserFactory(username="desk-admin", groups=[ADMINS])
    tournament = cup(8)
    context, page = context_page(browser, DESK)
    try:
        login(page, live_server, "desk-admin")
        call(tournament, tables[0], 35 * 60 - 5)
        call(tournament, tables[1], 55 * 60)
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/manage/")
        first = page.locator("[data-key='U1.1'] [data-match-clock]")
        second = page.locator("[data-key='U1.2'] [data-match-clock]")
        expect(second.locator("[data-clock-flag]")).to_have_text("слишком долго")
        expect(second).to_have_class("match-clock is-alarm")
        expect(first.locator("[data-clock-flag]")).to_be_hidden()
        before = first.locator("[data-clock-text]").inner_text()
        assert before.startswith("0:34:5")
        # No reload: the browser counts on and flags it.
        expect(first.locator("[data-clock-flag]")).to_have_text("долго", timeout=12_000)
        expect(first).to_have_class("match-clock is-warn")
        assert first.locator("[data-clock-text]").inner_text().startswith("0:35:")
        expect(page.locator("[data-predicted-end]")).to_contain_text("Ожидаемое окончание ~")
        page.locator("[data-predicted-end]").scroll_into_view_if_needed()
        screenshot(page, "clock-desk", full_page=False)
    finally:
        context.close()

    context, page = context_page(browser, TV)
    try:
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/board/")
        live = page.locator(".tboard-live [data-match-clock]")
        expect(live).to_have_count(2)
        expect(live.nth(0).locator("[data-clock-flag]")).to_have_text("долго")
        alarm = live.nth(1).locator("[data-clock-flag]")
        expect(alarm).to_have_text("слишком долго")
        # Readable from 5 m: the flag at least 20 px high at 1080 lines, white on red.
        box = alarm.bounding_box()
        assert box["height"] >= 20 and box["y"] + box["height"] <= TV["height"]
        colours = alarm.evaluate(
            "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
        )
        assert colours == ["rgb(255, 255, 255)", "rgb(200, 16, 46)"]
        screenshot(page, "clock-tv-board", full_page=False)
        page.goto(f"{live_server.url}/board/")
        expect(page.locator("[data-table='2'] [data-clock-flag]")).to_have_text("слишком долго")
        screenshot(page, "clock-wall", full_page=False)
    finally:
        context.close()


def test_the_protocol_prints_on_a4(browser, live_server, tables):
    tournament = cup(6, race=1)
    while (view := selectors.tournament_view(tournament)).queue:
        item = view.queue[0]
        match = services.start_tournament_match(
            tournament=tournament, key=item.spec.key, table=tables[0], marker=None
        )
        play_match(match, "a" if item.seed_a < item.seed_b else "b")
    context, page = context_page(browser, {"width": 794, "height": 1123})  # A4 at 96 dpi
    try:
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/protocol/")
        expect(page.locator("h1")).to_have_text("Протокол турнира")
        expect(page.locator(".site-header")).to_be_visible()
        page.emulate_media(media="print")
        expect(page.locator(".site-header")).to_be_hidden()
        expect(page.locator(".protocol-tools")).to_be_hidden()
        rows = page.locator(".protocol-table tbody tr")
        expect(rows).to_have_count(6)
        expect(rows.nth(0).locator("td").nth(1)).to_have_text("Сокол")
        screenshot(page, "protocol-print")
        pdf = page.pdf(format="A4", print_background=True)
        assert pdf.startswith(b"%PDF")
        (ARTIFACTS / "tournament-protocol.pdf").write_bytes(pdf)
        # One A4 page: 595 × 842 points.
        assert b"/MediaBox [0 0 594.96 841.92]" in pdf or b"/MediaBox [0 0 595" in pdf
        no_scroll = page.evaluate("document.documentElement.scrollWidth <= 794")
        assert no_scroll
    finally:
        context.close()
