"""The demo club's tariff (and, later, its past sessions and bills). Idempotent."""

import itertools
import random
from datetime import date, time, timedelta

from django.utils import timezone

from billing import selectors, services
from billing.models import (
    OPEN_STATUSES,
    BarItem,
    Bill,
    BillingSettings,
    PaymentMethod,
    SpecialDay,
    SplitMode,
    TableSession,
    Tariff,
)
from billing.pricing import WEEK, WEEKEND, WORKDAYS, Band
from games import selectors as games_selectors
from games.demo import backdate, play
from tables.models import Table, TableKind

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
    if not BillingSettings.objects.exists():
        BillingSettings.load().save()  # 15 min step, 30 min minimum
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
    one prepaid for an hour with 8 minutes left. Only into a club with no clock running."""
    if TableSession.objects.filter(status__in=OPEN_STATUSES).exists():
        return 0
    now = now or timezone.now()
    first = services.start_session(table=tables[0], user=user, at=now - timedelta(minutes=75))
    services.pause_session(session=first, user=user, at=now - timedelta(minutes=40))
    services.resume_session(session=first, user=user, at=now - timedelta(minutes=30))
    if selectors.open_shift() is None:
        services.open_shift(user=user, opening_cash=5000_00)
    services.start_session(
        table=tables[1],
        user=user,
        prepaid_minutes=60,
        tender=services.Tender(method=PaymentMethod.CASH, amount=None, receipt_number="1001"),
        at=now - timedelta(minutes=52),
    )
    return 2


BAR = [("Чай", 150_00), ("Кофе", 200_00), ("Вода", 100_00), ("Пиво", 350_00), ("Бутерброд", 250_00)]
GUESTS = ["Гость Пётр", "Гость Анна", "Гость Олег", "Гость Ира"]


def load_demo_history(*, tables, players, user, marker, now=None, days=7, seed=15):
    """A week of past sessions: a shift a day, two or three sessions per table a day with
    bar items, splits of every kind (the loser pays from games played in the session) and
    payments; today's shift left open; one booking for tonight. Only into a club without
    bills. Returns the number of sessions created."""
    if Bill.objects.exists():
        return 0
    rng = random.Random(seed)
    receipts = itertools.count(rng.randint(100, 900) * 100)  # the register's, in order
    now = now or timezone.now()
    items = [
        BarItem.objects.get_or_create(name=name, defaults={"price": price})[0]
        for name, price in BAR
    ]
    today = timezone.localtime(now).replace(hour=12, minute=0, second=0, microsecond=0)
    sessions = 0
    modes = [SplitMode.EQUAL, SplitMode.PERCENT, SplitMode.ITEMS, SplitMode.LOSER]
    for back in range(days, 0, -1):
        noon = today - timedelta(days=back)
        shift = services.open_shift(user=user, opening_cash=5000_00, at=noon)
        for number, table in enumerate(tables):
            cursor = noon + timedelta(minutes=rng.randint(0, 120) + 30 * number)
            for _ in range(rng.randint(2, 3)):
                start = cursor
                length = timedelta(minutes=rng.randint(35, 150))
                if start + length + timedelta(minutes=12) > now:
                    break  # loaded after midnight: yesterday's evening ends now, not later
                session = services.start_session(table=table, user=user, at=start)
                mode = modes[sessions % len(modes)]
                pair = rng.sample(players, 2)
                if (
                    mode == SplitMode.LOSER
                    and table.pk not in busy_tables()
                    and not busy_players().intersection(p.pk for p in pair)
                ):
                    game = play(
                        table=table,
                        variant="cork",
                        settings={"target": 21},
                        players=pair,
                        marker=marker,
                        rng=rng,
                    )
                    backdate(game, start + timedelta(minutes=2))
                if rng.random() < 0.3:
                    services.pause_session(session=session, user=user, at=start + length / 3)
                    services.resume_session(
                        session=session, user=user, at=start + length / 3 + timedelta(minutes=10)
                    )
                stop = start + length + timedelta(minutes=10)
                services.stop_session(session=session, user=user, at=stop)
                bill = session.bill
                if not bill.payers.exists():
                    for name in rng.sample(GUESTS, 2):
                        services.add_payer(bill=bill, name=name, user=user)
                for item in rng.sample(items, rng.randint(0, 3)):
                    services.add_bar_item(
                        bill=bill, item=item, quantity=rng.randint(1, 3), user=user
                    )
                payers = list(bill.payers.all())
                percents = {payers[0].pk: 60, payers[1].pk: 40} if len(payers) > 1 else {}
                if mode == SplitMode.PERCENT and not percents:
                    mode = SplitMode.EQUAL
                assignments = {}
                if mode == SplitMode.ITEMS:
                    for line in bill.lines.filter(kind="bar"):
                        assignments[line.pk] = rng.choice(payers).pk
                services.set_split(
                    bill=bill, mode=mode, percents=percents, assignments=assignments, user=user
                )
                bill.refresh_from_db()
                summary = selectors.bill_summary(bill)
                for payer, share in summary.shares:
                    if share:
                        services.record_payment(
                            bill=bill,
                            method=rng.choice(PaymentMethod.values),
                            amount=share,
                            receipt_number=str(next(receipts)),
                            payer=payer,
                            user=user,
                            at=stop + timedelta(minutes=1),
                        )
                sessions += 1
                cursor = stop + timedelta(minutes=rng.randint(10, 60))
        expected = selectors.shift_report(shift).expected_cash
        services.close_shift(
            shift=shift,
            user=user,
            counted_cash=expected - rng.choice([0, 0, 0, 100_00, 50_00]),
            at=min(noon + timedelta(hours=15), now - timedelta(minutes=1)),
        )
    services.open_shift(user=user, opening_cash=5000_00)
    tonight = timezone.localtime(now).replace(minute=0, second=0, microsecond=0)
    services.book_table(
        table=tables[-1],
        name="Сергей",
        phone="+7 912 345-67-89",
        starts_at=tonight + timedelta(hours=2),
        minutes=90,
        user=user,
    )
    return sessions


def busy_players():
    """The roster players in a game in progress (a player is at one table at a time)."""
    return set(games_selectors.seats_in_play().values_list("player_id", flat=True))


def busy_tables():
    """The tables with a game in progress."""
    return set(games_selectors.tables_in_play(Table.objects.all()).values_list("pk", flat=True))
