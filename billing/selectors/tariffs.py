"""Reads of the tariff: the club's bands, rules and special days as the pricing engine wants
them, and as the tariffs page lists them."""

from zoneinfo import ZoneInfo

from django.conf import settings

from billing import pricing
from billing.models import BillingSettings, SpecialDay, Tariff, TariffBand
from tables.models import TableKind


def club_tz():
    return ZoneInfo(settings.TIME_ZONE)


def band_of(row):
    return pricing.Band(
        weekdays=row.weekday_numbers,
        start=row.start,
        end=row.end,
        price_per_hour=row.price_per_hour,
        name=f"{row.weekdays_label} {row.hours_label}",
        key=row.pk,
    )


def club_tariff():
    """The whole tariff (every kind's bands, rounding, minimum, special days) in 3 queries."""
    rules = BillingSettings.load()
    bands = {}
    for row in TariffBand.objects.select_related("tariff"):
        bands.setdefault(row.tariff.kind, []).append(band_of(row))
    return pricing.Tariff(
        bands,
        step=rules.step_minutes * 60,
        minimum=rules.minimum_minutes * 60,
        special_days=dict(SpecialDay.objects.values_list("date", "priced_as")),
        tz=club_tz(),
    )


def tariffs_overview():
    """Every tariff with its bands, for the tariffs page, in the order of the table kinds."""
    order = {kind: index for index, kind in enumerate(TableKind.values)}
    return sorted(Tariff.objects.prefetch_related("bands"), key=lambda t: order.get(t.kind, 99))


def special_days():
    return SpecialDay.objects.all()
