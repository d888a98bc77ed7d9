"""Writes of the register: receipt tasks written with the money (called by billing's
services inside their transactions, through ``fiscal.maker``), the register's shifts, the
correction receipt, and the sending itself (``drain``: the worker and the attempt made
right after a payment commits).

Exactly once: a task keeps its uuid; it is marked posted (committed) before it is posted,
and a task marked posted is first asked about (``Driver.outcome``) before it is posted
again — so a lost answer, a timeout or a crash between sending and saving never makes a
second receipt. A request the register refused (no paper, the shift over 24 h…) is posted
again under a new request id (the uuid and the attempt's number) once its cause is gone.
Tasks are sent in order, one at a time: the first that cannot be made holds the others
(the register's shift closes after its receipts).
"""

import logging
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import OperationalError, close_old_connections, connections, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from billing import services as billing_services
from billing.models import AuditAction, Payment, Shift
from billing.selectors import bill_summary
from clubs.current import each_club
from fiscal import receipts
from fiscal.drivers import (
    DONE,
    ERROR,
    OFFLINE,
    PENDING,
    SHIFT_CLOSED,
    RegisterUnreachable,
    driver_for,
)
from fiscal.models import (
    RECEIPT_KINDS,
    FiscalSettings,
    FiscalTask,
    RegisterState,
    TaskKind,
    TaskStatus,
)

log = logging.getLogger(__name__)

CLAIM_SECONDS = 120
CLOSE_UNSENT = "fiscal.close_shift_unsent"


def club():
    return FiscalSettings.load()


def enabled():
    return club().enabled


# Tasks written with the money --------------------------------------------------------------


def enqueue(kind, request, *, payment=None, bill=None, shift=None, user=None):
    task = FiscalTask.objects.create(
        kind=kind,
        request=request,
        total=abs(request.get("total", 0)),
        payment=payment,
        bill=bill,
        shift=shift,
        created_by=user,
    )
    transaction.on_commit(send_soon)
    return task


def _receipts_of(bill):
    return FiscalTask.objects.filter(bill=bill, kind__in=RECEIPT_KINDS).exclude(
        status=TaskStatus.REPLACED
    )


def _request_for(payment, buyer=""):
    settings_ = club()
    user = payment.recorded_by
    if payment.amount < 0:
        return TaskKind.SELL_RETURN, receipts.refund_request(payment, settings_, user, buyer)
    if payment.up_front:
        return TaskKind.SELL, receipts.prepayment_request(payment, settings_, user, buyer)
    earlier = list(_receipts_of(payment.bill))
    return TaskKind.SELL, receipts.payment_request(payment, settings_, user, earlier, buyer)


def receipt_for_payment(payment, buyer=""):
    """The receipt of a payment just recorded (in its transaction)."""
    kind, request = _request_for(payment, buyer)
    user = payment.recorded_by
    return enqueue(
        kind, request, payment=payment, bill=payment.bill, shift=payment.shift, user=user
    )


def receipt_for_settlement(bill):
    """A bill paid (partly) up front is settled: the advance set against what its lines
    still owe (the «full payment» receipt of prepaid time played)."""
    summary = bill_summary(bill)
    up_front = [p for p in summary.payments if p.up_front]
    if not up_front:
        return None
    prepaid = sum(p.amount for p in up_front) + sum(
        p.amount for p in summary.payments if p.amount < 0
    )
    earlier = list(_receipts_of(bill))
    covered = sum(receipts.covered_lines(bill, earlier).values())
    offset = min(prepaid, summary.total - covered)
    if offset <= 0:
        return None
    last = summary.payments[-1]
    shift = Shift.objects.filter(is_open=True).first() or last.shift
    request = receipts.settlement_request(bill, offset, club(), last.recorded_by, earlier)
    return enqueue(TaskKind.SELL, request, bill=bill, shift=shift, user=last.recorded_by)


def shift_opened(shift, user):
    request = {"type": TaskKind.OPEN_SHIFT, "operator": receipts.operator(user)}
    return enqueue(TaskKind.OPEN_SHIFT, request, shift=shift, user=user)


def waiting_receipts():
    return FiscalTask.objects.filter(status=TaskStatus.WAITING, kind__in=RECEIPT_KINDS)


def shift_closing(shift, user, reason=""):
    """The desk's shift closes: the register's Z report follows its receipts. Refused while
    receipts wait, unless a senior cashier (``fiscal.close_shift_unsent``) gives a reason."""
    waiting = waiting_receipts().count()
    if waiting:
        reason = " ".join((reason or "").split())
        if not reason:
            raise ValidationError(
                _(
                    "%(count)d receipts still wait for the register. Wait for them, or a "
                    "senior cashier closes the shift anyway with the reason."
                )
                % {"count": waiting},
                code="receipts_waiting",
            )
        if not user.has_perm(CLOSE_UNSENT):
            raise ValidationError(
                _("Only a senior cashier may close the shift while receipts wait."),
                code="receipts_waiting",
            )
        billing_services.audit(
            user=user,
            action=AuditAction.SHIFT_CLOSE_UNSENT,
            shift=shift,
            reason=reason,
            count=waiting,
        )
    request = {"type": TaskKind.CLOSE_SHIFT, "operator": receipts.operator(user)}
    return enqueue(TaskKind.CLOSE_SHIFT, request, shift=shift, user=user)


@transaction.atomic
def correct(*, payment, user, reason):
    """A correction receipt for money taken without a receipt (the register was dead): its
    waiting receipt, never posted, is replaced; audited with the reason."""
    if not enabled():
        raise ValidationError(_("No cash register is connected."), code="off")
    reason = " ".join((reason or "").split())
    if not reason:
        raise ValidationError(_("Say why the receipt is corrected."), code="reason")
    payment = Payment.objects.select_related("bill", "shift").get(pk=payment.pk)
    tasks = list(
        FiscalTask.objects.select_for_update()
        .filter(payment=payment)
        .exclude(status=TaskStatus.REPLACED)
    )
    if any(task.status == TaskStatus.DONE for task in tasks):
        raise ValidationError(_("This payment has its receipt already."), code="done")
    if any(task.posted_at is not None for task in tasks):
        raise ValidationError(
            _("The register may be making this receipt now: wait for its answer."),
            code="posted",
        )
    if tasks:
        original = tasks[0].request
        FiscalTask.objects.filter(pk__in=[t.pk for t in tasks]).update(status=TaskStatus.REPLACED)
    else:  # recorded while the site made no receipts
        original = _request_for(payment)[1]
    request = receipts.correction_request(original, reason, timezone.localdate(payment.at))
    task = enqueue(
        TaskKind.SELL_CORRECTION,
        request,
        payment=payment,
        bill=payment.bill,
        shift=Shift.objects.filter(is_open=True).first() or payment.shift,
        user=user,
    )
    billing_services.audit(
        user=user,
        action=AuditAction.RECEIPT_CORRECTION,
        session=payment.bill.session,
        bill=payment.bill,
        shift=payment.shift,
        reason=reason,
        amount=abs(payment.amount),
        method=payment.method,
    )
    return task


# Sending -----------------------------------------------------------------------------------


@dataclass
class Drained:
    done: int = 0
    waiting: int = 0
    reason: str = ""


def _claim(task):
    now = timezone.now()
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    claimed = (
        FiscalTask.objects.filter(pk=task.pk, status=TaskStatus.WAITING)
        .filter(free)
        .update(claimed_until=now + timedelta(seconds=CLAIM_SECONDS))
    )
    return claimed == 1


def _release(task):
    for attempt in range(5):
        try:
            FiscalTask.objects.filter(pk=task.pk).update(claimed_until=None)
            return
        except OperationalError:  # busy: the claim would hold the task for CLAIM_SECONDS
            time.sleep(0.1 * (attempt + 1))


def _done(task, params):
    when = parse_datetime(str(params.get("fiscalDocumentDateTime") or "")) or timezone.now()
    FiscalTask.objects.filter(pk=task.pk).update(
        status=TaskStatus.DONE,
        result=params,
        fiscal_document_number=params.get("fiscalDocumentNumber"),
        fiscal_document_sign=str(params.get("fiscalDocumentSign") or "")[:20],
        fiscal_receipt_number=params.get("fiscalReceiptNumber"),
        fn_number=str(params.get("fnNumber") or "")[:20],
        shift_number=params.get("shiftNumber"),
        fiscal_at=when,
        done_at=timezone.now(),
        last_error="",
    )


def _waits(task, reason, description, *, refused=False):
    """The task stays waiting with its reason; a request the register refused is posted
    again later under a new request id."""
    changes = {
        "tries": task.tries + 1,
        "last_error": f"{reason}: {description}"[:300] if description else reason,
        "last_error_at": timezone.now(),
    }
    if refused:
        changes.update(attempt=task.attempt + 1, posted_at=None)
    FiscalTask.objects.filter(pk=task.pk).update(**changes)


def send(task, driver, timeout):
    """Makes one task at the register; True when it is made."""
    try:
        if task.posted_at is not None:  # posted before: ask first, never post twice
            outcome = driver.outcome(task.request_id)
            if outcome.state == PENDING:
                outcome = driver.wait(task.request_id, timeout)
            if outcome.state == DONE:
                _done(task, outcome.params)
                return True
            if outcome.state == PENDING:
                _waits(task, PENDING, _("the register is still making it"))
                return False
            if outcome.state == ERROR:
                _waits(task, outcome.reason, outcome.description, refused=True)
                return False
        if task.kind in (TaskKind.OPEN_SHIFT, TaskKind.CLOSE_SHIFT):
            status = driver.status()  # open already (and not expired), or closed already
            if task.kind == TaskKind.OPEN_SHIFT:
                already = bool(status.shift_open) and not status.shift_expired
            else:
                already = status.shift_open is False
            if already:
                _done(task, {"shiftNumber": status.shift_number, "already": True})
                return True
        FiscalTask.objects.filter(pk=task.pk).update(posted_at=timezone.now())
        task.posted_at = timezone.now()
        driver.submit(task.request_id, task.request)
        outcome = driver.wait(task.request_id, timeout)
        if outcome.state == DONE:
            _done(task, outcome.params)
            return True
        if outcome.state == ERROR:
            if outcome.reason == SHIFT_CLOSED and task.is_receipt:
                _open_register_shift(driver, task, timeout)
            _waits(task, outcome.reason, outcome.description, refused=True)
            return False
        _waits(task, PENDING, _("the register is still making it"))
        return False
    except RegisterUnreachable as error:
        _waits(task, OFFLINE, str(error))
        return False


def _open_register_shift(driver, task, timeout):
    """A receipt found the register's shift closed (the site was switched on mid-shift):
    the shift is opened, the receipt posted again at once after."""
    request = {"type": TaskKind.OPEN_SHIFT, "operator": task.request.get("operator", {})}
    opening = FiscalTask.objects.create(
        kind=TaskKind.OPEN_SHIFT, request=request, shift=task.shift, created_by=task.created_by
    )
    send(opening, driver, timeout)


def drain(driver=None, limit=None, timeout=None):
    """Sends the waiting tasks in order until one cannot be made."""
    settings_ = club()
    driver = driver or driver_for(settings_)
    result = Drained()
    if driver is None:
        return result
    timeout = settings_.timeout_seconds if timeout is None else timeout
    while limit is None or result.done < limit:
        task = FiscalTask.objects.filter(status=TaskStatus.WAITING).order_by("pk").first()
        if task is None:
            break
        if not _claim(task):
            result.reason = "busy"
            break
        try:
            made = send(task, driver, timeout)
        finally:
            _release(task)
        if not made:
            task.refresh_from_db()
            if task.status == TaskStatus.DONE:
                continue
            result.reason = task.last_error
            break
        result.done += 1
    result.waiting = FiscalTask.objects.filter(status=TaskStatus.WAITING).count()
    return result


def refresh_state(driver=None):
    """Asks the register its shift, the documents it has not sent to the OFD and its fiscal
    storage's warnings; stored for the desk."""
    settings_ = club()
    driver = driver or driver_for(settings_)
    state = RegisterState.load()
    if driver is None:
        return state
    state.checked_at = timezone.now()
    try:
        status = driver.status()
    except RegisterUnreachable as error:
        state.reachable, state.error = False, str(error)[:300]
    else:
        state.reachable, state.error = True, ""
        state.shift_open, state.shift_number = status.shift_open, status.shift_number
        state.shift_expired = status.shift_expired
        state.unsent_count, state.oldest_unsent_at = status.unsent_count, status.oldest_unsent_at
        state.storage_warning = status.storage_warning[:200]
    state.save()
    return state


def _refresh_if_stale(seconds=30):
    """The desk's view of the register, asked again if older than ``seconds`` (the worker
    asks on its own rounds; this keeps the panel fresh without one)."""
    checked = RegisterState.load().checked_at
    if checked is None or timezone.now() - checked > timedelta(seconds=seconds):
        refresh_state()


def x_report(*, user, driver=None):
    """An X report printed now; its answer kept for the desk."""
    settings_ = club()
    driver = driver or driver_for(settings_)
    if driver is None:
        raise ValidationError(_("No cash register is connected."), code="off")
    request = {"type": "reportX", "operator": receipts.operator(user)}
    try:
        outcome = driver.run(f"x-{uuid.uuid4()}", request, settings_.timeout_seconds)
    except RegisterUnreachable as error:
        raise ValidationError(
            _("The register does not answer: %(why)s") % {"why": error}, code="offline"
        ) from None
    if outcome.state != DONE:
        raise ValidationError(
            _("The register did not print the X report: %(why)s")
            % {"why": outcome.description or outcome.state},
            code="refused",
        )
    state = RegisterState.load()
    state.last_x_report = {"at": timezone.now().isoformat(), **outcome.params}
    state.save()
    return outcome.params


def restart_register_shift(*, user, driver=None):
    """A register whose shift passed 24 hours takes no receipt: its shift is closed (Z
    report) and a new one opened now, ahead of the waiting receipts."""
    settings_ = club()
    driver = driver or driver_for(settings_)
    if driver is None:
        raise ValidationError(_("No cash register is connected."), code="off")
    shift = Shift.objects.filter(is_open=True).first()
    made = True
    for kind in (TaskKind.CLOSE_SHIFT, TaskKind.OPEN_SHIFT):
        request = {"type": kind, "operator": receipts.operator(user)}
        task = FiscalTask.objects.create(kind=kind, request=request, shift=shift, created_by=user)
        made = made and send(task, driver, settings_.timeout_seconds)
    if not made:
        raise ValidationError(
            _("The register did not restart its shift: see why on the desk."), code="refused"
        )
    refresh_state(driver)


# The attempt right after a payment commits -----------------------------------------------

_sender = threading.Lock()
_again = threading.Event()


def send_soon(force=False):
    """After a payment commits (or the desk's «send now»): one try in a thread of its own,
    never waiting for it (the worker sends whatever it leaves). One such thread per process:
    a payment committed while it sends makes it go round once more."""
    if not (force or getattr(settings, "FISCAL_SEND_AT_ONCE", True)) or not enabled():
        return
    _again.set()
    if _sender.locked():
        return
    threading.Thread(target=_send_in_background, daemon=True, name="fiscal-send").start()


def _send_in_background():
    if not _sender.acquire(blocking=False):
        return  # another thread of this process sends, and goes round again
    try:
        busy = 0
        while _again.is_set() and busy < 10:
            _again.clear()
            close_old_connections()
            try:
                for _club in each_club():  # the process's one sender, for every club
                    if enabled():
                        drain(limit=50)
                        _refresh_if_stale()
            except OperationalError:  # the database busy (SQLite's lock): soon again; a
                # task stopped between posting and saving is asked about first
                busy += 1
                _again.set()
                connections.close_all()
                time.sleep(0.1 * busy)
    except Exception:  # never let a register's trouble reach a request
        log.exception("Sending the receipts failed; the worker will try again.")
    finally:
        _sender.release()
        connections.close_all()
