"""The club's cash register, against a stand-in of ATOL's driver web server (tests/fiscal/
atol.py): every payment and refund a receipt, exactly once, saying the right thing; the
register's errors leave the receipt waiting with its reason; its shifts are the desk's."""

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from billing import services
from billing.models import AuditAction, AuditEntry, BarItem, PaymentMethod
from fiscal import services as fiscal
from fiscal.drivers import driver_for
from fiscal.drivers.atol import AtolWebServer
from fiscal.models import (
    FiscalSettings,
    FiscalTask,
    ItemTax,
    RegisterState,
    TaskKind,
    TaskStatus,
)
from tests.billing.test_bills import at  # the desk's Monday, as billing's tests have it
from tests.factories import UserFactory
from toolbox.roles import PLAYERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def shift(register, cashier):
    shift = services.open_shift(user=cashier, opening_cash=1000_00)
    fiscal.drain()
    return shift


def tender(amount=None, method=PaymentMethod.CASH, buyer=""):
    return services.Tender(method=method, amount=amount, receipt_number="", buyer=buyer)


def receipts_made(register):
    return [(kind, task) for kind, task, _params in register.receipts()]


def methods(task):
    return [item["paymentMethod"] for item in task["items"]]


def test_off_unless_configured(tariffs, table, cashier, cashier_client):
    shift = services.open_shift(user=cashier, opening_cash=0)
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(
        bill=session.bill, method="cash", amount=700_00, receipt_number="15", user=cashier
    )
    assert not FiscalTask.objects.exists()
    assert shift.payments.get().receipt_number == "15"
    page = cashier_client.get(reverse("billing:desk")).content.decode()
    assert "the site does not make receipts" in page or "сайт не пробивает чеков" in page


def test_the_register_s_shift_opens_with_the_desk_s(register, cashier):
    shift = services.open_shift(user=cashier, opening_cash=0)
    assert fiscal.drain().done == 1
    assert register.shift_state == "opened"
    # Already open (the desk's shift opened again after a crash): checked, not opened twice.
    task = fiscal.shift_opened(shift, cashier)
    assert fiscal.drain().done == 1
    task.refresh_from_db()
    assert task.result["already"] is True
    assert [kind for kind, _task, _params in register.documents] == ["openShift"]


def test_a_bill_paid_is_one_receipt_with_the_cashier_and_the_buyer(
    tariffs, table, cashier, shift, register
):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19, 30))
    payment = services.record_payment(
        bill=session.bill, method="card", amount=1050_00, user=cashier, buyer="+79161234567"
    )
    assert payment.receipt_number == ""
    task = FiscalTask.objects.get(payment=payment)
    assert task.status == TaskStatus.WAITING  # written with the payment, sent after
    assert fiscal.drain().done == 1
    task.refresh_from_db()
    assert task.status == TaskStatus.DONE
    assert task.fiscal_document_number and task.fiscal_document_sign and task.shift_number == 1
    [(kind, sent)] = receipts_made(register)
    assert kind == "sell"
    assert sent["taxationType"] == "usnIncome"
    assert sent["operator"] == {"name": "Анна"}
    assert sent["clientInfo"] == {"emailOrPhone": "+79161234567"}
    assert sent["payments"] == [{"type": "electronically", "sum": 1050.0}]
    [item] = sent["items"]
    assert item["paymentObject"] == "service" and item["paymentMethod"] == "fullPayment"
    assert item["measurementUnit"] == "hour" and item["quantity"] == 1.5
    assert item["tax"] == {"type": "none"} and item["amount"] == 1050.0


def test_a_prepaid_hour_stopped_early_has_its_three_receipts(
    tariffs, table, cashier, shift, register
):
    session = services.start_session(
        table=table, user=cashier, at=at(18), prepaid_minutes=60, tender=tender()
    )
    services.stop_session(session=session, user=cashier, at=at(18, 30))
    bill = session.bill
    services.record_refund(bill=bill, method="cash", amount=350_00, user=cashier)
    bill.refresh_from_db()
    assert bill.paid_at is not None
    assert fiscal.drain().done == 3
    (k1, prepaid), (k2, returned), (k3, settled) = receipts_made(register)
    assert (k1, methods(prepaid), prepaid["total"]) == ("sell", ["fullPrepayment"], 700.0)
    assert prepaid["items"][0]["quantity"] == 1.0 and prepaid["payments"][0]["type"] == "cash"
    assert (k2, methods(returned), returned["total"]) == ("sellReturn", ["fullPrepayment"], 350.0)
    assert (k3, methods(settled), settled["total"]) == ("sell", ["fullPayment"], 350.0)
    assert settled["payments"] == [{"type": "prepaid", "sum": 350.0}]


def test_a_prepaid_session_played_longer_pays_the_rest(tariffs, table, cashier, shift, register):
    session = services.start_session(
        table=table, user=cashier, at=at(18), prepaid_minutes=60, tender=tender()
    )
    services.stop_session(session=session, user=cashier, at=at(19, 30))
    services.record_payment(bill=session.bill, method="sbp", amount=350_00, user=cashier)
    fiscal.drain()
    (_k1, prepaid), (_k2, rest), (_k3, settled) = receipts_made(register)
    assert methods(rest) == ["fullPayment"] and rest["payments"][0]["type"] == "electronically"
    assert settled["payments"] == [{"type": "prepaid", "sum": 700.0}]
    # The lines are covered once: the rest and the advance add up to the time line.
    assert rest["items"][0]["amount"] + settled["items"][0]["amount"] == 1050.0


def test_split_shares_and_bar_goods(tariffs, table, cashier, shift, register):
    water = BarItem.objects.create(name="Чай", price=150_00)
    ItemTax.objects.create(bar_item=water, vat="vat5")
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    bill = session.bill
    services.add_bar_item(bill=bill, item=water, quantity=2, user=cashier)
    for name in ("Сокол", "Лена"):
        services.add_payer(bill=bill, name=name, user=cashier)
    bill.refresh_from_db()
    first, second = bill.payers.all()
    services.record_payment(bill=bill, method="cash", amount=500_00, user=cashier, payer=first)
    services.record_payment(bill=bill, method="card", amount=500_00, user=cashier, payer=second)
    assert fiscal.drain().done == 2
    (_k1, one), (_k2, two) = receipts_made(register)
    assert one["total"] == 500.0 and two["total"] == 500.0
    goods = [item for item in one["items"] + two["items"] if item["paymentObject"] == "commodity"]
    assert sum(item["amount"] for item in goods) == 300.0
    assert {item["tax"]["type"] for item in goods} == {"vat5"}
    time_parts = [
        item for item in one["items"] + two["items"] if item["paymentObject"] == "service"
    ]
    assert sum(item["amount"] for item in time_parts) == 700.0


def test_marked_goods_need_their_code(tariffs, table, cashier, shift, register):
    beer = BarItem.objects.create(name="Пиво", price=250_00, is_marked=True)
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    with pytest.raises(ValidationError, match="marking code|код маркировки"):
        services.add_bar_item(bill=session.bill, item=beer, quantity=1, user=cashier)
    with pytest.raises(ValidationError):
        services.add_bar_item(
            bill=session.bill, item=beer, quantity=2, user=cashier, marking_code="0104600"
        )
    code = "010460043993125621JgXJ5.T\x1d91EE06"
    services.add_bar_item(bill=session.bill, item=beer, quantity=1, user=cashier, marking_code=code)
    services.record_payment(bill=session.bill, method="cash", amount=950_00, user=cashier)
    fiscal.drain()
    [(_kind, sent)] = receipts_made(register)
    [marked] = [item for item in sent["items"] if item["name"] == "Пиво"]
    assert marked["paymentObject"] == "commodityWithMarking"
    assert marked["imcParams"]["itemEstimatedStatus"] == "itemPieceSold"


def test_the_bar_form_refuses_marked_goods_without_a_code(
    tariffs, table, cashier, cashier_client, shift
):
    beer = BarItem.objects.create(name="Пиво", price=250_00, is_marked=True)
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    url = reverse("billing:add_bar", args=[session.bill.pk])
    response = cashier_client.post(url, {"item": beer.pk, "quantity": 1})
    assert response.status_code == 400
    assert not session.bill.lines.filter(bar_item=beer).exists()


def test_a_lost_answer_is_asked_about_never_made_twice(tariffs, table, cashier, shift, register):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    register.lose_answers = 1  # made by the register, its answer lost (the client times out)
    result = fiscal.drain()
    assert result.done == 0 and result.waiting == 1
    task = FiscalTask.objects.get(kind=TaskKind.SELL)
    assert task.posted_at is not None and task.last_error.startswith("offline")
    assert fiscal.drain().done == 1
    assert len(register.receipts()) == 1
    task.refresh_from_db()
    assert task.status == TaskStatus.DONE and task.attempt == 0


def test_a_crash_between_sending_and_saving(tariffs, table, cashier, shift, register):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    task = FiscalTask.objects.get(kind=TaskKind.SELL)
    # The worker marked it posted, posted it and died before storing the answer.
    FiscalTask.objects.filter(pk=task.pk).update(posted_at=at(19))
    driver = driver_for(FiscalSettings.load())
    driver.submit(task.request_id, task.request)
    # A second post of the same uuid is the register's 409, not a second receipt.
    driver.submit(task.request_id, task.request)
    assert fiscal.drain().done == 1
    assert len(register.receipts()) == 1


def test_paper_out_waits_with_its_reason_then_goes_on(
    tariffs, table, cashier, cashier_client, shift, register
):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    payment = services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    register.fail_next = ["paper"]
    assert fiscal.drain().done == 0
    task = FiscalTask.objects.get(payment=payment)
    assert task.last_error.startswith("paper") and task.attempt == 1
    page = cashier_client.get(reverse("fiscal:register"), headers={"HX-Request": "true"})
    assert "out of paper" in page.content.decode() or "бумага" in page.content.decode()
    payment.refresh_from_db()
    assert payment.amount == 700_00  # nothing of the payment changed
    register.paper = True
    assert fiscal.drain().done == 1
    task.refresh_from_db()
    assert task.status == TaskStatus.DONE and task.request_id.endswith(".1")
    assert len(register.receipts()) == 1


def test_a_shift_over_24_hours_is_closed_and_reopened_from_the_desk(
    tariffs, table, cashier, cashier_client, shift, register
):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    register.expire_shift()
    fiscal.drain()
    fiscal.refresh_state()
    assert RegisterState.load().shift_expired
    assert FiscalTask.objects.get(kind=TaskKind.SELL).last_error.startswith("shift_expired")
    response = cashier_client.post(reverse("fiscal:restart_shift"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert register.shift_state == "opened" and register.shift_number == 2
    assert fiscal.drain().done == 1
    assert register.receipts()[0][2]["shiftNumber"] == 2


def test_a_register_that_does_not_answer(tariffs, table, cashier, shift, register):
    register.down = 2  # longer than the club's timeout (1 s)
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    assert fiscal.drain().done == 0
    assert FiscalTask.objects.get(kind=TaskKind.SELL).last_error.startswith("offline")
    assert not fiscal.refresh_state().reachable
    register.down = 0
    assert fiscal.drain().done == 1


def test_the_state_the_desk_shows(register, cashier, cashier_client):
    services.open_shift(user=cashier, opening_cash=0)
    fiscal.drain()
    register.pass_days_without_ofd(27)
    register.fn_warnings = {"memoryOverflow": True, "resourceExhausted": False}
    state = fiscal.refresh_state()
    assert state.shift_open and state.shift_number == 1 and state.unsent_count == 1
    assert state.storage_warning == "memoryOverflow"
    page = cashier_client.get(reverse("fiscal:register")).content.decode()
    assert "memoryOverflow" in page
    assert "30" in page  # the 30 days' warning


def test_closing_the_shift_waits_for_the_receipts(tariffs, table, cashier, senior, shift, register):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    with pytest.raises(ValidationError, match="Wait for them|Дождитесь"):
        services.close_shift(shift=shift, user=cashier, counted_cash=700_00)
    with pytest.raises(ValidationError, match="senior|старш"):
        services.close_shift(shift=shift, user=cashier, counted_cash=700_00, unsent_reason="x")
    fiscal.drain()
    services.close_shift(shift=shift, user=cashier, counted_cash=1700_00)
    assert fiscal.drain().done == 1
    z = FiscalTask.objects.get(kind=TaskKind.CLOSE_SHIFT)
    assert z.status == TaskStatus.DONE and z.fiscal_document_number
    assert register.shift_state == "closed"


def test_a_senior_closes_with_receipts_waiting_audited(
    tariffs, table, cashier, senior, shift, register
):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    services.close_shift(
        shift=shift, user=senior, counted_cash=1700_00, unsent_reason="Касса сломалась"
    )
    entry = AuditEntry.objects.get(action=AuditAction.SHIFT_CLOSE_UNSENT)
    assert entry.reason == "Касса сломалась" and entry.details["count"] == 1
    assert fiscal.drain().done == 2  # the receipt, then the Z report: in order


def test_the_shift_page_shows_the_z_report(tariffs, cashier, cashier_client, shift, register):
    services.close_shift(shift=shift, user=cashier, counted_cash=1000_00)
    fiscal.drain()
    z = FiscalTask.objects.get(kind=TaskKind.CLOSE_SHIFT)
    page = cashier_client.get(reverse("billing:shift")).content.decode()
    assert f"№{z.fiscal_document_number}" in page


def test_a_correction_receipt_for_money_taken_without_one(
    tariffs, table, cashier, cashier_client, shift, register
):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    payment = services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    register.paper = False
    fiscal.drain()
    url = reverse("fiscal:correct", args=[payment.pk])
    refused = cashier_client.post(url, {"reason": ""}, headers={"HX-Request": "true"})
    assert refused.status_code == 409
    answer = cashier_client.post(url, {"reason": "Касса была без бумаги"})
    assert answer.status_code == 200
    register.paper = True
    fiscal.drain()
    [(kind, sent)] = receipts_made(register)
    assert kind == "sellCorrection" and sent["correctionType"] == "self"
    assert sent["correctionBaseDate"] == f"{timezone.localdate(payment.at):%Y.%m.%d}"
    statuses = set(FiscalTask.objects.filter(payment=payment).values_list("status", flat=True))
    assert statuses == {TaskStatus.REPLACED, TaskStatus.DONE}
    assert AuditEntry.objects.get(action=AuditAction.RECEIPT_CORRECTION).reason
    # Once made, no second correction.
    again = cashier_client.post(url, {"reason": "ещё раз"})
    assert again.status_code == 409


def test_x_report(register, cashier, cashier_client):
    services.open_shift(user=cashier, opening_cash=0)
    fiscal.drain()
    response = cashier_client.post(reverse("fiscal:x_report"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert register.documents[-1][0] == "reportX"
    register.down = 2
    response = cashier_client.post(reverse("fiscal:x_report"), headers={"HX-Request": "true"})
    assert response.status_code == 409


def test_the_register_pages_check_the_role(client, register):
    url = reverse("fiscal:register")
    assert client.get(url).status_code == 302
    client.force_login(UserFactory(username="player-user", groups=[PLAYERS]))
    assert client.get(url).status_code == 403
    assert client.post(reverse("fiscal:send")).status_code == 403


def test_the_worker_command(tariffs, table, cashier, shift, register, capsys):
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    call_command("fiscal_worker", "--once")
    assert "made 1, waiting 0" in capsys.readouterr().out
    assert len(register.receipts()) == 1


def test_the_worker_without_a_register(db, capsys):
    call_command("fiscal_worker", "--once")
    assert "off" in capsys.readouterr().out


def test_a_slow_register_is_waited_for(tariffs, table, cashier, shift, register):
    register.delay = 0.3
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    services.record_payment(bill=session.bill, method="cash", amount=700_00, user=cashier)
    assert fiscal.drain().done == 1


def test_ffd_105_prints_the_unit_as_text(register):
    request = {
        "type": "sell",
        "tax_system": "osn",
        "ffd_12": False,
        "operator": {"name": "Анна", "inn": "500100732259"},
        "items": [
            {
                "name": "Стол 1",
                "object": "service",
                "method": "fullPayment",
                "price": 700_00,
                "quantity": "1.5",
                "unit": "hour",
                "amount": 1050_00,
                "vat": "vat20",
            }
        ],
        "payments": [{"type": "cash", "sum": 1050_00}],
        "total": 1050_00,
    }
    from fiscal.drivers.atol import atol_task

    task = atol_task(request)
    assert task["items"][0]["measurementUnit"] == "час"
    assert task["operator"] == {"name": "Анна", "vatin": "500100732259"}
    assert isinstance(AtolWebServer("http://x"), AtolWebServer)


def test_a_tournament_fee_is_a_service_paid_in_full(cashier, shift, register):
    """A tournament's entry fee: a line of its counter bill, paid like any bill; its
    receipt lists it as a service, paid in full."""
    bill = services.open_counter_bill(
        reference="fee:1:1",
        title="Взнос: турнир «Осень», Пётр",
        line="Взнос: турнир «Осень»",
        amount=500_00,
        user=cashier,
        payer_name="Пётр",
    )
    payment = services.record_payment(bill=bill, method="sbp", amount=500_00, user=cashier)
    assert fiscal.drain().done == 1
    [(kind, sent)] = receipts_made(register)
    assert kind == "sell" and FiscalTask.objects.get(payment=payment)
    [item] = sent["items"]
    assert (item["paymentObject"], item["paymentMethod"], item["amount"]) == (
        "service",
        "fullPayment",
        500.0,
    )
    assert item["name"] == "Взнос: турнир «Осень»"
    assert sent["payments"] == [{"type": "electronically", "sum": 500.0}]


def test_no_correction_without_a_register(tariffs, table, cashier, cashier_client):
    services.open_shift(user=cashier, opening_cash=0)
    session = services.start_session(table=table, user=cashier, at=at(18))
    services.stop_session(session=session, user=cashier, at=at(19))
    payment = services.record_payment(
        bill=session.bill, method="cash", amount=700_00, receipt_number="9", user=cashier
    )
    answer = cashier_client.post(reverse("fiscal:correct", args=[payment.pk]), {"reason": "x"})
    assert answer.status_code == 409
    assert not FiscalTask.objects.exists()
    assert cashier_client.post(reverse("fiscal:correct", args=[999])).status_code == 404
