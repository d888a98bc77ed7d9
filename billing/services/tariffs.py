"""Writes of the tariff: a kind's bands, saved only when they cover the week exactly once,
each save a new version in force from the moment it is saved (or from a chosen later one),
so that time already played keeps its price; every change in the audit log."""

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from billing import pricing
from billing.labels import day_names
from billing.models import AuditAction, Tariff, TariffBand, TariffVersion
from billing.services.audit import audit


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
def save_tariff(kind, bands, *, user=None, valid_from=None, at=None):
    """Replaces the bands of ``kind`` with ``bands`` (``pricing.Band``) after checking that
    they cover the week exactly once (raises ValidationError and changes nothing otherwise),
    in force from now (``at``) or a later ``valid_from``: see ``record_version``."""
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
    record_version(tariff=tariff, user=user, valid_from=valid_from, at=at)
    return tariff


# A form filled in a moment ago asked for "now": a valid_from this much in the past is now.
PAST_SLACK = timedelta(minutes=1)


@transaction.atomic
def record_version(*, tariff, user, valid_from=None, at=None):
    """The tariff's bands as saved (its ``TariffBand`` rows, which the Django admin edits)
    become a version: the kind's first is in force since the beginning (no time could be
    priced without it); a later one from ``at`` (now) or the later ``valid_from`` chosen,
    never earlier: time already played keeps its price. A version saved before and not in
    force yet is replaced. Audited."""
    at = at or timezone.now()
    tariff = Tariff.objects.select_for_update().get(pk=tariff.pk)
    rows = [
        {
            "weekdays": band.weekdays,
            "start": band.start.strftime("%H:%M:%S"),
            "end": band.end.strftime("%H:%M:%S"),
            "price_per_hour": band.price_per_hour,
        }
        for band in tariff.bands.order_by("start", "weekdays")
    ]
    latest = tariff.versions.order_by(F("valid_from").desc(nulls_last=True)).first()
    if latest is None:
        since = None
    else:
        if valid_from is not None and valid_from < at - PAST_SLACK:
            raise ValidationError(
                _("A tariff change takes effect now or later, never in the past."), code="past"
            )
        since = max(valid_from or at, at)
        if (
            valid_from is None
            and latest.bands == rows
            and not tariff.versions.filter(valid_from__gte=at)
        ):
            return latest  # saved again unchanged: nothing to record
        replaced = tariff.versions.filter(valid_from__gte=at)
        replaced.delete()  # planned, not in force yet: the new save is the plan
    version = TariffVersion.objects.create(
        tariff=tariff, valid_from=since, bands=rows, created_at=at, created_by=user
    )
    audit(
        user=user,
        action=AuditAction.TARIFF_CHANGE,
        kind=tariff.kind,
        valid_from=since.isoformat() if since else None,
        bands=rows,
    )
    return version
