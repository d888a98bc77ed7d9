"""Reads of the tariff: the club's bands, rules and special days as the pricing engine wants
them, and as the tariffs page lists them."""

from dataclasses import dataclass
from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import gettext as _

from billing import pricing
from billing.labels import weekdays_label
from billing.models import BillingSettings, SpecialDay, Tariff, TariffVersion
from clubs.current import working_club
from tables.models import TableKind


def club_tz():
    """The time zone the club prices in: the club's (``clubs``)."""
    return ZoneInfo(working_club().time_zone)


@dataclass(frozen=True)
class BandRow:
    """A band of a tariff version as the pages show it."""

    weekdays_label: str
    hours_label: str
    price_per_hour: int


def bands_of(version):
    """A ``TariffVersion``'s bands for the pricing engine, named as the reports show them
    (a later version's with the day it took effect: the two prices of one band stay apart)."""
    since = ""
    if version.valid_from is not None:
        since = f" ({_('from')} {timezone.localtime(version.valid_from):%d.%m.%Y})"
    bands = []
    for row in version.bands:
        weekdays = frozenset(int(day) for day in row["weekdays"])
        start, end = time.fromisoformat(row["start"]), time.fromisoformat(row["end"])
        bands.append(
            pricing.Band(
                weekdays=weekdays,
                start=start,
                end=end,
                price_per_hour=row["price_per_hour"],
                name=f"{weekdays_label(weekdays)} {start:%H:%M}–{end:%H:%M}{since}",
                key=(version.pk, len(bands)),
            )
        )
    return bands


def club_tariff():
    """The whole tariff (every kind's versions of its bands, rounding, minimum, special
    days) in 3 queries."""
    rules = BillingSettings.load()
    bands, changes = {}, {}
    for version in TariffVersion.objects.select_related("tariff").order_by("valid_from"):
        kind = version.tariff.kind
        if version.valid_from is None:
            bands[kind] = bands_of(version)
        else:
            changes.setdefault(kind, []).append((version.valid_from, bands_of(version)))
    return pricing.Tariff(
        bands,
        changes=changes,
        step=rules.step_minutes * 60,
        minimum=rules.minimum_minutes * 60,
        special_days=dict(SpecialDay.objects.values_list("date", "priced_as")),
        tz=club_tz(),
    )


@dataclass
class TariffOverview:
    """A kind's tariff on the tariffs page: the version in force now and the one planned
    after it (None when there is none), each with its bands as rows."""

    tariff: object
    current: object
    planned: object
    current_rows: list
    planned_rows: list


def band_rows(version):
    if version is None:
        return []
    return [
        BandRow(
            weekdays_label(band.weekdays),
            f"{band.start:%H:%M}–{band.end:%H:%M}",
            band.price_per_hour,
        )
        for band in bands_of(version)
    ]


def tariffs_overview(now=None):
    """Every tariff with the version in force ``now`` and the one planned after it, for the
    tariffs page, in the order of the table kinds."""
    now = now or timezone.now()
    order = {kind: index for index, kind in enumerate(TableKind.values)}
    result = []
    tariffs = Tariff.objects.prefetch_related("versions")
    for tariff in sorted(tariffs, key=lambda t: order.get(t.kind, 99)):
        versions = sorted(tariff.versions.all(), key=lambda v: v.valid_from or BEGINNING)
        current = [v for v in versions if v.valid_from is None or v.valid_from <= now]
        planned = [v for v in versions if v.valid_from is not None and v.valid_from > now]
        current = current[-1] if current else None
        planned = planned[0] if planned else None
        result.append(
            TariffOverview(tariff, current, planned, band_rows(current), band_rows(planned))
        )
    return result


BEGINNING = datetime.min.replace(tzinfo=UTC)


def special_days():
    return SpecialDay.objects.all()
