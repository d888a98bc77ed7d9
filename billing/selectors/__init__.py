"""Reads of billing, one module per sub-domain: ``tariffs`` (the club's tariff for the
pricing engine), ``sessions`` (the tables' clocks, the desk's cards, a board's clock strip),
``bills`` (who played, the frames of "the loser pays", a bill's summary), ``shifts``,
``reports``, ``bookings`` and ``audit``.

Callers import this package (``from billing import selectors``); the names below are its
whole interface.
"""

from billing.selectors.audit import audit_of, bill_audit
from billing.selectors.bills import (
    BillSummary,
    bill_of,
    bill_summary,
    frames_of,
    games_of,
    open_bills,
    players_of,
    tables_with_unpaid_bill,
    unpaid_bills,
)
from billing.selectors.bookings import next_bookings, recent_bookings, tables_to_book
from billing.selectors.reports import (
    PeriodReport,
    payments_between,
    period_report,
    shift_period_report,
    utilisation,
)
from billing.selectors.sessions import (
    Clock,
    board_clock,
    clock_of,
    clock_running,
    clocks_by_table,
    desk_table,
    desk_tables,
    free_tables,
    move_targets,
    open_sessions,
    played,
    prepaid_price,
    price_of,
    session_detail,
    tables_with_running_clock,
)
from billing.selectors.shifts import (
    ShiftReport,
    open_business,
    open_shift,
    recent_shift_reports,
    shift_report,
    shift_reports,
)
from billing.selectors.tariffs import (
    band_rows,
    bands_of,
    club_tariff,
    club_tz,
    special_days,
    tariffs_overview,
)

__all__ = [
    "BillSummary",
    "Clock",
    "PeriodReport",
    "ShiftReport",
    "audit_of",
    "band_rows",
    "bands_of",
    "bill_audit",
    "bill_of",
    "bill_summary",
    "board_clock",
    "clock_of",
    "clock_running",
    "clocks_by_table",
    "club_tariff",
    "club_tz",
    "desk_table",
    "desk_tables",
    "frames_of",
    "free_tables",
    "games_of",
    "move_targets",
    "next_bookings",
    "open_bills",
    "open_business",
    "open_sessions",
    "open_shift",
    "payments_between",
    "period_report",
    "played",
    "players_of",
    "prepaid_price",
    "price_of",
    "recent_bookings",
    "recent_shift_reports",
    "session_detail",
    "shift_period_report",
    "shift_report",
    "shift_reports",
    "special_days",
    "tables_to_book",
    "tables_with_running_clock",
    "tables_with_unpaid_bill",
    "tariffs_overview",
    "unpaid_bills",
    "utilisation",
]
