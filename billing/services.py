"""Writes of billing. Every check a form makes is here too, so no caller can skip it."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from billing import pricing
from billing.labels import day_names
from billing.models import (
    HOLDING_STATUSES,
    OPEN_STATUSES,
    AuditEntry,
    Bill,
    BillingSettings,
    BillLine,
    LineKind,
    Payer,
    Payment,
    Reservation,
    ReservationStatus,
    SessionStatus,
    Shift,
    SplitMode,
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


def audit(*, user, action, session=None, bill=None, shift=None, reason="", **details):
    """Appends one entry to the audit log (who, when, what, why)."""
    known = user is not None and user.is_authenticated
    return AuditEntry.objects.create(
        user=user if known else None,
        username=user.get_username() if known else "",
        action=action,
        session=session,
        bill=bill,
        shift=shift,
        reason=reason,
        details=details,
    )


def _locked_table(table):
    """The table row, locked until the transaction ends: one clock change per table at once."""
    return Table.objects.select_for_update().get(pk=table.pk)


def _locked_session(session):
    return (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table")
        .get(pk=session.pk)
    )


def _check_playable(table):
    if not table.is_active or table.out_of_service:
        raise ValidationError(
            _("Table %(number)d is out of service.") % {"number": table.number}, code="closed"
        )


def _check_free(table):
    """``table`` (locked) can take a session: in service, and no clock running on it."""
    _check_playable(table)
    if TableSession.objects.filter(table=table, status__in=OPEN_STATUSES).exists():
        raise ValidationError(
            _("Table %(number)d's clock is already running.") % {"number": table.number},
            code="running",
        )


@transaction.atomic
def start_session(*, table, user, prepaid_minutes=None, at=None):
    """Starts ``table``'s clock now (or at ``at``); refused when it already runs."""
    table = _locked_table(table)
    _check_free(table)
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
    return _set_status(session, SessionStatus.PAUSED, user=user, action="session.pause")


@transaction.atomic
def resume_session(*, session, user, at=None):
    session = _locked_session(session)
    _require(session, SessionStatus.PAUSED)
    _check_playable(session.table)
    Stretch.objects.create(session=session, table=session.table, started_at=at or timezone.now())
    return _set_status(session, SessionStatus.RUNNING, user=user, action="session.resume")


def _set_status(session, status, *, user, action):
    session.status = status
    session.save(update_fields=["status"])
    audit(user=user, action=action, session=session, table=session.table.number)
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
    audit(user=user, action="session.stop", session=session, table=session.table.number)
    open_bill(session=session, user=user)
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
    _check_free(to_table)
    stretch = _open_stretch(session)
    if stretch is not None:  # running: the clock goes on at the new table
        at = _end_stretch(stretch, at or timezone.now())
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
    bill = Bill.objects.filter(session=session).first()
    if bill is not None and bill.payments.exists():
        raise ValidationError(_("The bill has payments: its time can no longer change."))
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
    if bill is not None:
        _price_time_line(bill)
    return stretch


# --- bills ---------------------------------------------------------------------------------


def _price_time_line(bill):
    """(Re)writes the bill's time line from the session's played time (before discount)."""
    from billing import selectors
    from billing.labels import duration

    price = selectors.price_of(bill.session, discount=0)
    amount = price.rounded if price else 0
    charged = duration(price.charged) if price else "—"
    BillLine.objects.update_or_create(
        bill=bill,
        kind=LineKind.TIME,
        defaults={"description": charged, "unit_price": amount, "quantity": 1},
    )


@transaction.atomic
def open_bill(*, session, user):
    """The bill of a stopped session: its time line and, as payers, who played on it."""
    from billing import selectors

    bill, created = Bill.objects.get_or_create(
        session=session, defaults={"created_at": session.stopped_at or timezone.now()}
    )
    if not created:
        return bill
    _price_time_line(bill)
    for name, player in selectors.players_of(session):
        Payer.objects.get_or_create(bill=bill, name=name, defaults={"player": player})
    audit(user=user, action="bill.open", session=session, bill=bill)
    return bill


def _locked_bill(bill):
    bill = Bill.objects.select_for_update().get(pk=bill.pk)
    return bill


def _require_unpaid(bill):
    if bill.paid_at is not None:
        raise ValidationError(_("This bill is paid: it can no longer change."), code="paid")


@transaction.atomic
def add_bar_item(*, bill, item, quantity, user, payer=None):
    bill = _locked_bill(bill)
    _require_unpaid(bill)
    if not item.is_active:
        raise ValidationError(_("This item is not on sale."), code="inactive")
    if not 1 <= quantity <= 99:
        raise ValidationError(_("Quantity is 1 to 99."), code="quantity")
    line = BillLine.objects.create(
        bill=bill,
        kind=LineKind.BAR,
        description=item.name,
        bar_item=item,
        quantity=quantity,
        unit_price=item.price,
        payer=payer,
    )
    _audit_bar_line(user=user, action="bill.add", bill=bill, line=line)
    return line


@transaction.atomic
def remove_line(*, bill, line, user):
    bill = _locked_bill(bill)
    _require_unpaid(bill)
    if line.bill_id != bill.pk or line.kind != LineKind.BAR:
        raise ValidationError(_("Only a bar line of this bill can be removed."), code="line")
    _audit_bar_line(user=user, action="bill.remove", bill=bill, line=line)
    line.delete()


def _audit_bar_line(*, user, action, bill, line):
    audit(
        user=user,
        action=action,
        session=bill.session,
        bill=bill,
        item=line.description,
        quantity=line.quantity,
        price=line.unit_price,
    )


@transaction.atomic
def set_discount(*, bill, member, discount_percent, user):
    bill = _locked_bill(bill)
    _require_unpaid(bill)
    if not 0 <= discount_percent <= 100:
        raise ValidationError(_("A discount is 0 to 100 %."), code="discount")
    bill.member, bill.discount_percent = member, discount_percent
    bill.save(update_fields=["member", "discount_percent"])
    audit(
        user=user,
        action="bill.discount",
        session=bill.session,
        bill=bill,
        member=str(member) if member else "",
        percent=discount_percent,
    )
    return bill


@transaction.atomic
def add_payer(*, bill, name, user, player=None):
    bill = _locked_bill(bill)
    _require_unpaid(bill)
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError(_("Give the payer's name."), code="name")
    if bill.payers.filter(name=name).exists():
        raise ValidationError(_("This payer is already on the bill."), code="payer")
    payer = Payer.objects.create(bill=bill, name=name, player=player)
    audit(user=user, action="bill.payer", session=bill.session, bill=bill, name=name)
    return payer


@transaction.atomic
def remove_payer(*, bill, payer, user):
    bill = _locked_bill(bill)
    _require_unpaid(bill)
    if payer.bill_id != bill.pk or payer.payments.exists():
        raise ValidationError(_("This payer cannot be removed."), code="payer")
    audit(user=user, action="bill.unpayer", session=bill.session, bill=bill, name=payer.name)
    payer.delete()


@transaction.atomic
def set_split(*, bill, mode, user, percents=None, assignments=None):
    """How the bill is split. ``percents``: {payer pk: %} (percent mode, adding up to 100);
    ``assignments``: {line pk: payer pk or None} (who takes which line)."""
    bill = _locked_bill(bill)
    _require_unpaid(bill)
    if mode not in SplitMode.values:
        raise ValidationError(_("Choose how to split the bill."), code="mode")
    payers = {payer.pk: payer for payer in bill.payers.all()}
    if not payers:
        raise ValidationError(_("Add at least one payer first."), code="payers")
    if mode == SplitMode.PERCENT:
        percents = {pk: int(percents.get(pk) or 0) for pk in payers} if percents else {}
        if sum(percents.values()) != 100 or any(not 0 <= v <= 100 for v in percents.values()):
            raise ValidationError(_("The percentages must add up to 100."), code="percent")
        for pk, payer in payers.items():
            payer.percent = percents[pk]
        Payer.objects.bulk_update(payers.values(), ["percent"])
    for line_pk, payer_pk in (assignments or {}).items():
        if payer_pk is not None and payer_pk not in payers:
            raise ValidationError(_("Unknown payer."), code="payer")
        bill.lines.filter(pk=line_pk).update(payer_id=payer_pk)
    bill.split_mode = mode
    bill.save(update_fields=["split_mode"])
    audit(user=user, action="bill.split", session=bill.session, bill=bill, mode=mode)
    return bill


@transaction.atomic
def record_payment(*, bill, method, amount, receipt_number, user, payer=None, at=None):
    """Records a payment taken at the club's cash register (never a receipt of our own)."""
    from billing import selectors

    bill = _locked_bill(bill)
    _require_unpaid(bill)
    shift = Shift.objects.filter(is_open=True).first()
    if shift is None:
        raise ValidationError(_("Open a shift before taking payments."), code="shift")
    receipt_number = (receipt_number or "").strip()
    if not receipt_number:
        raise ValidationError(_("Write the register's receipt number."), code="receipt")
    balance = selectors.bill_summary(bill).balance
    if not 0 < amount <= balance:
        raise ValidationError(
            _("The amount must be more than 0 and at most the balance, %(balance)s.")
            % {"balance": _money(balance)},
            code="amount",
        )
    payment = Payment.objects.create(
        bill=bill,
        shift=shift,
        method=method,
        amount=amount,
        receipt_number=receipt_number,
        payer=payer,
        recorded_by=user,
        at=at or timezone.now(),
    )
    if amount == balance:
        bill.paid_at = payment.at
        bill.save(update_fields=["paid_at"])
    audit(
        user=user,
        action="payment",
        session=bill.session,
        bill=bill,
        shift=shift,
        method=method,
        amount=amount,
        receipt=receipt_number,
        payer=payer.name if payer else "",
    )
    return payment


def _money(kopecks):
    from billing.labels import money

    return money(kopecks)


# --- shifts --------------------------------------------------------------------------------


@transaction.atomic
def open_shift(*, user, opening_cash, at=None):
    if opening_cash < 0:
        raise ValidationError(_("Cash cannot be negative."), code="cash")
    if Shift.objects.select_for_update().filter(is_open=True).exists():
        raise ValidationError(_("A shift is already open."), code="open")
    shift = Shift.objects.create(
        opened_by=user, opening_cash=opening_cash, opened_at=at or timezone.now()
    )
    audit(user=user, action="shift.open", shift=shift, cash=opening_cash)
    return shift


@transaction.atomic
def close_shift(*, shift, user, counted_cash, at=None):
    from billing import selectors

    shift = Shift.objects.select_for_update().get(pk=shift.pk)
    if not shift.is_open:
        raise ValidationError(_("This shift is already closed."), code="closed")
    if counted_cash < 0:
        raise ValidationError(_("Cash cannot be negative."), code="cash")
    shift.closed_at, shift.closed_by = at or timezone.now(), user
    shift.counted_cash, shift.is_open = counted_cash, False
    shift.save(update_fields=["closed_at", "closed_by", "counted_cash", "is_open"])
    report = selectors.shift_report(shift)
    audit(
        user=user,
        action="shift.close",
        shift=shift,
        counted=counted_cash,
        expected=report.expected_cash,
        difference=report.difference,
    )
    return shift


# --- reservations --------------------------------------------------------------------------


@transaction.atomic
def book_table(*, table, name, phone, starts_at, minutes, user):
    """Books ``table`` for ``minutes`` from ``starts_at``; refused when it overlaps another
    holding booking of the table (checked under the table's lock; on PostgreSQL also an
    exclusion constraint)."""
    from datetime import timedelta

    from django.db import IntegrityError

    name, phone = " ".join((name or "").split()), (phone or "").strip()
    if not name or not phone:
        raise ValidationError(_("A booking needs a name and a phone."), code="who")
    if not 15 <= minutes <= 12 * 60:
        raise ValidationError(_("A booking lasts 15 minutes to 12 hours."), code="length")
    table = _locked_table(table)
    _check_playable(table)
    ends_at = starts_at + timedelta(minutes=minutes)
    clash = Reservation.objects.filter(
        table=table, status__in=HOLDING_STATUSES, starts_at__lt=ends_at, ends_at__gt=starts_at
    ).first()
    if clash is not None:
        raise ValidationError(
            _("Table %(number)d is already booked %(from)s–%(to)s.")
            % {
                "number": table.number,
                "from": timezone.localtime(clash.starts_at).strftime("%d.%m %H:%M"),
                "to": timezone.localtime(clash.ends_at).strftime("%H:%M"),
            },
            code="overlap",
        )
    try:
        with transaction.atomic():
            booking = Reservation.objects.create(
                table=table,
                name=name,
                phone=phone,
                starts_at=starts_at,
                ends_at=ends_at,
                created_by=user,
            )
    except IntegrityError as error:  # the exclusion constraint (PostgreSQL)
        raise ValidationError(
            _("Table %(number)d is already booked then.") % {"number": table.number},
            code="overlap",
        ) from error
    return booking


@transaction.atomic
def set_booking_status(*, booking, status, user):
    booking = Reservation.objects.select_for_update().get(pk=booking.pk)
    if booking.status != ReservationStatus.BOOKED:
        raise ValidationError(_("This booking is no longer waiting."), code="state")
    booking.status = status
    booking.save(update_fields=["status"])
    if (
        status == ReservationStatus.CLAIMED
        and not TableSession.objects.filter(table=booking.table, status__in=OPEN_STATUSES).exists()
    ):
        start_session(table=booking.table, user=user)
    return booking


def mark_no_shows(now=None):
    """Bookings not claimed within the club's grace period become no-shows."""
    from datetime import timedelta

    now = now or timezone.now()
    grace = timedelta(minutes=BillingSettings.load().no_show_minutes)
    return Reservation.objects.filter(
        status=ReservationStatus.BOOKED, starts_at__lt=now - grace
    ).update(status=ReservationStatus.NO_SHOW)
