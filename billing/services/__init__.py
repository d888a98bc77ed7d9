"""Writes of billing, one module per sub-domain: ``tariffs``, ``sessions`` (the tables'
clocks: start, pause, resume, stop, move, corrections), ``bills`` (lines, the bar, the
discount, payers, the split), ``payments``, ``shifts``, ``bookings`` and ``audit`` (the log's
one writer). Every check a form makes is in them too, so no caller can skip it.

Callers import this package (``from billing import services``); the names below are its
whole interface.
"""

from billing.services.audit import audit
from billing.services.bills import (
    add_bar_item,
    add_payer,
    open_bill,
    open_counter_bill,
    remove_line,
    remove_payer,
    set_discount,
    set_split,
)
from billing.services.bookings import (
    book_table,
    mark_no_shows,
    set_booking_status,
    when_booking_changed,
)
from billing.services.payments import Tender, receipt_used, record_payment, record_refund
from billing.services.payouts import paid_out, pay_out, reverse_payout
from billing.services.receipts import register_receipt_maker, site_makes_receipts
from billing.services.sessions import (
    correct_stretch,
    move_session,
    pause_session,
    resume_session,
    start_session,
    stop_session,
    void_session,
)
from billing.services.shifts import close_shift, open_shift
from billing.services.tariffs import (
    PAST_SLACK,
    record_version,
    save_tariff,
    validate_week,
    week_errors,
)

__all__ = [
    "PAST_SLACK",
    "Tender",
    "add_bar_item",
    "add_payer",
    "audit",
    "book_table",
    "close_shift",
    "correct_stretch",
    "mark_no_shows",
    "move_session",
    "open_bill",
    "open_counter_bill",
    "open_shift",
    "paid_out",
    "pause_session",
    "pay_out",
    "receipt_used",
    "register_receipt_maker",
    "record_version",
    "record_payment",
    "record_refund",
    "remove_line",
    "remove_payer",
    "resume_session",
    "reverse_payout",
    "save_tariff",
    "set_booking_status",
    "set_discount",
    "set_split",
    "site_makes_receipts",
    "start_session",
    "stop_session",
    "validate_week",
    "void_session",
    "week_errors",
    "when_booking_changed",
]
