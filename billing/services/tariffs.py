"""Writes of the tariff: a kind's bands, saved only when they cover the week exactly once."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from billing import pricing
from billing.labels import day_names
from billing.models import Tariff, TariffBand


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
