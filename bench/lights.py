"""Benchmark: 40 tables switched at once — from the clocks' commit to every relay's answer.

    .venv/bin/python bench/lights.py [--tables 40] [--rounds 5]
    .venv/bin/python bench/lights.py --smoke      # 3 tables, one round, a few seconds

As in production: the lights' controller runs as its own process (``manage.py lights``), the
relays behave as Tasmota does (``tests/lights/tasmota.py``: one MQTT client each), the broker
is the machine's Mosquitto (``--mqtt-url``, default mqtt://127.0.0.1:1883). Each round starts
every table's clock in one transaction, then stops them all in another (the grace set to 0);
an observer subscribed to ``stat/+/POWER`` notes when each relay confirms. Printed per round
and in all: from the commit to each relay's confirmation, p50/p95/max, and the last line

    lights: p95 commit-to-confirmation <ms> ms for <N> tables at once

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/luza_lightsbench (created and
migrated if missing; its bench tables are made anew each run); a SQLite URL works for the
smoke run (the controller is then woken by its half-second tick, not by the database).
Loopback only; bounded in time. Target: p95 under 300 ms at 40 tables.
"""

import argparse
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project before bench/ (the script's own folder, first on sys.path): bench/billing.py
# must not stand in for the billing app.
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import board_load  # noqa: E402 - the database's set-up and the percentiles

# bench/ off the path again: its billing.py would hide the billing app from Django.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != ROOT / "bench"]

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/luza_lightsbench"
FIRST_TABLE = 701
TARGET_MS = 300


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--mqtt-url", default="mqtt://127.0.0.1:1883")
    parser.add_argument("--smoke", action="store_true", help="3 tables, one round")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.rounds = 3, 1
    return args


class Observer:
    """Notes when each relay confirms a state (``stat/<topic>/POWER``)."""

    def __init__(self, port):
        import paho.mqtt.client as mqtt

        self.seen = {}  # (topic, "ON"/"OFF") -> first monotonic time
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.subscribe("stat/+/POWER", qos=1)
        self.client.loop_start()

    def _on_message(self, client, userdata, message):
        topic = message.topic.split("/")[1]
        with self.lock:
            self.seen.setdefault((topic, message.payload.decode()), time.monotonic())

    def forget(self):
        with self.lock:
            self.seen.clear()

    def confirmed(self, topics, state, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                times = [self.seen.get((topic, state)) for topic in topics]
            if all(times):
                return times
            time.sleep(0.005)
        return None

    def stop(self):
        self.client.loop_stop()
        self.client.disconnect()


def reachable(port):
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def set_up(args):
    board_load.ensure_database(args.database_url)
    board_load.set_up_django(args)
    from django.contrib.auth.models import User

    from tables.models import Table

    Table.objects.filter(number__gte=FIRST_TABLE, number__lt=FIRST_TABLE + 200).update(
        light_topic=""
    )
    run = uuid.uuid4().hex[:6]
    tables = []
    for index in range(args.tables):
        number = FIRST_TABLE + index
        table, _ = Table.objects.get_or_create(number=number, defaults={"name": "bench"})
        table.light_topic = f"bench{run}t{index}"
        table.save(update_fields=["light_topic"])
        tables.append(table)
    cashier, _ = User.objects.get_or_create(username="bench-lights-cashier")
    return tables, cashier


def switch_all(tables, cashier, start):
    """Starts (or stops) every table's clock in one transaction; returns the commit time."""
    from django.db import transaction

    from billing.models import OPEN_STATUSES, TableSession
    from billing.services import sessions

    committed = []
    with transaction.atomic():
        transaction.on_commit(lambda: committed.append(time.monotonic()))  # the first after it
        for table in tables:
            if start:
                sessions.start_session(table=table, user=cashier)
            else:
                for session in TableSession.objects.filter(table=table, status__in=OPEN_STATUSES):
                    sessions.stop_session(session=session, user=cashier)
    return committed[0]


def main():
    args = parse_args()
    from urllib.parse import urlparse

    port = urlparse(args.mqtt_url).port or 1883
    if not reachable(port):
        from bench.support import verdict

        print(f"no MQTT broker at {args.mqtt_url}: nothing measured")
        return verdict(smoke=args.smoke, ok=False, target="target: not measured")
    tables, cashier = set_up(args)
    from django.db import connections

    from bench.support import verdict
    from billing.models import OPEN_STATUSES, TableSession
    from tests.lights.tasmota import TasmotaRelay

    TableSession.objects.filter(status__in=OPEN_STATUSES, table__in=tables).delete()
    relays = [TasmotaRelay(t.light_topic, port=port).start() for t in tables]
    observer = Observer(port)
    env = dict(os.environ, DATABASE_URL=args.database_url, MQTT_URL=args.mqtt_url)
    env.update(LIGHT_OFF_DELAY_SECONDS="0", DB_POOL_SIZE="0", DEBUG="0", SECRET_KEY="bench")
    env.update(ALLOWED_HOSTS="127.0.0.1")
    controller = subprocess.Popen(
        [sys.executable, "manage.py", "lights"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
    )
    topics = [t.light_topic for t in tables]
    latencies, missed = [], 0
    try:
        if not observer.confirmed(topics, "OFF", 20):  # connected: every relay set as now
            raise SystemExit("the controller did not set the relays")
        for number in range(1, args.rounds + 1):
            for start, state in ((True, "ON"), (False, "OFF")):
                observer.forget()
                committed = switch_all(tables, cashier, start)
                times = observer.confirmed(topics, state, 10)
                if times is None:
                    missed += 1
                    print(f"round {number} {state}: not every relay confirmed within 10 s")
                    continue
                round_ms = [(t - committed) * 1000 for t in times]
                latencies += round_ms
                print(
                    f"round {number} {state:3s}: {len(tables)} tables, commit→confirmation "
                    f"p50/p95/max {board_load.percentile(round_ms, 0.5):.0f}/"
                    f"{board_load.percentile(round_ms, 0.95):.0f}/{max(round_ms):.0f} ms"
                )
                time.sleep(0.3)
    finally:
        controller.terminate()
        controller.wait(10)
        observer.stop()
        for relay in relays:
            relay.stop()
        connections.close_all()
    p95 = board_load.percentile(latencies, 0.95) if latencies else float("nan")
    print(f"lights: p95 commit-to-confirmation {p95:.0f} ms for {len(tables)} tables at once")
    ok = not missed and p95 < TARGET_MS
    return verdict(
        smoke=args.smoke,
        ok=ok,
        target=f"target: p95 under {TARGET_MS} ms, every relay confirmed: "
        + ("met" if ok else "NOT met"),
    )


if __name__ == "__main__":
    raise SystemExit(main())
