"""The demo club's tariff (and, later, its past sessions and bills). Idempotent."""

from datetime import date, time

from billing import services
from billing.models import BillingSettings, SpecialDay, Tariff
from billing.pricing import WEEK, WEEKEND, WORKDAYS, Band
from tables.models import TableKind

# pyramid_12 exactly as the club's price list; the smaller tables cost less.
PYRAMID_12 = [
    (WEEK, time(2), time(10), 500),
    (WORKDAYS, time(10), time(18), 400),
    (WORKDAYS, time(18), time(2), 700),
    (WEEKEND, time(10), time(2), 800),
]
DISCOUNT_PER_FOOT = 50  # roubles per hour less for each foot below 12

HOLIDAYS = [(date(2027, 1, 1), 6, "Новый год"), (date(2027, 1, 7), 6, "Рождество")]


def demo_bands(kind):
    feet = int(kind.rsplit("_", 1)[1])
    less = (12 - feet) * DISCOUNT_PER_FOOT
    return [
        Band(days, start, end, (roubles - less) * 100) for days, start, end, roubles in PYRAMID_12
    ]


def load_demo_tariffs():
    """Creates the tariff of every kind that has none, the rules and two holidays.

    Returns the number of tariffs created.
    """
    BillingSettings.load()  # 15 min step, 30 min minimum unless an admin changed them
    created = 0
    for kind in TableKind.values:
        if not Tariff.objects.filter(kind=kind).exists():
            services.save_tariff(kind, demo_bands(kind))
            created += 1
    for day, weekday, note in HOLIDAYS:
        SpecialDay.objects.get_or_create(date=day, defaults={"priced_as": weekday, "note": note})
    return created


def load_demo_clocks(*, tables, user, now=None):
    """Two clocks running now, on the tables with games in progress: one paused for a while,
    one prepaid for an hour with 8 minutes left. Only into a club without sessions."""
    from datetime import timedelta

    from django.utils import timezone

    from billing.models import TableSession

    if TableSession.objects.exists():
        return 0
    now = now or timezone.now()
    first = services.start_session(table=tables[0], user=user, at=now - timedelta(minutes=75))
    services.pause_session(session=first, user=user, at=now - timedelta(minutes=40))
    services.resume_session(session=first, user=user, at=now - timedelta(minutes=30))
    services.start_session(
        table=tables[1], user=user, prepaid_minutes=60, at=now - timedelta(minutes=52)
    )
    return 2
