"""Writes of the lights: what the controller heard, the alarm, an admin's light for cleaning."""

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.scoping import club_in_scope
from lights.models import LightController, LightEvent, LightEventKind, LightOverride, LightState
from live import publish_on_commit, topics

MAX_CLEANING_MINUTES = 240


def _changed(*numbers):
    """The pages that show these tables' lights hear of it; the controller too."""
    publish_on_commit(topics.LIGHTS, *(topics.table(number) for number in numbers))


@transaction.atomic
def record_states(heard):
    """Stores what the controller heard of its relays since it last wrote, in one
    transaction: ``heard`` maps a table's pk to its fields (``on``, ``online``,
    ``answering``, and ``alarm``: True raises the alarm once, False clears it), with
    ``number`` and ``switched_off`` (the guard switched it off). The alarms, a relay gone
    offline or not answering, are logged; the pages that show these lights hear of it."""
    states = {
        state.table_id: state
        for state in LightState.objects.select_for_update().filter(table_id__in=list(heard))
    }
    now, changed, events = timezone.now(), [], []
    for table_id, fields in heard.items():
        state = states.get(table_id) or LightState(table_id=table_id)
        before = (state.on, state.online, state.answering, state.alarm_since)
        for name in ("on", "online", "answering"):
            if name in fields:
                setattr(state, name, fields[name])
        alarm = fields.get("alarm")
        if alarm and state.alarm_since is None:
            state.alarm_since = now
            events.append(LightEvent(table_id=table_id, kind=LightEventKind.ALARM))
            if fields.get("switched_off"):
                events.append(LightEvent(table_id=table_id, kind=LightEventKind.SWITCHED_OFF))
        elif alarm is False:
            state.alarm_since = None
        if before[2] and not state.answering:
            events.append(LightEvent(table_id=table_id, kind=LightEventKind.NOT_ANSWERING))
        if before[1] is not False and state.online is False:
            events.append(LightEvent(table_id=table_id, kind=LightEventKind.OFFLINE))
        if (state.on, state.online, state.answering, state.alarm_since) != before:
            state.changed_at = now
            changed.append((state, fields["number"]))
    LightState.objects.bulk_create(
        [state for state, _number in changed],
        update_conflicts=True,
        unique_fields=["table"],
        update_fields=["on", "online", "answering", "alarm_since", "changed_at"],
    )
    for event in events:
        event.save()
    if changed:
        _changed(*(number for _state, number in changed))


@transaction.atomic
def light_without_clock(*, table, minutes, reason, user):
    """An admin lights ``table`` for cleaning or service: ``minutes`` at most, logged."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the table is lit without a clock."), code="reason")
    if not 1 <= minutes <= MAX_CLEANING_MINUTES:
        raise ValidationError(
            _("From 1 to %(max)d minutes.") % {"max": MAX_CLEANING_MINUTES}, code="minutes"
        )
    if not table.light_topic:
        raise ValidationError(_("This table has no light relay."), code="relay")
    until = timezone.now() + timedelta(minutes=minutes)
    override = LightOverride.objects.create(table=table, until=until, reason=reason, by=user)
    LightEvent.objects.create(
        table=table, kind=LightEventKind.OVERRIDE, username=user.get_username(), reason=reason
    )
    LightState.objects.filter(table=table).update(alarm_since=None)
    _changed(table.number)
    return override


def beat(*, connected, name):
    """The controller's heartbeat: it holds the broker (or not) now."""
    LightController.objects.update_or_create(  # one row per club: its pk is the club's
        pk=club_in_scope().pk,
        defaults={"connected": connected, "seen_at": timezone.now(), "name": name},
    )
