"""A property test of the whole desk (issue 21 item 11): random evenings of starts, pauses,
resumes, moves, corrections, stops, bar lines, discounts, splits, payments, refunds, shift
closes and a tariff change over several tables, through the services only. After every
step:

- no table has two overlapping played stretches (an hour is billed once);
- every bill's lines add up to its total, and its shares to the total;
- payments never exceed the total but by what was paid up front (then given back);
- a paid bill never changes (its lines, total, payments and shares);
- each shift's expected cash is its opening cash plus the cash it took (less refunds).

A refusal (``ValidationError``) is a legitimate answer to a random step; anything else
fails the test.
"""

from datetime import timedelta
from itertools import count

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from billing import selectors, services
from billing.demo import demo_bands, load_demo_tariffs
from billing.models import (
    OPEN_STATUSES,
    BarItem,
    Bill,
    Payment,
    PaymentMethod,
    SessionStatus,
    Shift,
    SplitMode,
    Stretch,
    TableSession,
)
from billing.pricing import Band
from clubs.current import only_club
from tests.factories import PlayerFactory, TableFactory, UserFactory

pytestmark = pytest.mark.django_db

KINDS = ["pyramid_12", "pyramid_12", "pyramid_10", "pyramid_9"]
MINUTES = st.integers(1, 90)


def tried(write, **kwargs):
    """The service's answer, or None when it refused (a translated ValidationError)."""
    try:
        return write(**kwargs)
    except ValidationError:
        return None


class Desk(RuleBasedStateMachine):
    """The cashier's evening, simulated from ten days ago (every time a service is given is
    in the past, as the corrections require), inside a transaction rolled back at the end."""

    def __init__(self):
        super().__init__()
        # Every example works for one club, there before the example's transaction: a club
        # made within it (a database another test flushed holds none) would go with its
        # rollback while the process still names it, until it reads the clubs again (each
        # minute) mid-example and makes another — the example's rows gone from sight.
        only_club()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()
        self.now = timezone.now().replace(microsecond=0) - timedelta(days=10)
        self.user = UserFactory()
        self.receipts = count(1)
        self.tables = [TableFactory(kind=kind) for kind in KINDS]
        self.items = [
            BarItem.objects.create(name=name, price=price)
            for name, price in (("Чай", 150_00), ("Пиво", 350_00), ("Вода", 99_50))
        ]
        self.member = PlayerFactory()
        self.paid = {}  # bill pk → its snapshot when it was paid
        self.cash = {}  # shift pk → the cash the machine saw it take

    def teardown(self):
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)

    # --- what the machine picks from ---------------------------------------------------

    def open_sessions(self):
        return list(TableSession.objects.filter(status__in=OPEN_STATUSES).order_by("pk"))

    def unpaid_bills(self):
        return list(
            Bill.objects.filter(paid_at__isnull=True, session__status=SessionStatus.STOPPED)
            .select_related("session")
            .order_by("pk")
        )

    def shift(self):
        return Shift.objects.filter(is_open=True).first()

    def tender(self, amount=None):
        return services.Tender(
            method=PaymentMethod.CASH, amount=amount, receipt_number=str(next(self.receipts))
        )

    # --- the evening ---------------------------------------------------------------------

    @initialize()
    def tariffs_and_a_shift(self):
        load_demo_tariffs()
        shift = services.open_shift(user=self.user, opening_cash=1000_00, at=self.now)
        self.cash[shift.pk] = 1000_00

    @rule(minutes=MINUTES)
    def time_passes(self, minutes):
        self.now += timedelta(minutes=minutes)

    def free_tables(self):
        running = set(
            TableSession.objects.filter(status__in=OPEN_STATUSES).values_list("table", flat=True)
        )
        return [table for table in self.tables if table.pk not in running]

    def sessions_in(self, status):
        return [session for session in self.open_sessions() if session.status == status]

    @precondition(lambda self: self.free_tables())
    @rule(pick=st.integers(0, 3), prepaid=st.sampled_from([None, None, 30, 60]))
    def start(self, pick, prepaid):
        tables = self.free_tables()
        tender = self.tender() if prepaid else None
        session = tried(
            services.start_session,
            table=tables[pick % len(tables)],
            user=self.user,
            prepaid_minutes=prepaid,
            tender=tender,
            at=self.now,
        )
        if session is not None and prepaid:
            payment = Payment.objects.get(bill__session=session)
            self.cash[payment.shift_id] = self.cash.get(payment.shift_id, 0) + payment.amount

    @precondition(lambda self: self.open_sessions())
    @rule(pick=st.integers(0, 10))
    def stop(self, pick):
        sessions = self.open_sessions()
        tried(
            services.stop_session,
            session=sessions[pick % len(sessions)],
            user=self.user,
            at=self.now,
        )

    @precondition(lambda self: self.sessions_in(SessionStatus.RUNNING))
    @rule(pick=st.integers(0, 10))
    def pause(self, pick):
        sessions = self.sessions_in(SessionStatus.RUNNING)
        tried(
            services.pause_session,
            session=sessions[pick % len(sessions)],
            user=self.user,
            at=self.now,
        )

    @precondition(lambda self: self.sessions_in(SessionStatus.PAUSED))
    @rule(pick=st.integers(0, 10))
    def resume(self, pick):
        sessions = self.sessions_in(SessionStatus.PAUSED)
        tried(
            services.resume_session,
            session=sessions[pick % len(sessions)],
            user=self.user,
            at=self.now,
        )

    @precondition(lambda self: self.open_sessions() and self.free_tables())
    @rule(pick=st.integers(0, 10), table=st.integers(0, 3))
    def move(self, pick, table):
        sessions, free = self.open_sessions(), self.free_tables()
        if sessions and free:
            tried(
                services.move_session,
                session=sessions[pick % len(sessions)],
                to_table=free[table % len(free)],
                user=self.user,
                at=self.now,
            )

    @rule(pick=st.integers(0, 50), start=st.integers(-180, 180), end=st.integers(-180, 180))
    def correct(self, pick, start, end):
        stretches = list(Stretch.objects.select_related("session").order_by("pk"))
        if not stretches:
            return
        stretch = stretches[pick % len(stretches)]
        ended = stretch.ended_at + timedelta(minutes=end) if stretch.ended_at else None
        tried(
            services.correct_stretch,
            stretch=stretch,
            started_at=stretch.started_at + timedelta(minutes=start),
            ended_at=ended,
            reason="a property test",
            user=self.user,
        )

    @precondition(lambda self: self.unpaid_bills())
    @rule(pick=st.integers(0, 10), item=st.integers(0, 2), quantity=st.integers(1, 3))
    def bar(self, pick, item, quantity):
        bills = self.unpaid_bills()
        if bills:
            tried(
                services.add_bar_item,
                bill=bills[pick % len(bills)],
                item=self.items[item],
                quantity=quantity,
                user=self.user,
            )

    @precondition(lambda self: self.unpaid_bills())
    @rule(pick=st.integers(0, 10), line=st.integers(0, 10))
    def remove_bar_line(self, pick, line):
        bills = self.unpaid_bills()
        if bills:
            bill = bills[pick % len(bills)]
            lines = list(bill.lines.filter(kind="bar").order_by("pk"))
            if lines:
                tried(
                    services.remove_line, bill=bill, line=lines[line % len(lines)], user=self.user
                )

    @precondition(lambda self: self.unpaid_bills())
    @rule(pick=st.integers(0, 10), percent=st.sampled_from([0, 10, 50, 100]))
    def discount(self, pick, percent):
        bills = self.unpaid_bills()
        if bills:
            tried(
                services.set_discount,
                bill=bills[pick % len(bills)],
                member=self.member if percent else None,
                discount_percent=percent,
                user=self.user,
            )

    @precondition(lambda self: self.unpaid_bills())
    @rule(
        pick=st.integers(0, 10), mode=st.sampled_from(SplitMode.values), share=st.integers(0, 100)
    )
    def split(self, pick, mode, share):
        bills = self.unpaid_bills()
        if not bills:
            return
        bill = bills[pick % len(bills)]
        for name in ("Анна", "Борис"):
            tried(services.add_payer, bill=bill, name=name, user=self.user)
        payers = list(bill.payers.order_by("pk"))
        percents = {payers[0].pk: share, payers[1].pk: 100 - share} if len(payers) == 2 else {}
        assignments = {line.pk: payers[0].pk for line in bill.lines.filter(kind="bar")}
        tried(
            services.set_split,
            bill=bill,
            mode=mode,
            percents=percents,
            assignments=assignments,
            user=self.user,
        )

    @precondition(lambda self: self.shift() is not None and self.unpaid_bills())
    @rule(
        pick=st.integers(0, 10), whole=st.booleans(), method=st.sampled_from(PaymentMethod.values)
    )
    def pay(self, pick, whole, method):
        bills = self.unpaid_bills()
        if not bills:
            return
        bill = bills[pick % len(bills)]
        balance = selectors.bill_summary(bill).balance
        if balance <= 0:
            return
        amount = balance if whole else max(balance // 2, 1)
        payment = tried(
            services.record_payment,
            bill=bill,
            method=method,
            amount=amount,
            receipt_number=str(next(self.receipts)),
            user=self.user,
            at=self.now,
        )
        if payment is not None and method == PaymentMethod.CASH:
            self.cash[payment.shift_id] = self.cash.get(payment.shift_id, 0) + amount

    @precondition(lambda self: self.shift() is not None and self.unpaid_bills())
    @rule(pick=st.integers(0, 10))
    def give_back(self, pick):
        bills = self.unpaid_bills()
        if not bills:
            return
        bill = bills[pick % len(bills)]
        over = -selectors.bill_summary(bill).balance
        if over > 0:
            refund = tried(
                services.record_refund,
                bill=bill,
                method=PaymentMethod.CASH,
                amount=over,
                receipt_number=str(next(self.receipts)),
                user=self.user,
                at=self.now,
            )
            if refund is not None:
                self.cash[refund.shift_id] = self.cash.get(refund.shift_id, 0) - over

    @rule()
    def close_and_open_the_shift(self):
        shift = self.shift()
        if shift is not None:
            services.close_shift(
                shift=shift, user=self.user, counted_cash=0, at=self.now, leave_open_business=True
            )
        shift = services.open_shift(user=self.user, opening_cash=500_00, at=self.now)
        self.cash[shift.pk] = 500_00

    @rule(kind=st.sampled_from(["pyramid_12", "pyramid_10"]), more=st.integers(-200, 300))
    def tariff_change(self, kind, more):
        bands = [
            Band(band.weekdays, band.start, band.end, max(band.price_per_hour + more * 100, 0))
            for band in demo_bands(kind)
        ]
        services.save_tariff(kind, bands, user=self.user, at=self.now)

    # --- what must hold after every step ------------------------------------------------

    @invariant()
    def no_table_has_overlapping_stretches(self):
        by_table = {}
        for table_id, start, end in Stretch.objects.values_list(
            "table_id", "started_at", "ended_at"
        ):
            if end is None or end > start:  # an empty stretch (two moves at once) holds nothing
                by_table.setdefault(table_id, []).append((start, end))
        for stretches in by_table.values():
            stretches.sort(key=lambda stretch: stretch[0])
            for (_start, end), (next_start, _end) in zip(stretches, stretches[1:], strict=False):
                assert end is not None and end <= next_start, stretches

    @invariant()
    def bills_add_up_and_paid_ones_never_change(self):
        for bill in Bill.objects.select_related("session").order_by("pk"):
            summary = selectors.bill_summary(bill)
            lines = sum(line.amount for line in summary.lines)
            assert summary.total == lines - summary.discount
            if summary.shares:
                assert sum(share for _payer, share in summary.shares) == summary.total
            prepaid = sum(payment.amount for payment in summary.prepaid)
            assert summary.paid <= summary.total + prepaid  # only money paid up front is over
            snapshot = (
                [
                    (line.kind, line.description, line.quantity, line.unit_price)
                    for line in summary.lines
                ],
                summary.total,
                summary.paid,
                [(payer.pk, share) for payer, share in summary.shares],
                [(payment.pk, payment.amount) for payment in summary.payments],
            )
            if bill.paid_at is not None:
                assert summary.balance == 0
                assert self.paid.setdefault(bill.pk, snapshot) == snapshot

    @invariant()
    def a_shift_expects_its_opening_cash_and_the_cash_it_took(self):
        # Every shift's report (``shift_report`` of each) from one query: this runs after
        # every step, over every shift opened so far.
        for report in selectors.shift_reports(Shift.objects.all()):
            assert report.expected_cash == self.cash[report.shift.pk]


Desk.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def test_the_desk_keeps_its_money_straight(db):
    Desk.TestCase().runTest()
