"""The players' own phones in a real browser, at 360×740: signing in with the desk's link (and
an expired or a reused one), /me/ fitting the screen, "you're up" shown in large type and as
a system notification with vibration while the tab is in the background, a game scored
without a marker on one phone and confirmed on the other, the tournament sign-up and
check-in, and a player trying a staff URL."""

import datetime as dt
import time
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone

from games.models import Game, GameStatus
from me import services as me_services
from me.models import SignInLink
from players.models import Player
from tables.models import Table
from tests.conftest import login
from tests.factories import PlayerFactory, TableFactory, UserFactory
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Tournament

from .conftest import account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Records every system notification and vibration the page asks for (the real ones still go
# to the browser), and what the page's visibility was then; counts the streams opened.
SPIES = """
(() => {
  window.__notes = []; window.__buzz = []; window.__streams = 0;
  document.addEventListener("htmx:sseOpen", () => { window.__streams += 1; });
  const Real = window.Notification;
  if (Real) {
    function Spy(title, options) {
      window.__notes.push({title: title, body: (options || {}).body || "",
                           hidden: document.visibilityState === "hidden"});
      try { return new Real(title, options); } catch (e) { return {}; }
    }
    Object.defineProperty(Spy, "permission", {get: () => Real.permission});
    Spy.requestPermission = (...args) => Real.requestPermission(...args);
    window.Notification = Spy;
  }
  navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };
})();
"""


def wait_until(page, expression, timeout=15.0):
    """Polls ``expression`` in the page until it is true (the site's CSP forbids the string
    evaluation ``wait_for_function`` uses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        page.wait_for_timeout(100)


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"me-{name}.png"), full_page=True)


def no_horizontal_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"


@pytest.fixture
def phone(browser, live_server):
    """A new phone (its own browser context) at 360×740, notifications allowed, spied on."""
    contexts = []

    def make():
        context = browser.new_context(locale="ru-RU", viewport=PHONE)
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_init_script(SPIES)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)  # a busy 2-core CI machine
        return page

    yield make
    for context in contexts:
        context.close()


def player(full_name, nickname, username, phone_number=""):
    who = PlayerFactory(full_name=full_name, nickname=nickname, phone=phone_number)
    account(who, username)
    return who


def hide(page):
    """The tab goes to the background: another tab in front, and the page told it is hidden
    (headless Chromium keeps every tab "visible" on its own)."""
    other = page.context.new_page()
    other.bring_to_front()
    page.evaluate(
        """() => {
          const hidden = (value) => ({configurable: true, get: () => value});
          Object.defineProperty(document, "visibilityState", hidden("hidden"));
          Object.defineProperty(document, "hidden", hidden(true));
          document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    assert page.evaluate("document.visibilityState") == "hidden"


def test_signing_in_with_the_desks_link_then_a_reused_and_an_expired_one(phone, live_server):
    olga = PlayerFactory(full_name="Ольга Волкова")
    token = me_services.issue_link(player=olga, user=None)
    page = phone()
    page.goto(f"{live_server.url}/me/join/{token}/")
    assert page.locator("h1").inner_text() == "Добро пожаловать: Ольга Волкова"
    no_horizontal_scroll(page)
    screenshot(page, "join")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "s3cret-cue-9")
    page.fill("input[name=password2]", "s3cret-cue-9")
    page.click("button[value=password]")
    page.wait_for_url(f"{live_server.url}/me/")
    assert page.locator(".me-head h1").inner_text() == "Ольга Волкова"
    no_horizontal_scroll(page)
    screenshot(page, "home")
    # The same link on another phone: used.
    other = phone()
    response = other.goto(f"{live_server.url}/me/join/{token}/")
    assert response.status == 410
    assert "уже использована" in other.locator("[data-refused]").inner_text()
    # An expired one.
    expired = me_services.issue_link(player=olga, user=None)
    SignInLink.objects.filter(used_at__isnull=True).update(
        expires_at=timezone.now() - dt.timedelta(minutes=1)
    )
    response = other.goto(f"{live_server.url}/me/join/{expired}/")
    assert response.status == 410 and "истёк" in other.locator("[data-refused]").inner_text()
    no_horizontal_scroll(other)


def test_you_are_up_notifies_with_the_tab_in_the_background(phone, live_server):
    lena = player("Елена Лебедева", "Лена", "lena")
    rivals = [Player.objects.create(full_name=f"Игрок {i}") for i in range(1, 4)]
    tournament = Tournament.objects.create(
        name="Кубок декабря",
        date=timezone.localdate(),
        format="single",
        variant="clockwise",
        registration_open=True,
    )
    for who in [lena, *rivals]:
        tournament_services.sign_up(tournament=tournament, player=who)
    entrants = list(tournament.entrants.order_by("pk"))
    tournament_services.start_tournament(
        tournament=tournament, method="manual", manual=[e.pk for e in entrants]
    )
    page = phone()
    login(page, live_server, "lena")
    page.goto(f"{live_server.url}/me/")
    page.wait_for_selector(".me-next")  # her next match, no table free yet
    assert page.locator(".me-up").count() == 0
    wait_until(page, "window.__streams > 0")
    hide(page)
    # The desk calls her match to table 5. (The table comes with the call, in one commit:
    # a free table seen before it would rightly tell her first "you're up next", then the
    # call — two announcements; a CI run's stream once pushed between the two.)
    view = tournament_selectors.tournament_view(tournament)
    seed = tournament.entrants.get(player=lena).seed
    key = next(i.spec.key for i in view.queue if seed in (i.seed_a, i.seed_b))
    admin = UserFactory(username="desk-admin")
    with transaction.atomic():
        table = TableFactory(number=5)
        tournament_services.start_tournament_match(
            tournament=tournament, key=key, table=table, marker=admin
        )
    wait_until(page, "window.__notes.length > 0")
    notes = page.evaluate("window.__notes")
    assert notes[0]["hidden"] is True and "Стол 5" in notes[0]["body"]
    assert page.evaluate("window.__buzz.length") == 1
    assert page.locator(".me-up-table").inner_text() == "Стол 5"
    page.bring_to_front()
    no_horizontal_scroll(page)
    screenshot(page, "you-are-up")
    # Told once: a reload does not notify again.
    page.reload()
    page.wait_for_selector(".me-up")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__notes.length") == 0


def test_two_phones_a_game_without_a_marker_and_its_confirmation(phone, live_server):
    player("Елена Лебедева", "Лена", "lena")
    sokol = player("Иван Соколов", "Сокол", "sokol")
    Table.objects.create(number=4, name="У окна")
    hers, his = phone(), phone()
    login(hers, live_server, "lena")
    login(his, live_server, "sokol")
    his.goto(f"{live_server.url}/me/")
    wait_until(his, "window.__streams > 0")  # his page's stream is open
    # Lena scans the table's QR code: its board, with her way to a game without a marker.
    hers.goto(f"{live_server.url}/tables/4/board/")
    hers.click("[data-play-here]")
    hers.wait_for_url(f"{live_server.url}/me/tables/4/play/")
    hers.select_option("select[name=variant]", "pyramid_free")
    hers.fill("input[name=q]", "Сок")
    hers.check("#found input[name=opponent]")
    no_horizontal_scroll(hers)
    screenshot(hers, "play")
    hers.click("[data-start-own]")
    hers.wait_for_url("**/marker/games/*/")
    game = Game.objects.get(table__number=4, status=GameStatus.IN_PROGRESS)
    # His page shows the game at once (pushed), as the board shows it.
    his.wait_for_selector(f'.me-game[data-game="{game.pk}"]')
    assert "Лена" in his.locator(".me-game").inner_text()
    hers.click('#console button[data-count="6"]')
    hers.wait_for_selector('#console[data-seq="1"]')
    hers.click('#console button[data-count="2"]')
    hers.wait_for_selector('#console[data-seq="2"]')
    screenshot(hers, "console")
    hers.click("[data-finish]")
    hers.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert "Ждёт подтверждения" in hers.content()
    # His phone asks him to confirm, pushed; he confirms.
    his.wait_for_selector(f'.me-confirm[data-confirm="{game.pk}"] [data-confirm-game]')
    no_horizontal_scroll(his)
    screenshot(his, "confirm")
    # The confirmation answers with a whole page load of his page (HX-Redirect): wait for it
    # rather than reload over it.
    with his.expect_navigation(url=f"{live_server.url}/me/"):
        his.click("[data-confirm-game]")
    his.wait_for_load_state()
    assert not his.locator(f'.me-confirm[data-confirm="{game.pk}"]').count()
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert (
        "Победа" in his.locator(".me-games").inner_text()
        or "Поражение" in his.locator(".me-games").inner_text()
    )
    assert sokol.pk


def test_tournament_sign_up_and_check_in_on_the_phone(phone, live_server):
    player("Елена Лебедева", "Лена", "lena")
    start = (timezone.now() + dt.timedelta(minutes=20)).astimezone(timezone.get_current_timezone())
    tournament = Tournament.objects.create(
        name="Кубок декабря",
        date=start.date(),
        start_time=start.time(),
        format="single",
        variant="clockwise",
        registration_open=True,
        registration_limit=16,
        checkin_minutes=60,
    )
    page = phone()
    login(page, live_server, "lena")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.click("[data-sign-up-button]")
    page.wait_for_selector("[data-my-entry]")
    no_horizontal_scroll(page)
    screenshot(page, "signed-up")
    page.goto(f"{live_server.url}/me/")
    page.click("[data-check-in]")
    page.wait_for_selector(".me-checked")
    assert tournament.entrants.get().checked_in_at is not None
    screenshot(page, "checked-in")
    # Withdraw before the draw, from the tournament's page.
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.click("[data-withdraw-entry]")
    page.wait_for_selector("[data-sign-up-button]")
    assert tournament.entrants.count() == 0


def test_a_player_trying_staff_urls_is_refused(phone, live_server):
    player("Елена Лебедева", "Лена", "lena")
    page = phone()
    login(page, live_server, "lena")
    for path in ("/marker/", "/billing/desk/", "/players/", "/tables/", "/me/desk/disputes/"):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 403, path
    page.goto(f"{live_server.url}/admin/")
    assert "/admin/login/" in page.url  # the Django admin: not for a player's account
    page.goto(f"{live_server.url}/")
    assert page.locator("nav [data-my-page]").count() == 1  # his way back to his own page
