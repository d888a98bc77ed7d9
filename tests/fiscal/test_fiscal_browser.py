"""The cashier's evening in a real browser with the club's register on, the register (the
stand-in of ATOL's web server) answering slowly and failing once: the desk never waits for
it, says why a receipt waits, sends it again, and every payment ends with its receipt."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from billing import services
from billing.demo import load_demo_tariffs
from billing.models import Bill, TableSession
from fiscal.models import FiscalSettings, FiscalTask, TaskStatus
from tests.conftest import login
from tests.factories import TableFactory, UserFactory
from toolbox.roles import CASHIERS

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "fiscal"


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-768x1024.png"), full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_cashier_s_evening_with_a_slow_register_that_fails_once(
    page, live_server, atol, settings
):
    settings.FISCAL_SEND_AT_ONCE = True  # as in production: one try right after the payment
    register = atol.register
    register.delay = 1.0  # a slow register: a second per document
    register.fail_next = ["paper"]  # the evening's first receipt meets an empty paper roll
    FiscalSettings.objects.create(pk=1, register="atol", atol_url=atol.url, timeout_seconds=5)
    load_demo_tariffs()
    cashier = UserFactory(username="kassa", groups=[CASHIERS])
    services.open_shift(user=cashier, opening_cash=1000_00)
    TableFactory(number=1, kind="pyramid_12")
    page.set_viewport_size({"width": 768, "height": 1024})
    login(page, live_server, "kassa")

    page.goto(f"{live_server.url}/billing/desk/")
    panel = page.locator("#fiscal-panel")
    card = page.locator("#desk-table-1")
    card.locator("input[name=prepaid_minutes]").fill("60")
    card.locator("summary", has_text="Оплата предоплаченного времени").click()
    expect(card.locator("input[name=receipt_number]")).to_have_count(0)  # the site makes it
    card.locator("input[name=buyer]").fill("guest@example.com")
    card.get_by_role("button", name="Запустить часы").click()
    expect(card.locator("[data-left]")).to_contain_text("осталось", timeout=5000)

    # The register ran out of paper: the desk says so and keeps working.
    expect(panel).to_contain_text("кончилась бумага", timeout=20_000)
    shoot(page, "desk-paper-out")
    register.paper = True
    panel.get_by_role("button", name="Отправить сейчас").click()
    expect(panel).to_contain_text("Все чеки пробиты", timeout=20_000)

    page.once("dialog", lambda dialog: dialog.accept())
    card.get_by_role("button", name="Стоп").click()
    page.wait_for_url(re.compile(r"/billing/bills/\d+/$"))
    page.get_by_role("button", name="Записать возврат").click()
    # The page answers at once, the slow register still making the refund's receipt.
    expect(page.locator(".payments")).to_contain_text("ФД №", timeout=5000)
    bill = Bill.objects.get()
    bill.refresh_from_db()
    assert bill.paid_at is not None

    page.goto(f"{live_server.url}/billing/desk/")
    expect(panel).to_contain_text("Все чеки пробиты", timeout=20_000)
    shoot(page, "desk-all-sent")
    page.goto(f"{live_server.url}/billing/bills/{bill.pk}/")
    expect(page.locator(".payments")).to_contain_text("чек возврата ФД №")
    shoot(page, "bill-receipts")
    kinds = [
        (kind, [i["paymentMethod"] for i in task["items"]])
        for kind, task, _p in register.receipts()
    ]
    assert kinds == [
        ("sell", ["fullPrepayment"]),
        ("sellReturn", ["fullPrepayment"]),
        ("sell", ["fullPayment"]),
    ]
    assert register.receipts()[0][1]["clientInfo"] == {"emailOrPhone": "guest@example.com"}
    assert not FiscalTask.objects.filter(status=TaskStatus.WAITING).exists()
    assert TableSession.objects.get().status == "stopped"
