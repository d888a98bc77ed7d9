"""The cashier's evening in a real browser on a phone: start a table's clock, watch it
tick, pause it, stop it, and take the payment on the bill."""

import re

import pytest
from playwright.sync_api import expect

from billing import services
from billing.demo import load_demo_tariffs
from billing.models import Bill, TableSession
from tests.conftest import login
from tests.factories import TableFactory, UserFactory
from toolbox.roles import CASHIERS


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_cashier_runs_a_clock_and_takes_the_payment(page, live_server):
    load_demo_tariffs()
    cashier = UserFactory(username="kassa", groups=[CASHIERS])
    services.open_shift(user=cashier, opening_cash=1000_00)
    TableFactory(number=1, kind="pyramid_12")
    page.set_viewport_size({"width": 360, "height": 740})
    login(page, live_server, "kassa")

    page.goto(f"{live_server.url}/billing/desk/")
    card = page.locator("#desk-table-1")
    card.get_by_role("button", name="Запустить часы").click()
    expect(card.locator("[data-elapsed]")).to_have_text("0:00:01", timeout=5000)
    session = TableSession.objects.get()
    assert session.status == "running"

    card.get_by_role("button", name="Пауза").click()
    expect(card.locator(".clock-paused")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())  # "Stop the clock of table 1?"
    card.get_by_role("button", name="Стоп").click()
    page.wait_for_url(re.compile(r"/billing/bills/\d+/$"))

    # the minimum charge: 30 min at the table's band, whatever the hour
    balance = page.locator("tr.total").last
    expect(balance).to_have_text(re.compile(r"Остаток\s*[1-9][\d\s\xa0]*,00\s₽"))
    page.fill("input[name=receipt_number]", "4711")
    page.get_by_role("button", name="Записать оплату").click()
    expect(page.locator(".payments")).to_contain_text("№4711")
    assert Bill.objects.get().paid_at is not None


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_prepaid_hour_stopped_early_gives_the_rest_back_on_a_tablet(page, live_server):
    """Issue 21 item 3, as the cashier does it on a tablet: the prepaid hour's payment is
    taken with the clock, the bill of the clock stopped early says what to give back, the
    refund closes it; the desk lists no unpaid bill any more."""
    load_demo_tariffs()
    cashier = UserFactory(username="kassa", groups=[CASHIERS])
    services.open_shift(user=cashier, opening_cash=1000_00)
    TableFactory(number=1, kind="pyramid_12")
    page.set_viewport_size({"width": 768, "height": 1024})
    login(page, live_server, "kassa")

    page.goto(f"{live_server.url}/billing/desk/")
    card = page.locator("#desk-table-1")
    card.locator("input[name=prepaid_minutes]").fill("60")
    card.locator("summary", has_text="Оплата предоплаченного времени").click()
    card.locator("input[name=receipt_number]").fill("501")
    card.get_by_role("button", name="Запустить часы").click()
    expect(card.locator("[data-left]")).to_contain_text("осталось 0:59:5", timeout=5000)
    session = TableSession.objects.get()
    paid_up_front = session.bill.payments.get().amount  # the hour at the tariff
    page.once("dialog", lambda dialog: dialog.accept())
    card.get_by_role("button", name="Стоп").click()
    page.wait_for_url(re.compile(r"/billing/bills/\d+/$"))
    bill = Bill.objects.get()
    back = paid_up_front - bill.lines.get().amount  # the 30-minute minimum was played
    expect(page.locator("tr.to-give-back")).to_contain_text("Вернуть")
    page.fill("form[action$='/refund/'] input[name=receipt_number]", "502")
    page.get_by_role("button", name="Записать возврат").click()
    expect(page.locator(".payments")).to_contain_text("чек возврата №502")
    bill.refresh_from_db()
    assert bill.paid_at is not None and bill.payments.get(amount__lt=0).amount == -back
    page.goto(f"{live_server.url}/billing/desk/")
    expect(page.locator(".open-bills")).to_have_count(0)
