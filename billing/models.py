"""Billing as stored: the club's tariff (bands per table kind, rounding, special days).

Money is integer kopecks; times are stored in UTC and priced in the club's TIME_ZONE by the
plain-Python engine in ``billing.pricing``.
"""

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext_lazy as _

from tables.models import TableKind

WEEKDAY_CHOICES = list(WEEKDAYS.items())  # 0 = Monday … 6 = Sunday, translated by Django


class BillingSettings(models.Model):
    """The club's billing rules: one row (pk 1), created with its defaults when first read."""

    step_minutes = models.PositiveSmallIntegerField(
        _("rounding step, minutes"),
        default=15,
        validators=[MinValueValidator(1), MaxValueValidator(240)],
        help_text=_("The played time is rounded up to this once per session."),
    )
    minimum_minutes = models.PositiveSmallIntegerField(
        _("minimum charge, minutes"),
        default=30,
        validators=[MaxValueValidator(600)],
        help_text=_("A shorter session is charged this long."),
    )
    show_running_total = models.BooleanField(
        _("show the running total on the boards"),
        default=False,
        help_text=_("The table boards show what the session costs so far, not only its time."),
    )

    class Meta:
        verbose_name = _("billing settings")
        verbose_name_plural = _("billing settings")

    def __str__(self):
        return str(_("Billing settings"))

    @classmethod
    def load(cls):
        settings, _created = cls.objects.get_or_create(pk=1)
        return settings


class Tariff(models.Model):
    """The price bands of one table kind; together they cover the week exactly once."""

    kind = models.CharField(_("table kind"), max_length=16, choices=TableKind.choices, unique=True)

    class Meta:
        ordering = ["kind"]
        verbose_name = _("tariff")
        verbose_name_plural = _("tariffs")

    def __str__(self):
        return str(self.get_kind_display())


class TariffBand(models.Model):
    """On the given weekdays from ``start`` to ``end``; an end at or before the start runs
    past midnight and belongs to the day it starts on."""

    tariff = models.ForeignKey(
        Tariff, on_delete=models.CASCADE, related_name="bands", verbose_name=_("tariff")
    )
    # Digits of the weekdays, 0 = Monday … 6 = Sunday: "01234" is Monday to Friday.
    weekdays = models.CharField(_("weekdays"), max_length=7)
    start = models.TimeField(_("from"))
    end = models.TimeField(_("to"))
    price_per_hour = models.PositiveIntegerField(_("price per hour, kopecks"))

    class Meta:
        ordering = ["tariff", "start", "weekdays"]
        verbose_name = _("price band")
        verbose_name_plural = _("price bands")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weekdays__regex=r"^0?1?2?3?4?5?6?$") & ~models.Q(weekdays=""),
                name="band_weekdays_digits",
            )
        ]

    def __str__(self):
        return f"{self.weekdays_label} {self.hours_label}"

    @property
    def weekday_numbers(self):
        return frozenset(int(digit) for digit in self.weekdays)

    @property
    def weekdays_label(self):
        from billing.labels import weekdays_label

        return weekdays_label(self.weekday_numbers)

    @property
    def hours_label(self):
        return f"{self.start:%H:%M}–{self.end:%H:%M}"


class SpecialDay(models.Model):
    """A date priced with another weekday's bands, e.g. a holiday priced as a Sunday."""

    date = models.DateField(_("date"), unique=True)
    priced_as = models.PositiveSmallIntegerField(_("priced as"), choices=WEEKDAY_CHOICES, default=6)
    note = models.CharField(_("note"), max_length=100, blank=True)

    class Meta:
        ordering = ["date"]
        verbose_name = _("special day")
        verbose_name_plural = _("special days")

    def __str__(self):
        return f"{self.date:%Y-%m-%d} → {self.get_priced_as_display()}"


class SessionStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    PAUSED = "paused", _("Paused")
    STOPPED = "stopped", _("Stopped")


OPEN_STATUSES = [SessionStatus.RUNNING, SessionStatus.PAUSED]


class TableSession(models.Model):
    """A table's clock from start to stop: its played stretches are the time charged."""

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.PROTECT,
        related_name="clock_sessions",
        verbose_name=_("table"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=SessionStatus.choices, default=SessionStatus.RUNNING
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    stopped_at = models.DateTimeField(_("stopped"), null=True, blank=True)
    prepaid_minutes = models.PositiveIntegerField(_("prepaid, minutes"), null=True, blank=True)
    started_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("started by"),
    )

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")
        permissions = [("run_table_clock", _("Can run the tables' clocks"))]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=OPEN_STATUSES),
                name="one_open_session_per_table",
                violation_error_message=_("This table's clock is already running."),
            )
        ]
        indexes = [models.Index(fields=["status", "started_at"])]

    def __str__(self):
        return f"#{self.pk} {self.table} {self.started_at:%Y-%m-%d %H:%M}"

    @property
    def is_open(self):
        return self.status in OPEN_STATUSES


class Stretch(models.Model):
    """A played interval of a session on one table; a pause is the gap between two."""

    session = models.ForeignKey(
        TableSession, on_delete=models.CASCADE, related_name="stretches", verbose_name=_("session")
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="+", verbose_name=_("table")
    )
    started_at = models.DateTimeField(_("from"))
    ended_at = models.DateTimeField(_("to"), null=True, blank=True)

    class Meta:
        ordering = ["session", "started_at"]
        verbose_name = _("played stretch")
        verbose_name_plural = _("played stretches")
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=Q(ended_at__isnull=True),
                name="one_open_stretch_per_session",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="stretch_ends_after_it_starts",
            ),
        ]

    def __str__(self):
        return f"{self.table}: {self.started_at:%H:%M:%S}–{self.ended_at or ''}"


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ValueError("The audit log is append-only.")

    def delete(self):
        raise ValueError("The audit log is append-only.")


class AuditEntry(models.Model):
    """Who changed what, when and why: appended by the services, never changed or deleted."""

    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    # The user's name is kept as text too: deleting a user changes no entry (the link is
    # then left dangling on purpose, without a database constraint, and shows nothing).
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    username = models.CharField(_("who"), max_length=150, blank=True)
    action = models.CharField(_("what"), max_length=32)
    session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("session"),
    )
    details = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.TextField(_("why"), blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("The audit log is append-only: an entry is never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("The audit log is append-only: an entry is never deleted.")
