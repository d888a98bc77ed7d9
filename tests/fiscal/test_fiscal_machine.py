"""The desk's property test (tests/billing/test_desk_machine.py) with the club's register
on: random evenings of the same starts, stops, bar lines, splits, payments, refunds and
shifts, plus the register's worker sending in rounds while the register loses answers,
runs out of paper or is switched off, and the worker dying between posting a receipt and
storing its answer. After every step:

- no receipt is made twice: each task's uuid (and its attempts' ids) made at most one, and
  every receipt made belongs to a task that is made or still asking;
- each shift's receipts (waiting or made) take in exactly what its payments took in, less
  its refunds (the advance set against a prepaid bill is no money in);
- every settled prepaid bill has its receipts: the prepayment («предоплата 100 %»), each
  refund («возврат прихода», prepayment returned) and the settlement («полный расчёт» paid
  by the advance) when any of the advance was played;

and once the register is well again and the worker has drained everything, the receipts the
register made per shift add up to the payments and refunds of that shift.
"""

from collections import Counter
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule

from billing import selectors, services
from billing.models import Bill, Payment, Shift
from fiscal import services as fiscal
from fiscal.drivers.atol import AtolWebServer
from fiscal.models import RECEIPT_KINDS, FiscalSettings, FiscalTask, TaskKind, TaskStatus
from fiscal.receipts import PREPAID, money_in
from tests.billing.test_desk_machine import Desk, tried
from tests.factories import UserFactory
from tests.fiscal.atol import AtolStandIn

pytestmark = pytest.mark.django_db

TIMEOUT = 0.3


class DeskWithRegister(Desk):
    def __init__(self):
        self.stand_in = AtolStandIn().start()
        self.register = self.stand_in.register
        super().__init__()
        FiscalSettings.objects.create(
            pk=1, register="atol", atol_url=self.stand_in.url, timeout_seconds=1
        )
        self.user = UserFactory(is_superuser=True)  # a senior cashier: may close with receipts
        self.driver = AtolWebServer(self.stand_in.url, timeout=TIMEOUT)

    def teardown(self):
        try:
            super().teardown()
        finally:
            self.stand_in.stop()

    @rule()
    def close_and_open_the_shift(self):
        shift = self.shift()
        if shift is not None:
            services.close_shift(
                shift=shift,
                user=self.user,
                counted_cash=0,
                at=self.now,
                leave_open_business=True,
                unsent_reason="a property test",
            )
        shift = services.open_shift(user=self.user, opening_cash=500_00, at=self.now)
        self.cash[shift.pk] = 500_00

    @precondition(lambda self: self.shift() is not None and self.free_tables())
    @rule(pick=st.integers(0, 3), prepaid=st.sampled_from([30, 60, 90]), played=st.integers(1, 120))
    def prepaid_hour_played(self, pick, prepaid, played):
        """A prepaid session from start to settled: stopped early (money given back), on
        time, or late (the rest paid)."""
        tables = self.free_tables()
        session = tried(
            services.start_session,
            table=tables[pick % len(tables)],
            user=self.user,
            prepaid_minutes=prepaid,
            tender=self.tender(),
            at=self.now,
        )
        if session is None:  # its hour is another session's (a correction moved it there)
            return
        shift = self.shift()
        self.cash[shift.pk] += session.bill.payments.get().amount
        self.now += timedelta(minutes=played)
        if tried(services.stop_session, session=session, user=self.user, at=self.now) is None:
            return
        balance = selectors.bill_summary(session.bill).balance
        if balance > 0:
            write = services.record_payment
        elif balance < 0:
            write = services.record_refund
        else:
            return
        if tried(
            write,
            bill=session.bill,
            method="cash",
            amount=abs(balance),
            user=self.user,
            at=self.now,
        ):
            self.cash[shift.pk] += balance

    # --- the register and its worker ----------------------------------------------------

    @rule(limit=st.integers(1, 5))
    def worker_round(self, limit):
        fiscal.drain(driver=self.driver, limit=limit, timeout=TIMEOUT)

    @rule(trouble=st.sampled_from(["paper", "lost answer", "off", "well"]))
    def register_trouble(self, trouble):
        register = self.register
        register.paper, register.down, register.lose_answers = True, 0, 0
        if trouble == "paper":
            register.paper = False
        elif trouble == "lost answer":
            register.lose_answers = 1
        elif trouble == "off":
            register.down = TIMEOUT * 2

    @precondition(lambda self: FiscalTask.objects.filter(status=TaskStatus.WAITING).exists())
    @rule()
    def worker_dies_mid_send(self):
        """The worker marked the first task posted, posted it, and died before saving the
        register's answer (or before posting, if the register was off)."""
        task = FiscalTask.objects.filter(status=TaskStatus.WAITING).order_by("pk").first()
        FiscalTask.objects.filter(pk=task.pk).update(posted_at=self.now)
        try:
            self.driver.submit(task.request_id, task.request)
        except Exception:  # the register off: nothing was posted
            pass

    @rule()
    def register_well_and_drained(self):
        register = self.register
        register.paper, register.down, register.lose_answers = True, 0, 0
        for _round in range(3):  # a lost answer's posting thread may still hold the register
            fiscal.drain(driver=self.driver, timeout=TIMEOUT)
        waiting = FiscalTask.objects.filter(status=TaskStatus.WAITING)
        assert not waiting.exists(), [(t.kind, t.last_error) for t in waiting]
        made = {}
        tasks = {str(task.uuid): task for task in FiscalTask.objects.all()}
        for request_id, task, _params in register.made:
            owner = tasks[request_id.split(".")[0]]
            amount = money_in(_as_request(task))
            made[owner.shift_id] = made.get(owner.shift_id, 0) + amount
        for shift in Shift.objects.all():
            taken = sum(p.amount for p in Payment.objects.filter(shift=shift))
            assert made.get(shift.pk, 0) == taken, (shift.pk, made, taken)

    # --- what must hold after every step ------------------------------------------------

    # (Each invariant reads the tasks and payments it checks in one query, not one per
    # shift or bill: they run after every step, over every row made so far.)

    @invariant()
    def no_receipt_is_made_twice(self):
        by_task = Counter(request_id.split(".")[0] for request_id, _t, _p in self.register.made)
        assert all(count == 1 for count in by_task.values()), by_task
        tasks = {str(task.uuid): task for task in FiscalTask.objects.filter(uuid__in=by_task)}
        for uuid in by_task:
            task = tasks[uuid]  # a receipt made belongs to a task
            assert task.status == TaskStatus.DONE or task.posted_at is not None

    @invariant()
    def each_shift_s_receipts_take_in_its_payments(self):
        receipts, taken = Counter(), Counter()
        for shift_id, request in FiscalTask.objects.filter(kind__in=RECEIPT_KINDS).values_list(
            "shift_id", "request"
        ):
            receipts[shift_id] += money_in(request)
        for shift_id, amount in Payment.objects.values_list("shift_id", "amount"):
            taken[shift_id] += amount
        for shift in Shift.objects.all():
            assert receipts[shift.pk] == taken[shift.pk], (shift.pk, receipts, taken)

    @invariant()
    def every_settled_prepaid_bill_has_its_receipts(self):
        bills = Bill.objects.filter(paid_at__isnull=False, payments__up_front=True).distinct()
        receipts = {}
        for task in FiscalTask.objects.filter(bill__in=bills, kind__in=RECEIPT_KINDS):
            receipts.setdefault(task.bill_id, []).append(task)
        for bill in bills:
            summary = selectors.bill_summary(bill)
            tasks = receipts.get(bill.pk, [])
            prepayments = [
                t for t in tasks if _methods(t) == {"fullPrepayment"} and t.kind == "sell"
            ]
            returns = [t for t in tasks if t.kind == TaskKind.SELL_RETURN]
            settled = [t for t in tasks if _types(t) == {PREPAID}]
            assert len(prepayments) == len(summary.prepaid)
            assert len(returns) == len([p for p in summary.payments if p.amount < 0])
            assert all(_methods(t) == {"fullPrepayment"} for t in returns)
            advance = sum(p.amount for p in summary.payments if p.up_front or p.amount < 0)
            assert len(settled) == (1 if min(advance, summary.total) > 0 else 0)
            assert all(_methods(t) == {"fullPayment"} for t in settled)


def _methods(task):
    return {item["method"] for item in task.request.get("items", [])}


def _types(task):
    return {payment["type"] for payment in task.request.get("payments", [])}


def _as_request(atol_task):
    """An ATOL task made by the register, as money in or out (roubles to kopecks)."""
    payments = [
        {"type": p["type"], "sum": round(p["sum"] * 100)} for p in atol_task.get("payments", [])
    ]
    return {"type": atol_task["type"], "payments": payments}


DeskWithRegister.TestCase.settings = settings(
    max_examples=10,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def test_every_payment_is_one_receipt_whatever_the_register_does(db, settings):
    settings.FISCAL_SEND_AT_ONCE = False
    assert django_settings.FISCAL_SEND_AT_ONCE is False
    DeskWithRegister.TestCase().runTest()
