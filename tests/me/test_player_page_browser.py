"""The player's page adds up (issue 31 item 4), on a 360×740 phone: his "the loser pays"
parts add up to his share as the page shows them; a booking the desk makes is on his page at
once; «Ваш выход» leaves it at his match's first stroke; his predicted start waits for his
opponent; a voided game of his reads «Не засчитана».

Screenshots go to test-artifacts/ (git-ignored): look at them.
"""

import datetime as dt
import re
import time
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from billing import services as billing_services
from billing.demo import load_demo_tariffs
from billing.models import BarItem, Reservation
from games import rules
from games import selectors as game_selectors
from games import services as game_services
from me import services as me_services
from tests.conftest import login
from tests.factories import GameFactory, PlayerFactory, TableFactory, UserFactory
from toolbox.roles import ADMINS, CASHIERS
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Tournament

from .conftest import account
from .test_player_page import at, loser_bill, played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"me-{name}.png"), full_page=True)


def kopecks(text):
    """ "1 234,56 ₽" → 123456."""
    digits = re.sub(r"[^\d,]", "", text).replace(",", ".")
    return int(Decimal(digits) * 100)


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(locale="ru-RU", viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_his_loser_pays_parts_add_up_to_his_share_on_his_phone(phone, live_server):
    """The time between the games read 0,00 ₽ while the bill shares it among everyone: the
    parts on his phone did not add up to the share above them."""
    load_demo_tariffs()
    lena = PlayerFactory(full_name="Елена Лебедева", nickname="Лена")
    account(lena, "lena")
    sokol = PlayerFactory(full_name="Иван Соколов", nickname="Сокол")
    boris = PlayerFactory(full_name="Борис Иванов")
    cashier = UserFactory(username="c", groups=[CASHIERS])
    table = TableFactory(number=1, kind="pyramid_12")
    played(table, [lena, boris], at(11), at(11, 25), losers=[lena])
    played(table, [boris, sokol], at(11, 32), at(12, 10), losers=[boris])
    bill = loser_bill(table, cashier, at(11), at(12, 10))
    tea = BarItem.objects.create(name="Чай", price=150_00)
    billing_services.add_bar_item(bill=bill, item=tea, quantity=1, user=cashier)
    login(phone, live_server, "lena")
    phone.goto(f"{live_server.url}/me/")
    box = phone.locator(f'.me-bill[data-bill="{bill.pk}"]')
    share = kopecks(box.locator(".me-big").inner_text())
    rows = box.locator(".me-parts tr")
    amounts = [kopecks(text) for text in rows.locator("td.num").all_inner_texts()]
    notes = rows.locator("small").all_inner_texts()
    assert share == 178_57 + 16_67 + 50_00
    assert amounts == [178_57, 0, 16_67, 50_00], notes
    assert sum(amounts) == share
    assert notes[2] == "между партиями: поровну"
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    screenshot(phone, "bill-parts")


STREAMS = """document.addEventListener("htmx:sseOpen", () => {
  window.__streams = (window.__streams || 0) + 1;
});"""


def stream_open(page, timeout=15.0):
    """Waits until his page's stream is open (the site's CSP forbids ``wait_for_function``)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate("(window.__streams || 0) > 0"):
        assert time.monotonic() < deadline, "his page's stream never opened"
        page.wait_for_timeout(100)


def test_a_booking_made_at_the_desk_is_on_his_phone_at_once(phone, live_server):
    """It reached his page only at the page's next sweep (15 s): now within 3 s, as a call."""
    lena = PlayerFactory(full_name="Елена Лебедева", nickname="Лена", phone="+7 912 345-67-89")
    account(lena, "lena")
    cashier = UserFactory(username="c", groups=[CASHIERS])
    table = TableFactory(number=2)
    phone.context.add_init_script(STREAMS)
    login(phone, live_server, "lena")
    phone.goto(f"{live_server.url}/me/")
    stream_open(phone)
    assert phone.locator(".me-bookings").count() == 0
    starts = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=2)
    billing_services.book_table(
        table=table, name="Лена", phone="8 912 345 67 89", starts_at=starts, minutes=90,
        user=cashier,
    )  # fmt: skip
    booked = time.monotonic()
    expect(phone.locator(".me-bookings li")).to_have_count(1, timeout=3000)
    assert time.monotonic() - booked < 3
    text = phone.locator(".me-bookings li").inner_text()
    assert "Стол 2" in text and "Бронь" in text, text
    screenshot(phone, "booking-pushed")


def drawn_tournament(lena):
    """A tournament of four (races to 2) drawn as entered, Lena first: (it, her first match,
    her three rivals)."""
    rivals = [PlayerFactory(full_name=f"Игрок {n}") for n in range(1, 4)]
    tournament = Tournament.objects.create(
        name="Кубок декабря", date=timezone.localdate(), format="single", variant="clockwise",
        registration_open=True, race_upper=2, race_final=2,
    )  # fmt: skip
    for who in [lena, *rivals]:
        tournament_services.sign_up(tournament=tournament, player=who)
    entrants = [entrant.pk for entrant in tournament.entrants.order_by("pk")]
    tournament_services.start_tournament(tournament=tournament, method="manual", manual=entrants)
    view = tournament_selectors.tournament_view(tournament)
    seed = tournament.entrants.get(player=lena).seed
    mine = next(i for i in view.queue if seed in (i.seed_a, i.seed_b))
    return tournament, mine, rivals


def called_match(lena, table):
    """Lena's first match of a tournament of four called to ``table``: (match, the desk)."""
    tournament, mine, _rivals = drawn_tournament(lena)
    desk = UserFactory(username="desk", groups=[ADMINS])
    match = tournament_services.start_tournament_match(
        tournament=tournament, key=mine.spec.key, table=table, marker=desk
    )
    return match, desk


def test_you_are_up_leaves_his_phone_at_his_matchs_first_stroke(phone, live_server):
    """«Ваш выход» stayed on his page after the first stroke, till the page's next sweep; and
    then his booked table, ready, called him there while he played his match."""
    lena = PlayerFactory(full_name="Елена Лебедева", nickname="Лена", phone="+7 912 345-67-89")
    account(lena, "lena")
    match, desk = called_match(lena, TableFactory(number=5))
    soon = timezone.now() + dt.timedelta(minutes=3)
    Reservation.objects.create(
        table=TableFactory(number=2), name="Лена", phone=lena.phone, starts_at=soon,
        ends_at=soon + dt.timedelta(hours=1),
    )  # fmt: skip
    phone.context.add_init_script(STREAMS)
    login(phone, live_server, "lena")
    phone.goto(f"{live_server.url}/me/")
    stream_open(phone)
    expect(phone.locator(".me-up-table")).to_have_text("Стол 5")
    screenshot(phone, "called")
    game = tournament_selectors.current_frame(match).game
    state = game_selectors.game_state(game)
    action = next(a for a in game_selectors.variant_of(game).legal_actions(state) if not a.fouls)
    game_services.record_event(game=game, expected_seq=0, event=action.event(), user=desk)
    expect(phone.locator(".me-up")).to_have_count(0, timeout=3000)
    expect(phone.locator(f'.me-game[data-game="{game.pk}"]')).to_have_count(1)
    phone.reload()  # as the page is rendered afresh: his booked table waits too
    phone.wait_for_selector(".me-bookings")
    expect(phone.locator(".me-up")).to_have_count(0)
    screenshot(phone, "playing")


def test_his_predicted_start_waits_for_his_opponent_on_his_phone(phone, live_server):
    """A table free, his opponent still at another table: the page said «about now»."""
    lena = PlayerFactory(full_name="Елена Лебедева", nickname="Лена")
    account(lena, "lena")
    tournament, mine, rivals = drawn_tournament(lena)
    view = tournament_selectors.tournament_view(tournament)
    seed = tournament.entrants.get(player=lena).seed
    rival_seed = mine.seed_b if mine.seed_a == seed else mine.seed_a
    rival = next(who for who in rivals if who.pk == view.entrants[rival_seed].player_id)
    for number in (1, 2):
        TableFactory(number=number)
    GameFactory(table=TableFactory(number=3), variant="pyramid_free", seats=[rival, "Гость"])
    login(phone, live_server, "lena")
    phone.goto(f"{live_server.url}/me/")
    shown = phone.locator(f'.me-next[data-next="{mine.spec.key}"] [data-predicted]')
    moment = dt.datetime.fromisoformat(shown.get_attribute("data-predicted"))
    minutes = (moment - timezone.now()).total_seconds() / 60
    assert 18 < minutes <= 20, minutes  # his one frame (20 min, none timed yet), not now
    expected = timezone.localtime(moment).strftime("%H:%M")
    expect(shown).to_have_text(f"Ожидаемое начало: около {expected}")
    expect(phone.locator(f'.me-next[data-next="{mine.spec.key}"]')).to_contain_text(
        "Впереди матчей: 1"
    )
    screenshot(phone, "predicted")


def test_a_voided_game_reads_not_counted_on_his_phone(phone, live_server):
    """A game he scored himself that the admins did not uphold read «Прервана»."""
    lena = PlayerFactory(full_name="Елена Лебедева", nickname="Лена")
    account(lena, "lena")
    sokol = PlayerFactory(full_name="Иван Соколов", nickname="Сокол")
    game = me_services.start_own_game(
        table=TableFactory(number=4), variant="pyramid_free", player=lena, opponent=sokol,
        breaks="me", settings={}, user=lena.user,
    )  # fmt: skip
    game = game_services.record_event(
        game=game, expected_seq=0, event=rules.Event("pot", count=8), user=lena.user
    )
    game_services.finish_game(game=game, user=lena.user)
    me_services.dispute(game_pk=game.pk, player=sokol, words="Было 8:6")
    me_services.void(game_pk=game.pk, user=UserFactory(username="adm", groups=[ADMINS]))
    login(phone, live_server, "lena")
    phone.goto(f"{live_server.url}/me/")
    row = phone.locator(".me-games li").filter(has=phone.locator(f'a[href="/games/{game.pk}/"]'))
    expect(row).to_contain_text("Не засчитана")
    expect(row).not_to_contain_text("Прервана")
    screenshot(phone, "voided")
