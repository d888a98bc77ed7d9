"""What the lights' controller knows of each relay, an admin's light without a clock, the
lights' log, and whether the lights are controlled at all."""

from django.conf import settings as django_settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.scoping import club_manager
from tables.models import Table
from toolbox.immutable import ImmutableRow


class LightState(models.Model):
    """A table's relay as the controller last heard it (the desk and the home page show it)."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    on = models.BooleanField(_("lit"), null=True)  # None: not heard yet
    online = models.BooleanField(_("online"), null=True)  # its last will; None: unknown
    answering = models.BooleanField(_("answers commands"), default=True)
    alarm_since = models.DateTimeField(_("lit without a clock since"), null=True, blank=True)
    changed_at = models.DateTimeField(_("changed"), default=timezone.now)

    objects = club_manager(via="table")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        verbose_name = _("table light")
        verbose_name_plural = _("table lights")

    def __str__(self):
        return f"{self.table}: {self.on}"


class LightOverride(models.Model):
    """An admin's light on a table without a clock (cleaning, service), until a time."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    until = models.DateTimeField(_("until"))
    reason = models.CharField(_("why"), max_length=200)
    by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(_("when"), default=timezone.now)

    objects = club_manager(via="table")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        verbose_name = _("light without a clock")
        verbose_name_plural = _("lights without a clock")

    def __str__(self):
        return f"{self.table} until {self.until:%H:%M}: {self.reason}"


class LightEventKind(models.TextChoices):
    ALARM = "alarm", pgettext_lazy("light event", "Lit without a clock")
    SWITCHED_OFF = "switched_off", pgettext_lazy("light event", "Switched off by the guard")
    OVERRIDE = "override", pgettext_lazy("light event", "Lit by an admin")
    NOT_ANSWERING = "not_answering", pgettext_lazy("light event", "Relay not answering")
    OFFLINE = "offline", pgettext_lazy("light event", "Relay offline")


class LightEvent(ImmutableRow, models.Model):
    """The lights' audit log: appended, never changed."""

    changed_message = "The lights' log is append-only."
    deleted_message = "The lights' log is append-only."

    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("what"), max_length=16, choices=LightEventKind.choices)
    username = models.CharField(_("who"), max_length=150, blank=True)
    reason = models.CharField(_("why"), max_length=200, blank=True)

    objects = club_manager(via="table")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("light log entry")
        verbose_name_plural = _("lights' log")

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.table}: {self.get_kind_display()}"


class LightController(models.Model):
    """The one controller that drives the relays: whether it holds the broker now."""

    connected = models.BooleanField(default=False)
    seen_at = models.DateTimeField(null=True)  # its last heartbeat
    name = models.CharField(max_length=120, blank=True)  # host and process

    class Meta:
        verbose_name = _("lights' controller")
        verbose_name_plural = _("lights' controller")

    def __str__(self):
        return f"{self.name}: {'connected' if self.connected else 'not connected'}"
