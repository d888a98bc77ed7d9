"""Benchmark: a busy evening's receipts drained through the club's register.

    .venv/bin/python bench/fiscal.py            # 300 payments (100 prepaid hours among them)
    .venv/bin/python bench/fiscal.py --smoke    # what the test suite runs: 12 payments

In a throwaway database (beside DATABASE_URL's; SQLite: in memory): the demo tariffs, a
shift, then an evening of payments through billing's services with the register on — each
writes its receipt task in the payment's transaction (prepaid hours, their settlement and
the money given back; bills paid whole and in shares). The register is the tests' stand-in
of ATOL's driver web server (tests/fiscal/atol.py) on this machine, answering each task
after ``--register-ms`` (default 50 ms, a fast register; a real one prints for ~1 s). Then
it times:

- writing the evening's payments (their receipt tasks included): per payment;
- ``fiscal.services.drain``: every task sent, its result read back and stored: per receipt,
  and what the site adds to the register's own time.

Target: what the site adds to the register's own time under 30 ms per receipt (its
polling of the register included; ``--register-ms 0`` shows the site's work alone).
"""

import argparse
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
os.environ.setdefault("FISCAL_SEND_AT_ONCE", "0")  # the bench drains, and times it

TARGET_MS = 30.0
SEED = 36


def evening(payments, rng):
    """Payments through the services; returns how many were written."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from billing import selectors, services
    from billing.demo import load_demo_tariffs
    from billing.models import BarItem
    from tables.models import Table, TableKind

    load_demo_tariffs()
    user = User.objects.create_user("bench-cashier", first_name="Анна")
    services.open_shift(user=user, opening_cash=0)
    kinds = TableKind.values
    tables = [Table.objects.create(number=n, kind=kinds[n % len(kinds)]) for n in range(1, 21)]
    tea = BarItem.objects.create(name="Чай", price=150_00)
    clock = timezone.now() - timedelta(days=2)
    free_at = {}
    written = 0
    while written < payments:
        table = tables[written % len(tables)]
        clock += timedelta(minutes=rng.randint(1, 5))
        start = max(clock, free_at.get(table.pk, clock))
        length = timedelta(minutes=rng.randint(20, 150))
        free_at[table.pk] = start + length + timedelta(minutes=1)
        if rng.random() < 0.33:  # a prepaid hour, played shorter or longer
            session = services.start_session(
                table=table,
                user=user,
                prepaid_minutes=60,
                tender=services.Tender(method="cash", amount=None, receipt_number=""),
                at=start,
            )
            written += 1
            services.stop_session(session=session, user=user, at=start + length)
            balance = selectors.bill_summary(session.bill).balance
            if balance > 0:
                services.record_payment(bill=session.bill, method="card", amount=balance, user=user)
            elif balance < 0:
                services.record_refund(bill=session.bill, method="cash", amount=-balance, user=user)
            written += balance != 0
        else:  # a bill with the bar, paid whole or by two payers
            session = services.start_session(table=table, user=user, at=start)
            services.stop_session(session=session, user=user, at=start + length)
            bill = session.bill
            services.add_bar_item(bill=bill, item=tea, quantity=rng.randint(1, 3), user=user)
            balance = selectors.bill_summary(bill).balance
            if rng.random() < 0.5:
                half = balance // 2
                services.record_payment(bill=bill, method="cash", amount=half, user=user)
                services.record_payment(bill=bill, method="sbp", amount=balance - half, user=user)
                written += 2
            else:
                services.record_payment(bill=bill, method="cash", amount=balance, user=user)
                written += 1
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="12 payments, no verdict")
    parser.add_argument("--payments", type=int, default=300)
    parser.add_argument("--register-ms", type=float, default=50.0)
    args = parser.parse_args()
    import django

    django.setup()
    from bench.support import throwaway_database, verdict
    from fiscal import services as fiscal
    from fiscal.drivers.atol import AtolWebServer
    from fiscal.models import FiscalSettings, FiscalTask, TaskKind
    from tests.fiscal.atol import AtolStandIn

    payments = 12 if args.smoke else args.payments
    stand_in = AtolStandIn().start()
    stand_in.register.delay = args.register_ms / 1000
    try:
        with throwaway_database():
            FiscalSettings.objects.create(pk=1, register="atol", atol_url=stand_in.url)
            began = time.perf_counter()
            written = evening(payments, random.Random(SEED))
            write_time = time.perf_counter() - began
            tasks = FiscalTask.objects.count()
            receipts = FiscalTask.objects.exclude(
                kind__in=[TaskKind.OPEN_SHIFT, TaskKind.CLOSE_SHIFT]
            ).count()
            began = time.perf_counter()
            result = fiscal.drain(driver=AtolWebServer(stand_in.url, timeout=10))
            drain_time = time.perf_counter() - began
            made = len(stand_in.register.receipts())
    finally:
        stand_in.stop()
    per_receipt = drain_time / max(tasks, 1) * 1000
    own = per_receipt - args.register_ms
    print(
        f"{written} payments written in {write_time:.2f} s "
        f"({write_time / max(written, 1) * 1000:.1f} ms each, "
        "with its session, bill and receipt task)"
    )
    print(
        f"{tasks} tasks ({receipts} receipts, the rest the shift's) drained in {drain_time:.2f} s: "
        f"{per_receipt:.1f} ms per task, the register answering in {args.register_ms:.0f} ms"
    )
    print(f"made {result.done}, waiting {result.waiting}; the register made {made} receipts")
    ok = result.waiting == 0 and made == receipts and own < TARGET_MS
    target = (
        f"target: the site adds under {TARGET_MS:.0f} ms per receipt to the register's time "
        f"({own:.1f} ms) and every receipt made once — {'OK' if ok else 'SLOW'}"
    )
    return verdict(smoke=args.smoke, ok=ok, target=target)


if __name__ == "__main__":
    sys.exit(main())
