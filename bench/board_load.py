"""Load benchmark of the spectator boards (issue 5).

Starts gunicorn on a free loopback port against PostgreSQL, then, for each N, simulates N TVs
that poll one table's board once a second the way htmx does (``GET …?fp=<shown>`` with
``HX-Request``; a 204 means unchanged, a 200 brings the new board and its fingerprint) over
HTTP/1.1 keep-alive connections, while a marker records a stroke every 2 s through the
console's service in this process. Prints, per N: the sustained polls per second, the p50/p95
latency of a poll, and the p95 time from a stroke being recorded (its transaction committed)
to every board having received it. Bounded in time; stops by itself; loopback only.

    .venv/bin/python bench/board_load.py                 # N = 50, 200, 500; 20 s each
    .venv/bin/python bench/board_load.py --tvs 500 --seconds 30 --workers 3 --threads 4
    .venv/bin/python bench/board_load.py --smoke      # seconds: 5 TVs, 3 s, one worker

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/luza_boardbench (created and
migrated if missing; the bench makes its own table, players and games there).
Target on the 2-core machine: 500 TVs at 1 Hz with p95 stroke-to-board under 1.5 s.
"""

import argparse
import asyncio
import atexit
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/luza_boardbench"
TABLE_NUMBER = 901
HOST = "127.0.0.1"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tvs", default="50,200,500", help="comma-separated N (default 50,200,500)"
    )
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per N")
    parser.add_argument("--warmup", type=float, default=3, help="seconds before measuring")
    parser.add_argument("--stroke-every", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2 cores)")
    parser.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    parser.add_argument("--worker-class", default="gthread")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    parser.add_argument(
        "--smoke", action="store_true", help="5 TVs for 3 s on one worker: does it still run?"
    )
    args = parser.parse_args()
    if args.smoke:
        args.tvs, args.seconds, args.warmup, args.stroke_every = "5", 3.0, 1.0, 1.0
        args.workers, args.threads = 1, 2
    return args


# --- set-up: database, Django in this process (the marker), gunicorn -------------------------


def ensure_database(url):
    """Creates the PostgreSQL database named in ``url`` if missing (SQLite makes its file)."""
    if not url.startswith("postgres"):
        return
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


# The static files this run collects (production's manifest), in a folder of its own: the
# project's staticfiles/ is another process's (a test server's, a second bench's) meanwhile.
BENCH_STATIC_ROOT = tempfile.mkdtemp(prefix="luza-bench-static-")
atexit.register(shutil.rmtree, BENCH_STATIC_ROOT, ignore_errors=True)


def server_environment(args):
    env = dict(os.environ)
    env.update(
        DATABASE_URL=args.database_url,
        STATIC_ROOT=BENCH_STATIC_ROOT,
        DEBUG="0",
        SECRET_KEY="bench-only-not-secret",
        ALLOWED_HOSTS=HOST,
        CONN_MAX_AGE="600",
        SECURE_COOKIES="0",
    )
    return env


def set_up_django(args):
    os.environ.update(server_environment(args))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    sys.path.insert(0, str(BASE_DIR))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)  # DEBUG=0 serves the manifest


def new_game():
    """A fresh cork game on the bench's own table (any earlier one there is abandoned)."""
    from django.contrib.auth.models import User

    from games import services
    from games.models import Game, GameStatus
    from tables.models import Table

    table, _ = Table.objects.get_or_create(number=TABLE_NUMBER, defaults={"name": "bench"})
    marker, _ = User.objects.get_or_create(username="bench-marker")
    for game in Game.objects.filter(table=table, status=GameStatus.IN_PROGRESS):
        services.abandon_game(game=game, user=marker)
    game = services.start_game(
        table=table, variant="cork", settings={}, seats=["Аня", "Борис"], marker=marker
    )
    return game, marker


def free_port():
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start_gunicorn(args, port):
    command = [
        str(BASE_DIR / ".venv" / "bin" / "gunicorn"),
        "clubsite.wsgi",
        "--bind",
        f"{HOST}:{port}",
        "--workers",
        str(args.workers),
        "--worker-class",
        args.worker_class,
        "--threads",
        str(args.threads),
        "--worker-connections",
        "2000",
        "--keep-alive",
        "10",
        "--backlog",
        "2048",
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, cwd=BASE_DIR, env=server_environment(args))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("gunicorn did not start")


# --- the simulated TVs ------------------------------------------------------------------------


class TV:
    """One board: a keep-alive connection polling every second, htmx-style."""

    def __init__(self, port, path, fp):
        self.port, self.path, self.fp = port, path, fp
        self.latencies = []  # (finished at, seconds, status)
        self.seen = []  # (received at, last_seq)
        self.errors = 0
        self.skipped = 0
        self.reader = self.writer = None

    async def connect(self):
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def poll(self):
        request = (
            f"GET {self.path}?fp={self.fp} HTTP/1.1\r\nHost: {HOST}\r\n"
            "HX-Request: true\r\nAccept-Language: ru\r\nConnection: keep-alive\r\n\r\n"
        ).encode()
        started = time.monotonic()
        try:
            if self.writer is None:
                await self.connect()
            self.writer.write(request)
            status, headers, _body = await read_response(self.reader)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.errors += 1
            self.close()
            return
        now = time.monotonic()
        self.latencies.append((now, now - started, status))
        if headers.get("connection", "").lower() == "close":
            self.close()
        if status == 200 and "x-board-fingerprint" in headers:
            self.fp = headers["x-board-fingerprint"]
            self.seen.append((now, seq_of(self.fp)))
        elif status not in (200, 204):
            self.errors += 1

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def run(self, until):
        """Polls at a fixed 1 s rhythm from a random phase; a tick is dropped while the
        previous poll is still out (as htmx does for one element)."""
        next_tick = time.monotonic() + random.random()
        while next_tick < until:
            await asyncio.sleep(max(0.0, next_tick - time.monotonic()))
            await self.poll()
            next_tick += 1.0
            while next_tick < time.monotonic():
                next_tick += 1.0
                self.skipped += 1
        self.close()


def seq_of(fp):
    parts = fp.split(".")
    return int(parts[1]) if len(parts) == 3 else 0


async def read_response(reader):
    status_line = await reader.readline()
    parts = status_line.split()
    if len(parts) < 2 or not parts[1].isdigit():
        raise ValueError(f"bad status line {status_line[:40]!r}")
    status = int(parts[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while size := int((await reader.readline()).split(b";")[0], 16):
            body += await reader.readexactly(size + 2)
        await reader.readline()
        return status, headers, body
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return status, headers, body


async def fetch_fp(port, path):
    """The fingerprint a freshly loaded board shows (what a TV starts with)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
    status, _, body = await read_response(reader)
    writer.close()
    text = body.decode()
    if status != 200:
        raise SystemExit(f"board page answered {status}")
    marker = 'data-fp="'
    start = text.index(marker) + len(marker)
    return text[start : text.index('"', start)]


# --- the marker -------------------------------------------------------------------------------


class Marker(threading.Thread):
    """Records a stroke every ``every`` seconds through the console's service."""

    def __init__(self, game, user, every, until):
        super().__init__(daemon=True)
        self.game, self.user, self.every, self.until = game, user, every, until
        self.recorded = []  # (committed at, seq)

    def run(self):
        from django.db import connection

        from games import rules, services

        next_at = time.monotonic() + self.every
        while next_at < self.until:
            time.sleep(max(0.0, next_at - time.monotonic()))
            self.game = services.record_event(
                game=self.game,
                expected_seq=self.game.last_seq,
                event=rules.Event("stroke"),
                user=self.user,
            )
            self.recorded.append((time.monotonic(), self.game.last_seq))
            next_at += self.every
        connection.close()


# --- one round and its figures ----------------------------------------------------------------


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


async def run_round(n, port, args):
    game, user = await asyncio.to_thread(new_game)
    path = f"/tables/{TABLE_NUMBER}/board/"
    fp = await fetch_fp(port, path)
    tvs = [TV(port, path, fp) for _ in range(n)]
    for start in range(0, n, 50):  # open the connections in small batches
        await asyncio.gather(*(tv.connect() for tv in tvs[start : start + 50]))
    begin = time.monotonic()
    measure_from = begin + args.warmup
    until = measure_from + args.seconds
    marker = Marker(game, user, args.stroke_every, until - 2.5)
    await asyncio.to_thread(marker.start)
    await asyncio.gather(*(tv.run(until) for tv in tvs))
    await asyncio.to_thread(marker.join)

    polls = [(t, lat, status) for tv in tvs for t, lat, status in tv.latencies if t >= measure_from]
    latencies = [lat for _, lat, _ in polls]
    changed = [lat for _, lat, status in polls if status == 200]
    lags, missed = [], 0
    for recorded_at, seq in marker.recorded:
        arrivals = []
        for tv in tvs:
            first = next((t for t, s in tv.seen if s >= seq), None)
            if first is None:
                break
            arrivals.append(first)
        if len(arrivals) < len(tvs):
            missed += 1
        else:
            lags.append(max(arrivals) - recorded_at)
    return {
        "n": n,
        "polls_per_s": len(polls) / args.seconds,
        "p50": percentile(latencies, 0.50),
        "p95": percentile(latencies, 0.95),
        "p95_changed": percentile(changed, 0.95),
        "errors": sum(tv.errors for tv in tvs),
        "skipped": sum(tv.skipped for tv in tvs),
        "strokes": len(marker.recorded),
        "missed": missed,
        "lag_p50": percentile(lags, 0.50),
        "lag_p95": percentile(lags, 0.95),
        "lag_max": max(lags) if lags else float("nan"),
    }


def stop_server(process):
    """Stops a server started here (and its workers): politely, then for good."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


def cpu_seconds(pid):
    """User+system CPU seconds of a process and its children (gunicorn's workers)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid] + [
        int(p)
        for p in subprocess.run(
            ["pgrep", "-P", str(pid)], capture_output=True, text=True
        ).stdout.split()
    ]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError):
            pass
    return total


def main():
    args = parse_args()
    ensure_database(args.database_url)
    set_up_django(args)
    port = free_port()
    server = start_gunicorn(args, port)
    print(
        f"gunicorn {args.worker_class}: {args.workers} workers × {args.threads} threads on "
        f"{HOST}:{port}; {urlparse(args.database_url).scheme} "
        f"{urlparse(args.database_url).path.lstrip('/')}; "
        f"{os.cpu_count()} cores; {args.seconds:.0f} s per N; a stroke every "
        f"{args.stroke_every:g} s",
        flush=True,
    )
    header = (
        f"{'TVs':>5} {'polls/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p95 200 ms':>10} "
        f"{'errors':>6} {'dropped':>7} {'strokes':>7} {'stroke→all boards p50/p95/max s':>32} "
        f"{'server CPU':>10} {'bench CPU':>9} {'load':>5}"
    )
    print(header, flush=True)
    results = []
    try:
        for n in [int(x) for x in args.tvs.split(",")]:
            cpu_before = cpu_seconds(server.pid)
            own_before = time.process_time()
            started = time.monotonic()
            result = asyncio.run(run_round(n, port, args))
            elapsed = time.monotonic() - started
            cpu = (cpu_seconds(server.pid) - cpu_before) / elapsed
            own = (time.process_time() - own_before) / elapsed
            results.append(result)
            lag = f"{result['lag_p50']:.2f} / {result['lag_p95']:.2f} / {result['lag_max']:.2f}"
            if result["missed"]:
                lag += f" ({result['missed']} missed)"
            print(
                f"{n:>5} {result['polls_per_s']:>8.1f} {result['p50'] * 1000:>7.1f} "
                f"{result['p95'] * 1000:>7.1f} {result['p95_changed'] * 1000:>10.1f} "
                f"{result['errors']:>6} {result['skipped']:>7} {result['strokes']:>7} "
                f"{lag:>32} {cpu * 100:>9.0f}% {own * 100:>8.0f}% {os.getloadavg()[0]:>5.1f}",
                flush=True,
            )
    finally:
        stop_server(server)
    if args.smoke:
        print("smoke run: no verdict")
        return 0 if all(r["errors"] == 0 and r["strokes"] for r in results) else 1
    target = next((r for r in results if r["n"] == 500), None)
    if target is not None:
        ok = target["lag_p95"] < 1.5 and not target["missed"]
        print(
            f"target (500 TVs at 1 Hz, p95 stroke-to-board < 1.5 s): "
            f"{'met' if ok else 'MISSED'} ({target['lag_p95']:.2f} s)"
        )
    return 0 if all(r["errors"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
