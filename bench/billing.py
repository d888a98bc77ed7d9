"""Benchmark: price a month of a 20-table club's sessions and build every report.

    .venv/bin/python bench/billing.py            # the month: 20 tables × 30 days
    .venv/bin/python bench/billing.py --smoke    # what the test suite runs: 3 tables × 2 days

Uses its own database (DATABASE_URL, default a fresh SQLite file in the system's temporary
folder), migrates it and fills it with bulk_create: the demo tariffs, then for every table
and day 6 to 10 sessions (some paused, some moved to another table) with their bills (time,
bar items) and payments, a shift a day. Then it times, best of 3 runs:

- pricing every session of the month with the club's tariff (the pricing engine alone, its
  played intervals loaded beforehand);
- the period report for the month (revenue per table and per tariff band, bar revenue,
  utilisation per hour of the day, every shift's report) — the whole report page's work.

Target: under 1 s for the month's report.
"""

import argparse
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = Path(tempfile.gettempdir()) / "luza-billing-bench.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DEFAULT_DB}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

TARGET_S = 1.0
SEED = 15


def fresh_database():
    from django.core.management import call_command
    from django.db import connection

    from bench.support import create_test_database

    if connection.vendor == "sqlite":
        connection.close()
        Path(connection.settings_dict["NAME"]).unlink(missing_ok=True)
        call_command("migrate", verbosity=0)
    else:
        # A throwaway database beside the configured one (test_<name>), as the test runner
        # makes: created (or recreated) and migrated here, so it need not exist beforehand.
        create_test_database()


def fill(tables_count, days, rng):
    """The club's month, written with bulk_create (no services: this is only the data)."""
    from django.contrib.auth.models import User
    from django.db import transaction

    from billing.demo import BAR, load_demo_tariffs
    from billing.models import (
        BarItem,
        Bill,
        BillLine,
        Payment,
        Shift,
        Stretch,
        TableSession,
    )
    from billing.selectors import club_tz
    from tables.models import Table, TableKind

    tz = club_tz()
    with transaction.atomic():
        load_demo_tariffs()
        user = User.objects.create_user("bench-cashier")
        kinds = TableKind.values
        tables = Table.objects.bulk_create(
            Table(number=n, kind=kinds[n % len(kinds)]) for n in range(1, tables_count + 1)
        )
        items = [BarItem.objects.create(name=name, price=price) for name, price in BAR]
        first = datetime.now(tz).replace(hour=12, minute=0, second=0, microsecond=0)
        first -= timedelta(days=days + 1)
        sessions, stretches, plans, moves = [], [], [], []
        busy = defaultdict(list)  # table: the times it is in use
        for day in range(days):
            noon = first + timedelta(days=day)
            for table in tables:
                cursor = noon + timedelta(minutes=rng.randint(0, 60))
                for _ in range(rng.randint(6, 10)):
                    length = timedelta(minutes=rng.randint(20, 100))
                    start, stop = cursor, cursor + length
                    session = TableSession(
                        table=table, status="stopped", started_at=start, stopped_at=stop
                    )
                    pieces = [(table, start, stop)]
                    if rng.random() < 0.2:  # a pause in the middle
                        middle = start + length / 2
                        pieces = [
                            (table, start, middle),
                            (table, middle + timedelta(minutes=5), stop),
                        ]
                    elif rng.random() < 0.05:  # to be moved to another table, if one is free
                        moves.append(len(sessions))
                    sessions.append(session)
                    plans.append(pieces)
                    busy[table].extend((a, b) for _, a, b in pieces)
                    cursor = stop + timedelta(minutes=rng.randint(5, 30))
        for index in moves:  # a table's time never overlaps (the database refuses it)
            session, ((table, start, stop),) = sessions[index], plans[index]
            middle = start + (stop - start) / 2
            for other in rng.sample(tables, len(tables)):
                if all(b <= middle or stop <= a for a, b in busy[other]):
                    plans[index] = [(table, start, middle), (other, middle, stop)]
                    session.table = other
                    busy[other].append((middle, stop))
                    break
        TableSession.objects.bulk_create(sessions)
        for session, pieces in zip(sessions, plans, strict=True):
            stretches += [
                Stretch(session=session, table=t, started_at=a, ended_at=b) for t, a, b in pieces
            ]
        Stretch.objects.bulk_create(stretches)
        bills = Bill.objects.bulk_create(
            Bill(session=session, created_at=session.stopped_at, paid_at=session.stopped_at)
            for session in sessions
        )
        lines = []
        for bill in bills:
            minutes = int((bill.session.stopped_at - bill.session.started_at).total_seconds())
            lines.append(
                BillLine(
                    bill=bill,
                    kind="time",
                    description="",
                    unit_price=(minutes // 60 + 1) * 700 // 6 * 10,
                )
            )
            for item in rng.sample(items, rng.randint(0, 2)):
                lines.append(
                    BillLine(
                        bill=bill,
                        kind="bar",
                        description=item.name,
                        bar_item=item,
                        quantity=rng.randint(1, 3),
                        unit_price=item.price,
                    )
                )
        BillLine.objects.bulk_create(lines)
        shifts = Shift.objects.bulk_create(
            Shift(
                opened_by=user,
                opened_at=first + timedelta(days=day),
                closed_at=first + timedelta(days=day, hours=15),
                closed_by=user,
                opening_cash=5000_00,
                counted_cash=5000_00,
                is_open=False,
            )
            for day in range(days)
        )
        totals = {}
        for line in lines:
            totals[line.bill_id] = totals.get(line.bill_id, 0) + line.amount
        Payment.objects.bulk_create(
            Payment(
                bill=bill,
                shift=shifts[min((bill.created_at - first).days, days - 1)],
                method=rng.choice(["cash", "card", "sbp"]),
                amount=max(totals[bill.pk], 1),
                receipt_number=str(bill.pk),
                recorded_by=user,
                at=bill.created_at,
            )
            for bill in bills
        )
    return len(sessions), first.date(), (first + timedelta(days=days - 1)).date()


def best_of(runs, work):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return min(times), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="3 tables × 2 days, no verdict")
    args = parser.parse_args()
    import django

    django.setup()
    from bench.support import verdict
    from billing import selectors

    tables, days = (3, 2) if args.smoke else (20, 30)
    fresh_database()
    count, start, end = fill(tables, days, random.Random(SEED))

    from django.db.models import Prefetch

    from billing.models import Stretch, TableSession

    sessions = TableSession.objects.prefetch_related(
        Prefetch("stretches", queryset=Stretch.objects.select_related("table"))
    )
    played = [selectors.played(session) for session in sessions]

    def price_all():
        tariff = selectors.club_tariff()
        return sum(tariff.price(intervals).total for intervals in played)

    def report():
        return selectors.period_report(start, end)

    runs = 1 if args.smoke else 3
    price_time, revenue = best_of(runs, price_all)
    report_time, result = best_of(runs, report)
    print(f"{tables} tables × {days} days: {count} sessions, {start} – {end}")
    print(f"pricing engine, every session:  {price_time:.3f} s  (total {revenue / 100:.2f})")
    print(
        f"the month's report (queries included):  {report_time:.3f} s  ({result.sessions} bills, "
        f"{len(result.by_table)} tables, {len(result.by_band)} bands, {len(result.shifts)} shifts)"
    )
    ok = report_time < TARGET_S
    target = f"target: the month's report under {TARGET_S:.0f} s — {'OK' if ok else 'SLOW'}"
    return verdict(smoke=args.smoke, ok=ok, target=target)


if __name__ == "__main__":
    sys.exit(main())
