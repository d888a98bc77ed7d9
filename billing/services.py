"""Writes of billing. Every check a form makes is here too, so no caller can skip it."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from billing import pricing
from billing.labels import day_names
from billing.models import (
    OPEN_STATUSES,
    AuditEntry,
    SessionStatus,
    Stretch,
    TableSession,
    Tariff,
    TariffBand,
)
from tables.models import Table


def week_errors(bands):
    """Translated messages naming every gap and overlap of one kind's bands over the week.

    ``bands`` are ``pricing.Band`` objects; an empty list means the week is covered once.
    """
    names = day_names()
    messages = []
    for problem in pricing.week_problems(bands):
        hours = problem.describe(names)
        if problem.kind == "gap":
            messages.append(_("No band covers %(hours)s.") % {"hours": hours})
        else:
            messages.append(_("More than one band covers %(hours)s.") % {"hours": hours})
    return messages


def validate_week(bands):
    errors = week_errors(bands)
    if errors:
        raise ValidationError(errors, code="week_coverage")


@transaction.atomic
def save_tariff(kind, bands):
    """Replaces the bands of ``kind`` with ``bands`` (``pricing.Band``) after checking that
    they cover the week exactly once; raises ValidationError and changes nothing otherwise."""
    validate_week(bands)
    tariff, _created = Tariff.objects.get_or_create(kind=kind)
    tariff.bands.all().delete()
    TariffBand.objects.bulk_create(
        TariffBand(
            tariff=tariff,
            weekdays="".join(str(day) for day in sorted(band.weekdays)),
            start=band.start,
            end=band.end,
            price_per_hour=band.price_per_hour,
        )
        for band in bands
    )
    return tariff


# --- the tables' clocks ------------------------------------------------------------------


def audit(*, user, action, session=None, reason="", **details):
    """Appends one entry to the audit log (who, when, what, why)."""
    known = user is not None and user.is_authenticated
    return AuditEntry.objects.create(
        user=user if known else None,
        username=user.get_username() if known else "",
        action=action,
        session=session,
        reason=reason,
        details=details,
    )


def _locked_table(table):
    """The table row, locked until the transaction ends: one clock change per table at once."""
    return Table.objects.select_for_update().get(pk=table.pk)


def _locked_session(session):
    return TableSession.objects.select_for_update().select_related("table").get(pk=session.pk)


def _check_playable(table):
    if not table.is_active or table.out_of_service:
        raise ValidationError(
            _("Table %(number)d is out of service.") % {"number": table.number}, code="closed"
        )


@transaction.atomic
def start_session(*, table, user, prepaid_minutes=None, at=None):
    """Starts ``table``'s clock now (or at ``at``); refused when it already runs."""
    table = _locked_table(table)
    _check_playable(table)
    if TableSession.objects.filter(table=table, status__in=OPEN_STATUSES).exists():
        raise ValidationError(
            _("Table %(number)d's clock is already running.") % {"number": table.number},
            code="running",
        )
    if prepaid_minutes is not None and not 1 <= prepaid_minutes <= 24 * 60:
        raise ValidationError(_("Prepaid time is 1 to 1440 minutes."), code="prepaid")
    at = at or timezone.now()
    session = TableSession.objects.create(
        table=table, started_at=at, prepaid_minutes=prepaid_minutes, started_by=user
    )
    Stretch.objects.create(session=session, table=table, started_at=at)
    audit(
        user=user,
        action="session.start",
        session=session,
        table=table.number,
        prepaid_minutes=prepaid_minutes,
    )
    return session


def _open_stretch(session):
    return session.stretches.filter(ended_at__isnull=True).first()


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
    at = at or timezone.now()
    stretch = _open_stretch(session)
    stretch.ended_at = max(at, stretch.started_at)
    stretch.save(update_fields=["ended_at"])
    session.status = SessionStatus.PAUSED
    session.save(update_fields=["status"])
    audit(user=user, action="session.pause", session=session, table=session.table.number)
    return session


@transaction.atomic
def resume_session(*, session, user, at=None):
    session = _locked_session(session)
    _require(session, SessionStatus.PAUSED)
    _check_playable(session.table)
    Stretch.objects.create(session=session, table=session.table, started_at=at or timezone.now())
    session.status = SessionStatus.RUNNING
    session.save(update_fields=["status"])
    audit(user=user, action="session.resume", session=session, table=session.table.number)
    return session


@transaction.atomic
def stop_session(*, session, user, at=None):
    session = _locked_session(session)
    _require(session, SessionStatus.RUNNING, SessionStatus.PAUSED)
    at = at or timezone.now()
    stretch = _open_stretch(session)
    if stretch is not None:
        stretch.ended_at = max(at, stretch.started_at)
        stretch.save(update_fields=["ended_at"])
        at = stretch.ended_at
    session.status = SessionStatus.STOPPED
    session.stopped_at = max(at, session.started_at)
    session.save(update_fields=["status", "stopped_at"])
    audit(user=user, action="session.stop", session=session, table=session.table.number)
    return session


@transaction.atomic
def move_session(*, session, to_table, user, at=None):
    """Moves a session to another table: the time so far stays priced where it was played."""
    session = _locked_session(session)
    _require(session, SessionStatus.RUNNING, SessionStatus.PAUSED)
    from_table = session.table
    if to_table.pk == from_table.pk:
        raise ValidationError(_("The session is already on this table."), code="same")
    to_table = _locked_table(to_table)
    _check_playable(to_table)
    if TableSession.objects.filter(table=to_table, status__in=OPEN_STATUSES).exists():
        raise ValidationError(
            _("Table %(number)d's clock is already running.") % {"number": to_table.number},
            code="running",
        )
    stretch = _open_stretch(session)
    if stretch is not None:  # running: the clock goes on at the new table
        at = max(at or timezone.now(), stretch.started_at)
        stretch.ended_at = at
        stretch.save(update_fields=["ended_at"])
        Stretch.objects.create(session=session, table=to_table, started_at=at)
    session.table = to_table
    session.save(update_fields=["table"])
    audit(
        user=user,
        action="session.move",
        session=session,
        table=to_table.number,
        from_table=from_table.number,
    )
    return session


@transaction.atomic
def correct_stretch(*, stretch, started_at, ended_at, reason, user):
    """Corrects a played stretch's times; a reason is required. Stretches of a session stay
    in order without overlapping, never end in the future, and an open one stays open."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the time is corrected."), code="reason")
    session = _locked_session(stretch.session)
    stretch = session.stretches.get(pk=stretch.pk)
    now = timezone.now()
    if stretch.ended_at is None and ended_at is not None:
        raise ValidationError(_("The clock is running on this stretch: stop or pause it first."))
    if stretch.ended_at is not None and ended_at is None:
        raise ValidationError(_("A finished stretch needs its end."))
    if started_at > now or (ended_at is not None and ended_at > now):
        raise ValidationError(_("A time cannot be in the future."), code="future")
    if ended_at is not None and ended_at <= started_at:
        raise ValidationError(_("The end must be after the start."), code="order")
    others = list(session.stretches.exclude(pk=stretch.pk))
    before = [other for other in others if other.started_at < stretch.started_at]
    after = [other for other in others if other.started_at > stretch.started_at]
    if before and started_at < before[-1].ended_at:
        raise ValidationError(_("The stretch would overlap the one before it."), code="overlap")
    if after and (ended_at is None or ended_at > after[0].started_at):
        raise ValidationError(_("The stretch would overlap the one after it."), code="overlap")
    old = (stretch.started_at, stretch.ended_at)
    stretch.started_at, stretch.ended_at = started_at, ended_at
    stretch.save(update_fields=["started_at", "ended_at"])
    first = min([stretch.started_at] + [other.started_at for other in others])
    session.started_at = first
    if session.status == SessionStatus.STOPPED:
        session.stopped_at = max([s.ended_at for s in [stretch, *others]])
    session.save(update_fields=["started_at", "stopped_at"])
    audit(
        user=user,
        action="session.correct",
        session=session,
        reason=reason,
        table=stretch.table.number,
        old=[moment.isoformat() if moment else None for moment in old],
        new=[moment.isoformat() if moment else None for moment in (started_at, ended_at)],
    )
    return stretch
