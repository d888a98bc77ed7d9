"""A burst of people at once (issue 27): 500 concurrent mixed requests against the production
recipe — uvicorn workers on PostgreSQL with Redis, DEBUG off, the connection pool on — and
what it costs: how many answered 5xx, the latency, the most database connections open.

The mix, all sent at the same moment, each on its own connection: the home page, table
boards, the wall, boards' streams opening (read to their first event), strokes posted by
signed-in markers on several games (all racing for the same sequence numbers, as double taps
and second devices do: one lands per game, the others get 409), the leaderboard and the
rules. A thread counts the server's connections in ``pg_stat_activity`` every 20 ms. The
server has served every kind of page before (as in an evening); each round waits until no
public page's copy is left (``toolbox.shared_pages``), so every page is rendered anew in it.

    .venv/bin/python bench/burst.py                    # 500 requests, 3 workers (as in production)
    .venv/bin/python bench/burst.py --requests 1000 --pool 4
    .venv/bin/python bench/burst.py --smoke            # 20 requests, 1 worker, seconds

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/luza_burst (created and migrated
if missing), REDIS_URL to redis://127.0.0.1:6379/13. Loopback only; bounded in time.
Target: 0 × 5xx, p95 under 1 s, database connections at most the configured pools'.
"""

import argparse
import asyncio
import os
import random
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

import board_load  # noqa: E402 - database and Django set-up, ports, percentiles
import board_push  # noqa: E402 - uvicorn as in production, Redis reachability

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/luza_burst"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
HOST = board_load.HOST
TABLES = range(801, 809)  # the bench's own tables
PASSWORD = "bench-only-password"
MIX = [  # (kind, share)
    ("home", 30),
    ("board", 20),
    ("wall", 10),
    ("stream", 20),
    ("stroke", 10),
    ("leaderboard", 5),
    ("rules", 5),
]


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--workers", type=int, default=3, help="uvicorn workers (production: 3)")
    parser.add_argument("--pool", type=int, default=0, help="DB_POOL_SIZE (default: settings')")
    parser.add_argument("--rounds", type=int, default=3, help="bursts, the figures of each")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS))
    parser.add_argument("--smoke", action="store_true", help="20 requests on 1 worker")
    args = parser.parse_args()
    if args.smoke:
        args.requests, args.workers, args.rounds = 20, 1, 1
    if not board_push.reachable(args.redis_url):
        print(f"no Redis at {args.redis_url}: the broker is the database's (or none)")
        args.redis_url = ""
    return args


# --- the club ------------------------------------------------------------------------------


def club():
    """The bench's tables with a game in progress each, and a marker who may record."""
    from django.contrib.auth.models import User

    from clubs.staff import grant
    from games import services
    from games.models import Game, GameStatus
    from tables.models import Table
    from toolbox.roles import MARKERS, ensure_roles

    ensure_roles()
    marker, _ = User.objects.get_or_create(username="bench-burst-marker")
    marker.set_password(PASSWORD)
    marker.save()
    grant(marker, MARKERS)
    games = []
    for number in TABLES:
        table, _ = Table.objects.get_or_create(number=number, defaults={"name": f"burst {number}"})
        for game in Game.objects.filter(table=table, status=GameStatus.IN_PROGRESS):
            services.abandon_game(game=game, user=marker)
        game = services.start_game(
            table=table, variant="cork", settings={}, seats=["Аня", "Борис"], marker=marker
        )
        games.append(game.pk)
    return games


# --- a tiny HTTP/1.1 client: one request per connection, as a burst of people is ---------


async def request(port, method, path, *, headers=(), body=b"", first_event=False):
    """(status, seconds). Reads the whole answer, or a stream's head and first event."""
    start = time.monotonic()
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close", *headers]
        if body:
            head.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await writer.drain()
        status_line = await reader.readline()
        status = int(status_line.split()[1]) if status_line else 0
        if first_event and status == 200:
            await reader.readuntil(b"\r\n\r\n")  # the headers
            await reader.readuntil(b"\n\n")  # the stream's first message
        else:
            await reader.read()
    except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
        status = 0
    finally:
        writer.close()
    return status, time.monotonic() - start


def sign_in(port):
    """The marker's session and CSRF cookies, through the login form."""
    import urllib.request
    from http.cookiejar import CookieJar

    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://{HOST}:{port}"
    opener.open(f"{base}/accounts/login/").read()
    csrf = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    form = {"username": "bench-burst-marker", "password": PASSWORD, "csrfmiddlewaretoken": csrf}
    login = urllib.request.Request(
        f"{base}/accounts/login/", data=urlencode(form).encode(), headers={"Referer": base}
    )
    opener.open(login).read()
    cookies = {cookie.name: cookie.value for cookie in jar}
    return cookies["sessionid"], cookies["csrftoken"]


def plan(args, games, cookies):
    """The burst: ``args.requests`` (method, path, headers, body, first_event, kind),
    shuffled."""
    session, csrf = cookies
    kinds = [kind for kind, share in MIX for _ in range(share)]
    rng = random.Random(27)
    tables = list(TABLES)
    sent = []
    for index in range(args.requests):
        kind = kinds[index % len(kinds)]
        number = rng.choice(tables)
        if kind == "home":
            sent.append(("GET", "/", (), b"", False, kind))
        elif kind == "board":
            sent.append(("GET", f"/tables/{number}/board/", (), b"", False, kind))
        elif kind == "wall":
            sent.append(("GET", "/board/", (), b"", False, kind))
        elif kind == "stream":
            sent.append(("GET", f"/tables/{number}/board/stream/", (), b"", True, kind))
        elif kind == "leaderboard":
            sent.append(("GET", "/leaderboards/", (), b"", False, kind))
        elif kind == "rules":
            sent.append(("GET", "/rules/", (), b"", False, kind))
        else:
            game, seq = rng.choice(games)
            body = urlencode({"seq": seq, "kind": "score"}).encode()
            headers = (
                f"Cookie: sessionid={session}; csrftoken={csrf}",
                f"X-CSRFToken: {csrf}",
                f"Referer: http://{HOST}",
                "HX-Request: true",
                "Content-Type: application/x-www-form-urlencoded",
            )
            sent.append(("POST", f"/marker/games/{game}/record/", headers, body, False, kind))
    rng.shuffle(sent)
    return sent


# --- counting the database's connections ---------------------------------------------------


class ConnectionCounter(threading.Thread):
    """The most connections to the bench's database seen at once (this counter's aside)."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url, self.peak, self.stopped = url, 0, threading.Event()

    def run(self):
        if not self.url.startswith("postgres"):
            return
        import psycopg

        name = urlparse(self.url).path.lstrip("/")
        with psycopg.connect(self.url, autocommit=True) as connection:
            while not self.stopped.is_set():
                count = connection.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                    "AND pid <> pg_backend_pid()",
                    [name],
                ).fetchone()[0]
                self.peak = max(self.peak, count)
                time.sleep(0.02)


def close_own_connections(pool):
    """This process's connections closed (its pool too): only the server's are counted."""
    from django.db import connections

    connections.close_all()
    if pool:
        connections["default"].close_pool()


async def warm_up(port, workers):
    """Every worker has served each kind of page (its code imported, its templates compiled,
    its pool's connections open), as in an evening."""
    paths = ["/", "/board/", "/leaderboards/", "/rules/"]
    paths += [f"/tables/{number}/board/" for number in TABLES]
    for _ in range(3):
        await asyncio.gather(*(request(port, "GET", p) for p in paths for _ in range(workers)))


def no_copy_left():
    """Waits until no public page's copy may be given any more (``SHARED_PAGE_SECONDS``, and
    as long again out of date): each burst renders every page anew, the worst case."""
    from django.conf import settings

    time.sleep(2 * settings.SHARED_PAGE_SECONDS + 0.5)


async def burst(port, sent):
    return await asyncio.gather(
        *(
            request(port, method, path, headers=headers, body=body, first_event=first)
            for method, path, headers, body, first, _kind in sent
        )
    )


def main():
    args = parse_args()
    board_load.ensure_database(args.database_url)
    board_load.set_up_django(args)
    from django.conf import settings

    from games.models import Game

    games = club()
    pool = args.pool or settings.DATABASES["default"]["OPTIONS"].get("pool", {}).get("max_size")
    close_own_connections(pool)
    port = board_load.free_port()
    os.environ["DB_POOL_SIZE"] = (
        str(args.pool) if args.pool else os.environ.get("DB_POOL_SIZE", str(pool or 0))
    )
    server = board_push.start_uvicorn(args, port, args.workers)
    statuses_all, latencies_all, peaks = {}, [], []
    try:
        cookies = sign_in(port)
        asyncio.run(warm_up(port, args.workers))
        for round_number in range(1, args.rounds + 1):
            seqs = [(pk, Game.objects.get(pk=pk).last_seq) for pk in games]
            close_own_connections(pool)
            no_copy_left()
            counter = ConnectionCounter(args.database_url)
            counter.start()
            started = time.monotonic()
            sent = plan(args, seqs, cookies)
            answers = asyncio.run(burst(port, sent))
            took = time.monotonic() - started
            counter.stopped.set()
            counter.join(timeout=2)
            statuses = {}
            for status, _ in answers:
                statuses[status] = statuses.get(status, 0) + 1
                statuses_all[status] = statuses_all.get(status, 0) + 1
            latencies = [seconds for _, seconds in answers]
            latencies_all += latencies
            peaks.append(counter.peak)
            print(
                f"round {round_number}: {len(answers)} requests in {took:.2f} s, statuses "
                f"{dict(sorted(statuses.items()))}, p50/p95/max "
                f"{board_load.percentile(latencies, 0.5) * 1000:.0f}/"
                f"{board_load.percentile(latencies, 0.95) * 1000:.0f}/"
                f"{max(latencies) * 1000:.0f} ms, peak {counter.peak} database connections"
            )
            by_kind = {}
            for entry, (_, seconds) in zip(sent, answers, strict=True):
                by_kind.setdefault(entry[-1], []).append(seconds)
            print(
                "  p95 by kind: "
                + ", ".join(
                    f"{kind} {board_load.percentile(times, 0.95) * 1000:.0f} ms"
                    for kind, times in sorted(by_kind.items())
                )
            )
    finally:
        board_load.stop_server(server)
    failed = sum(count for status, count in statuses_all.items() if status >= 500 or not status)
    p95 = board_load.percentile(latencies_all, 0.95) * 1000
    allowed = args.workers * (int(os.environ["DB_POOL_SIZE"]) or 0)
    listeners = args.workers  # PostgreSQL LISTEN: the broker, or Redis's fallback
    peak = max(peaks) if peaks else 0
    print(
        f"burst: {args.requests} requests × {args.rounds}, {failed} × 5xx or no answer, "
        f"p95 {p95:.0f} ms, peak {peak} database connections "
        f"(pools: {args.workers} × {os.environ['DB_POOL_SIZE']} + {listeners} listening)"
    )
    within = not allowed or not args.database_url.startswith("postgres")
    within = within or peak <= allowed + listeners
    from support import verdict

    return verdict(
        smoke=args.smoke,
        ok=failed == 0 and p95 < 1000 and within,
        target="target: 0 × 5xx, p95 under 1,000 ms, connections within the pools: "
        + ("met" if failed == 0 and p95 < 1000 and within else "NOT met"),
    )


if __name__ == "__main__":
    raise SystemExit(main())
