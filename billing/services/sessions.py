"""Writes of the tables' clocks: start, pause, resume, stop, move, and time corrections.

Every change of a clock is one of these functions, under the table's or the session's row
lock, and audited; once it commits, the ``clocks`` topic says so (the lights follow it).
"""

from dataclasses import replace
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from billing.models import OPEN_STATUSES, AuditAction, Bill, SessionStatus, Stretch, TableSession
from billing.pricing import MAX_DAYS
from billing.selectors.bills import bill_summary
from billing.selectors.sessions import VOID_MINUTES, prepaid_price
from billing.services.audit import audit
from billing.services.bills import (
    bill_stopped_session,
    keep_above_paid,
    open_bill,
    price_time_line,
)
from billing.services.payments import take_prepayment
from live import publish_on_commit, topics
from tables.models import Table


def locked_table(table):
    """The table row, locked until the transaction ends: one clock change per table at once."""
    return Table.objects.select_for_update().get(pk=table.pk)


def _locked_session(session):
    return (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table")
        .get(pk=session.pk)
    )


def check_playable(table):
    if not table.is_active or table.out_of_service:
        raise ValidationError(
            _("Table %(number)d is out of service.") % {"number": table.number}, code="closed"
        )


def _check_unbilled(table, start, end, *, session=None):
    """No other session's stretch of ``table`` overlaps ``[start, end)`` (``end`` None: from
    ``start`` on): an hour of a table is billed once. ``table`` is locked by the caller."""
    overlapping = Stretch.objects.filter(table=table).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=start)
    )
    if end is not None:
        overlapping = overlapping.filter(started_at__lt=end)
    if session is not None:
        overlapping = overlapping.exclude(session=session)
    other = overlapping.order_by("started_at").first()
    if other is not None:
        raise ValidationError(
            _(
                "Table %(number)d was in session %(session)d from %(from)s to %(to)s: "
                "the same hours cannot be billed twice."
            )
            % {
                "number": table.number,
                "session": other.session_id,
                "from": _moment(other.started_at),
                "to": _moment(other.ended_at) if other.ended_at else pgettext("until", "now"),
            },
            code="billed",
        )


def _moment(value):
    return timezone.localtime(value).strftime("%d.%m %H:%M:%S")


def _new_stretch(*, session, table, at):
    """The session's clock runs on ``table`` from ``at``: refused when that hour of the table
    is another session's (on PostgreSQL the database refuses it too)."""
    _check_unbilled(table, at, None, session=session)
    try:
        with transaction.atomic():
            return Stretch.objects.create(session=session, table=table, started_at=at)
    except IntegrityError as error:  # the exclusion constraint (PostgreSQL)
        raise ValidationError(
            _("Table %(number)d is billed to another session then.") % {"number": table.number},
            code="billed",
        ) from error


def _check_free(table):
    """``table`` (locked) can take a session: in service, and no clock running on it."""
    check_playable(table)
    if TableSession.objects.filter(table=table, status__in=OPEN_STATUSES).exists():
        raise ValidationError(
            _("Table %(number)d's clock is already running.") % {"number": table.number},
            code="running",
        )


@transaction.atomic
def start_session(*, table, user, prepaid_minutes=None, tender=None, at=None):
    """Starts ``table``'s clock now (or at ``at``); refused when it already runs. Prepaid
    time is paid up front: ``tender`` (``payments.Tender``) is the money taken at the
    register, recorded on the session's bill (its amount, if not given, is what the
    prepaid time costs at the tariff)."""
    table = locked_table(table)
    _check_free(table)
    if prepaid_minutes is not None and not 1 <= prepaid_minutes <= 24 * 60:
        raise ValidationError(_("Prepaid time is 1 to 1440 minutes."), code="prepaid")
    if prepaid_minutes is not None and tender is None:
        raise ValidationError(
            _("Prepaid time is paid up front: record the payment with it."), code="tender"
        )
    at = at or timezone.now()
    session = TableSession.objects.create(
        table=table, started_at=at, prepaid_minutes=prepaid_minutes, started_by=user
    )
    _new_stretch(session=session, table=table, at=at)
    audit(
        user=user,
        action=AuditAction.SESSION_START,
        session=session,
        table=table.number,
        prepaid_minutes=prepaid_minutes,
    )
    publish_on_commit(topics.CLOCKS)
    if prepaid_minutes is not None:
        if tender.amount is None:
            tender = replace(tender, amount=prepaid_price(table.kind, at, prepaid_minutes))
        bill = open_bill(session=session, user=user, at=at)
        take_prepayment(bill=bill, tender=tender, user=user, at=at)
    return session


def _open_stretch(session):
    return session.stretches.filter(ended_at__isnull=True).first()


def _end_stretch(stretch, at):
    """Stops an open stretch's clock at ``at`` (never before it started); returns the end."""
    stretch.ended_at = max(at, stretch.started_at)
    stretch.save(update_fields=["ended_at"])
    return stretch.ended_at


def _require(session, *statuses):
    if session.status not in statuses:
        raise ValidationError(
            _("This session is %(status)s: the clock cannot do that now.")
            % {"status": session.get_status_display().lower()},
            code="state",
        )


@transaction.atomic
def pause_session(*, session, user, at=None):
    session = _locked_session(session)
    _require(session, SessionStatus.RUNNING)
    _end_stretch(_open_stretch(session), at or timezone.now())
    return _set_status(session, SessionStatus.PAUSED, user=user, action=AuditAction.SESSION_PAUSE)


@transaction.atomic
def resume_session(*, session, user, at=None):
    session = _locked_session(session)
    _require(session, SessionStatus.PAUSED)
    table = locked_table(session.table)
    check_playable(table)
    at = at or timezone.now()
    last = session.stretches.order_by("-ended_at").values_list("ended_at", flat=True).first()
    if last is not None and at < last:
        raise ValidationError(_("The clock cannot resume before it was paused."), code="order")
    _new_stretch(session=session, table=table, at=at)
    return _set_status(session, SessionStatus.RUNNING, user=user, action=AuditAction.SESSION_RESUME)


def _set_status(session, status, *, user, action):
    session.status = status
    session.save(update_fields=["status"])
    audit(user=user, action=action, session=session, table=session.table.number)
    publish_on_commit(topics.CLOCKS)
    return session


@transaction.atomic
def stop_session(*, session, user, at=None):
    session = _locked_session(session)
    _require(session, SessionStatus.RUNNING, SessionStatus.PAUSED)
    at = at or timezone.now()
    stretch = _open_stretch(session)
    if stretch is not None:
        at = _end_stretch(stretch, at)
    session.status = SessionStatus.STOPPED
    session.stopped_at = max(at, session.started_at)
    session.save(update_fields=["status", "stopped_at"])
    audit(user=user, action=AuditAction.SESSION_STOP, session=session, table=session.table.number)
    publish_on_commit(topics.CLOCKS)
    bill_stopped_session(session=session, user=user)
    return session


@transaction.atomic
def void_session(*, session, reason, user, at=None):
    """A clock started by mistake, voided within ``VOID_MINUTES`` of its start with a reason:
    its played time is dropped and it leaves no bill (audited, with the times it had)."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the clock is voided."), code="reason")
    session = _locked_session(session)
    _require(session, SessionStatus.RUNNING, SessionStatus.PAUSED)
    at = at or timezone.now()
    if at - session.started_at > timedelta(minutes=VOID_MINUTES):
        raise ValidationError(
            _("A clock can be voided only in its first %(minutes)d minutes: stop it instead.")
            % {"minutes": VOID_MINUTES},
            code="late",
        )
    if Bill.objects.filter(session=session).exists():  # prepaid: money was taken
        raise ValidationError(
            _("Money was paid up front: stop the clock and give it back instead."), code="paid"
        )
    started = [stretch.started_at.isoformat() for stretch in session.stretches.all()]
    session.stretches.all().delete()
    session.status, session.stopped_at = SessionStatus.VOIDED, at
    session.save(update_fields=["status", "stopped_at"])
    audit(
        user=user,
        action=AuditAction.SESSION_VOID,
        session=session,
        reason=reason,
        table=session.table.number,
        old=[started[0] if started else None, at.isoformat()],
    )
    publish_on_commit(topics.CLOCKS)
    return session


@transaction.atomic
def move_session(*, session, to_table, user, at=None):
    """Moves a session to another table: the time so far stays priced where it was played."""
    session = _locked_session(session)
    _require(session, SessionStatus.RUNNING, SessionStatus.PAUSED)
    from_table = session.table
    if to_table.pk == from_table.pk:
        raise ValidationError(_("The session is already on this table."), code="same")
    to_table = locked_table(to_table)
    _check_free(to_table)
    stretch = _open_stretch(session)
    if stretch is not None:  # running: the clock goes on at the new table
        at = _end_stretch(stretch, at or timezone.now())
        _new_stretch(session=session, table=to_table, at=at)
    session.table = to_table
    session.save(update_fields=["table"])
    audit(
        user=user,
        action=AuditAction.SESSION_MOVE,
        session=session,
        table=to_table.number,
        from_table=from_table.number,
    )
    publish_on_commit(topics.CLOCKS)
    return session


@transaction.atomic
def correct_stretch(*, stretch, started_at, ended_at, reason, user):
    """Corrects a played stretch's times; a reason is required. Stretches of a session stay
    in order without overlapping, never end in the future, and an open one stays open."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the time is corrected."), code="reason")
    session = _locked_session(stretch.session)
    table = locked_table(stretch.table)
    bill = Bill.objects.filter(session=session).first()
    if bill is not None and bill.paid_at is not None:
        raise ValidationError(_("This bill is paid: its time can no longer change."), code="paid")
    stretch = session.stretches.get(pk=stretch.pk)
    now = timezone.now()
    if stretch.ended_at is None and ended_at is not None:
        raise ValidationError(_("The clock is running on this stretch: stop or pause it first."))
    if stretch.ended_at is not None and ended_at is None:
        raise ValidationError(_("A finished stretch needs its end."))
    if started_at > now or (ended_at is not None and ended_at > now):
        raise ValidationError(_("A time cannot be in the future."), code="future")
    if started_at < now - timedelta(days=MAX_DAYS):
        raise ValidationError(
            _("A time can be corrected at most %(days)d days back.") % {"days": MAX_DAYS},
            code="too_old",
        )
    if ended_at is not None and ended_at <= started_at:
        raise ValidationError(_("The end must be after the start."), code="order")
    # The session's stretches in their order (two at one moment, a move's empty one and the
    # next, by their order of writing): the corrected one stays between its neighbours.
    others = list(session.stretches.exclude(pk=stretch.pk))
    place = (stretch.started_at, stretch.pk)
    others.sort(key=lambda other: (other.started_at, other.pk))
    before = [other for other in others if (other.started_at, other.pk) < place]
    after = [other for other in others if (other.started_at, other.pk) > place]
    if before and started_at < before[-1].ended_at:
        raise ValidationError(_("The stretch would overlap the one before it."), code="overlap")
    if after and (ended_at is None or ended_at > after[0].started_at):
        raise ValidationError(_("The stretch would overlap the one after it."), code="overlap")
    _check_unbilled(table, started_at, ended_at, session=session)
    old = (stretch.started_at, stretch.ended_at)
    stretch.started_at, stretch.ended_at = started_at, ended_at
    try:
        with transaction.atomic():
            stretch.save(update_fields=["started_at", "ended_at"])
    except IntegrityError as error:  # the exclusion constraint (PostgreSQL)
        raise ValidationError(
            _("Table %(number)d is billed to another session then.") % {"number": table.number},
            code="billed",
        ) from error
    first = min([stretch.started_at] + [other.started_at for other in others])
    session.started_at = first
    if session.status == SessionStatus.STOPPED:
        session.stopped_at = max([s.ended_at for s in [stretch, *others]])
    session.save(update_fields=["started_at", "stopped_at"])
    audit(
        user=user,
        action=AuditAction.SESSION_CORRECT,
        session=session,
        reason=reason,
        table=stretch.table.number,
        old=[moment.isoformat() if moment else None for moment in old],
        new=[moment.isoformat() if moment else None for moment in (started_at, ended_at)],
    )
    publish_on_commit(topics.CLOCKS)
    if bill is not None:
        total_before = bill_summary(bill).total
        price_time_line(bill)
        keep_above_paid(bill, total_before)
    return stretch
