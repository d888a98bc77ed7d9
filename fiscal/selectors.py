"""Reads of the register: the desk's panel (the register's state, the receipts waiting and
why), a payment's receipts, a shift's Z report."""

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from fiscal import drivers
from fiscal.models import (
    RECEIPT_KINDS,
    FiscalSettings,
    FiscalTask,
    RegisterState,
    TaskKind,
    TaskStatus,
)

# Why a task waits, in words.
REASONS = {
    drivers.OFFLINE: _("the register does not answer (off, or the network)"),
    drivers.PAPER: _("the register is out of paper (or its cover is open)"),
    drivers.SHIFT_EXPIRED: _("the register's shift passed 24 hours: close and reopen it"),
    drivers.SHIFT_CLOSED: _("the register's shift is closed"),
    drivers.SHIFT_OPEN: _("the register's shift is open"),
    drivers.STORAGE: _("the fiscal storage is full: replace it"),
    drivers.OFD: _("30 days without the OFD: the register is blocked"),
    drivers.REFUSED: _("the register refused it"),
    drivers.PENDING: _("the register is still making it"),
}
OFD_DAYS = 30


def reason_in_words(text):
    """A task's ``last_error`` ("reason: the register's words") in the reader's language."""
    if not text:
        return ""
    code, _sep, words = text.partition(": ")
    if code in REASONS:
        return f"{REASONS[code]}" + (f" ({words})" if words else "")
    return text


@dataclass
class Panel:
    enabled: bool
    state: RegisterState
    waiting: list
    oldest_unsent_days: int | None
    ofd_alarm: bool


def panel():
    club = FiscalSettings.load()
    state = RegisterState.load()
    waiting = list(
        FiscalTask.objects.filter(status=TaskStatus.WAITING)
        .select_related("payment", "bill__session__table")
        .order_by("pk")[:50]
    )
    for task in waiting:
        task.reason = reason_in_words(task.last_error)
        task.correctable = (
            task.kind in (TaskKind.SELL, TaskKind.SELL_RETURN)
            and task.payment_id is not None
            and task.posted_at is None
            and bool(task.last_error)
        )
    days = None
    if state.oldest_unsent_at:
        days = (timezone.now() - state.oldest_unsent_at) // timedelta(days=1)
    return Panel(
        enabled=club.enabled,
        state=state,
        waiting=waiting,
        oldest_unsent_days=days,
        ofd_alarm=days is not None and days >= OFD_DAYS - 5,
    )


def receipts_of_shift(shift):
    return FiscalTask.objects.filter(shift=shift, kind__in=RECEIPT_KINDS).exclude(
        status=TaskStatus.REPLACED
    )


def z_report(shift):
    """The register's closing of the shift (its Z report), or None."""
    return FiscalTask.objects.filter(shift=shift, kind=TaskKind.CLOSE_SHIFT).order_by("-pk").first()


def recent_receipts(count=50):
    return list(FiscalTask.objects.filter(kind__in=RECEIPT_KINDS).order_by("-pk")[:count])
