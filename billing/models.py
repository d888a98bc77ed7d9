"""Billing as stored: the club's tariff (bands per table kind, rounding, special days).

Money is integer kopecks; times are stored in UTC and priced in the club's TIME_ZONE by the
plain-Python engine in ``billing.pricing``.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
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
