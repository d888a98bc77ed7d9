"""Reads of the lights: what each relay should be (from the clocks) and what the desk and the
home page show of them."""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from billing.models import SessionStatus, Stretch
from clubs.scoping import club_in_scope
from lights.models import LightController, LightEvent, LightOverride, LightState
from lights.wanted import wanted_on
from tables.models import Table

HEARTBEAT_SECONDS = 5  # the controller says it is alive this often
STALE_SECONDS = 15  # a heartbeat older than this: the lights are not controlled


def enabled():
    return bool(getattr(settings, "MQTT_URL", ""))


def wanted_lights(now=None):
    """{relay topic: (table pk, table number, whether its light should be on)}: one query."""
    now = now or timezone.now()
    last = Stretch.objects.filter(table=OuterRef("pk")).order_by("-started_at")
    tables = (
        Table.objects.exclude(light_topic="")
        .annotate(
            running=Exists(
                Stretch.objects.filter(
                    table=OuterRef("pk"),
                    ended_at__isnull=True,
                    session__status=SessionStatus.RUNNING,
                )
            ),
            ended_at=Subquery(last.values("ended_at")[:1]),
            last_status=Subquery(last.values("session__status")[:1]),
            lit_until=Subquery(
                LightOverride.objects.filter(table=OuterRef("pk"))
                .values("table")
                .annotate(until=Max("until"))
                .values("until")[:1]
            ),
        )
        .values_list(
            "light_topic", "pk", "number", "is_active", "running", "ended_at", "last_status",
            "lit_until",
        )
    )  # fmt: skip
    delay = settings.LIGHT_OFF_DELAY_SECONDS
    return {
        topic: (
            pk,
            number,
            active
            and wanted_on(
                running=running,
                ended_at=ended_at,
                voided=status == SessionStatus.VOIDED,
                lit_until=lit_until,
                now=now,
                delay=delay,
            ),
        )
        for topic, pk, number, active, running, ended_at, status, lit_until in tables
    }


@dataclass(frozen=True)
class Light:
    """A table's light as a page shows it."""

    status: str  # "on", "off", "alarm", "not_answering", "offline", "unknown"
    label: str

    @property
    def alarm(self):
        return self.status == "alarm"


LABELS = {
    "on": _("light on"),
    "off": _("light off"),
    "alarm": _("lit without a clock!"),
    "not_answering": _("light not answering"),
    "offline": _("light relay offline"),
    "unknown": _("light: no word yet"),
}


def light_of(state):
    if state is None:
        status = "unknown"
    elif state.alarm_since is not None:
        status = "alarm"
    elif state.online is False:
        status = "offline"
    elif not state.answering:
        status = "not_answering"
    elif state.on is None:
        status = "unknown"
    else:
        status = "on" if state.on else "off"
    return Light(status, str(LABELS[status]))


def lights_by_table():
    """{table number: Light} of the tables that have a relay; empty when lights are off."""
    if not enabled():
        return {}
    states = {s.table_id: s for s in LightState.objects.all()}
    tables = Table.objects.exclude(light_topic="").values_list("pk", "number")
    return {number: light_of(states.get(pk)) for pk, number in tables}


def controlled():
    """Whether a controller holds the broker now (its heartbeat is fresh)."""
    row = LightController.objects.filter(pk=club_in_scope().pk).first()  # the club's
    fresh = timezone.now() - timedelta(seconds=STALE_SECONDS)
    return bool(row and row.connected and row.seen_at and row.seen_at >= fresh)


def recent_events(limit=10):
    return LightEvent.objects.select_related("table")[:limit]
