"""Pushed boards benchmark (issues 13 and 26): a stroke's commit to every screen, over
Server-Sent Events, up to a final followed on 10,000 phones.

Starts the server as in production — uvicorn (ASGI) on PostgreSQL with Redis as the live
broker — then, for each N, opens N simulated screens (phones, TVs) that each hold the table
board's stream (``GET /tables/<n>/board/stream/``, read as a browser's EventSource does)
while a marker in this process records a stroke every 2 s through the console's service.
Two kinds of round:

- N screens on one server of ``--workers`` processes (one machine);
- the last N spread over ``--servers`` uvicorn servers of one process each, all listening to
  one Redis, the screens dealt to them in turn (as three machines behind a load balancer).

Meanwhile a visitor loads the site's other pages (home, wall, leaderboards, tournaments,
the API…) a few times a second. Per round: the time from each stroke's commit to each
screen receiving it (p50/p95/max over every stroke and screen), the server's CPU while
strokes are pushed and while the streams only idle, its resident memory and the memory per
open stream, the slowest other page's p95. Each round ends with the line

    p95 stroke-to-screen: <ms> ms at <N> screens over <K> processes

    .venv/bin/python bench/board_push.py                      # 2,000 and 10,000 on 2 workers,
                                                              # then 10,000 over 3 servers
    .venv/bin/python bench/board_push.py --tvs 2000 --spread 2000 --poll-tvs 500
    .venv/bin/python bench/board_push.py --smoke              # a few screens, a few seconds

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/luza_pushbench (created and
migrated if missing), REDIS_URL to redis://127.0.0.1:6379/14; a SQLite DATABASE_URL works too
(the smoke run). Loopback only; bounded in time. The screens are read by processes of this
bench on the same two cores as the servers: the figures include their own cost.
Targets (2 cores): p95 under 150 ms at 10,000 screens; at most 10 KiB per open stream; no
other page slower than 300 ms p95 meanwhile; idle CPU under 5 % with 2,000 streams open.
"""

import argparse
import asyncio
import multiprocessing
import os
import resource
import selectors
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

import board_load  # noqa: E402 - the polling TVs, the marker, the set-up helpers

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/luza_pushbench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"
HOST = board_load.HOST
TABLE_NUMBER = board_load.TABLE_NUMBER


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tvs", default="2000,10000", help="screens on one server, comma-separated N"
    )
    parser.add_argument(
        "--spread",
        type=int,
        default=-1,
        help="screens spread over --servers servers (default: the largest N; 0: none)",
    )
    parser.add_argument("--servers", type=int, default=3, help="servers sharing Redis")
    parser.add_argument(
        "--poll-tvs", type=int, default=0, help="N for a polling round, for the ratio (0: none)"
    )
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per N")
    parser.add_argument("--idle", type=float, default=6, help="seconds of idle streams measured")
    parser.add_argument("--stroke-every", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers (2 cores)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS))
    parser.add_argument(
        "--readers", type=int, default=0, help="processes reading the streams (0: 1 per 2,500)"
    )
    parser.add_argument("--smoke", action="store_true", help="a few screens for a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.tvs, args.seconds, args.idle, args.stroke_every = "5", 3.0, 1.0, 1.0
        args.workers, args.readers, args.spread = 1, 1, 6
    if args.spread < 0:
        args.spread = max(int(n) for n in args.tvs.split(","))
    if not reachable(args.redis_url):
        print(f"no Redis at {args.redis_url}: the broker is the database's (or none)")
        args.redis_url = ""
    return args


def reachable(url):
    parsed = urlparse(url)
    try:
        socket.create_connection((parsed.hostname, parsed.port or 6379), timeout=0.5).close()
    except OSError:
        return False
    return True


def environment(args):
    env = board_load.server_environment(args)
    env["REDIS_URL"] = args.redis_url
    env["API_RATE_LIMIT"] = "100000/min"  # the visitor of the other pages is one address
    env.pop("LIVE_BROKER", None)
    return env


def start_uvicorn(args, port, workers):
    command = [
        str(BASE_DIR / ".venv" / "bin" / "uvicorn"),
        "clubsite.asgi:application",
        "--host", HOST, "--port", str(port),
        "--workers", str(workers),
        "--lifespan", "off",
        "--no-access-log",
        "--log-level", "warning",
        "--backlog", "4096",
        "--timeout-graceful-shutdown", "2",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=BASE_DIR, env=environment(args))
    wait_for_port(port, process, "uvicorn")
    return process


def wait_for_port(port, process, name):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"{name} did not start")


def server_pids(pid):
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [pid] + [int(p) for p in children.stdout.split()]


def rss_mib(pids):
    """Resident memory of servers and their worker processes, MiB."""
    total = 0
    for pid in pids:
        for p in server_pids(pid):
            try:
                for line in Path(f"/proc/{p}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
    return total / 1024


def cpu_seconds(pids):
    return sum(board_load.cpu_seconds(pid) for pid in pids)


# --- the TVs that hold a stream ----------------------------------------------------------------


class StreamTV:
    """One board's EventSource: a stream read as it comes; keeps when each id arrived.

    A plain socket read by the reader process's selector (no asyncio stream, no task per
    read): a real screen has a CPU of its own, so a simulated one must cost the two cores the
    servers run on as little as it can."""

    def __init__(self, port, path, fp):
        self.port, self.path, self.fp = port, path, fp
        self.seen = []  # (received at, last_seq)
        self.errors = 0
        self.sock = None
        self.buffer = b""

    def open(self):
        """Connects, sends the request and reads the response's head; True if it is a 200."""
        try:
            self.sock = socket.create_connection((HOST, self.port), timeout=30)
            self.sock.sendall(
                f"GET {self.path}?fp={self.fp} HTTP/1.1\r\nHost: {HOST}\r\n"
                "Accept: text/event-stream\r\nAccept-Language: ru\r\n\r\n".encode()
            )
            head = b""
            while b"\r\n\r\n" not in head:
                data = self.sock.recv(1 << 16)
                if not data:
                    raise ValueError("closed before its head")
                head += data
            head, self.buffer = head.split(b"\r\n\r\n", 1)
            status = head.split(b"\r\n", 1)[0].split()
            if len(status) < 2 or status[1] != b"200":
                raise ValueError(f"stream answered {status!r}")
            self.sock.setblocking(False)
            self.buffer = self.arrived(self.buffer, time.monotonic())
            return True
        except (OSError, ValueError):
            self.errors += 1
            self.close()
            return False

    def read(self, now):
        """Reads what has come; False once the server closed the stream."""
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return True
        except OSError:
            self.errors += 1
            return False
        if not data:
            return False
        self.buffer = self.arrived(self.buffer + data, now)
        return True

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def arrived(self, buffer, now):
        """Notes every whole message in ``buffer`` (an ``id:`` line, then the blank line that
        ends the message; the chunk sizes between them do not matter); returns the rest. As
        cheap as a real TV's parser, so that the readers' own CPU weighs little on the two
        cores they share with the server."""
        while True:
            start = buffer.find(b"\nid: ")
            if start < 0:
                return buffer[-8:]
            end = buffer.find(b"\n\n", start)
            if end < 0:
                return buffer[start:]
            line_end = buffer.index(b"\n", start + 1)
            self.seen.append((now, board_load.seq_of(buffer[start + 5 : line_end].decode())))
            buffer = buffer[end + 2 :]


def reader(ports, path, fp, count, ready, stop, results):
    """A reader process: ``count`` screens hold their streams until ``stop``, dealt to the
    ``ports`` in turn (a load balancer); then what each saw (a list of (received at, seq) per
    screen; time.monotonic is the same clock in every process)."""
    tvs = [StreamTV(ports[i % len(ports)], path, fp) for i in range(count)]
    selector = selectors.DefaultSelector()
    for tv in tvs:  # one after the other, as TVs switched on
        if tv.open():
            selector.register(tv.sock, selectors.EVENT_READ, tv)
    ready.put(sum(1 for tv in tvs if not tv.errors))
    while not stop.is_set():
        for key, _events in selector.select(0.1):
            tv = key.data
            if not tv.read(time.monotonic()):
                selector.unregister(tv.sock)
                tv.close()
    for tv in tvs:
        tv.close()
    results.put([tv.seen for tv in tvs])


def warm_up(ports, path, fp, each=20):
    """Opens ``each`` streams on every port (a port's workers share them) and closes them."""
    tvs = [StreamTV(port, path, fp) for port in ports for _ in range(each)]
    for tv in tvs:
        tv.open()
    time.sleep(0.5)
    for tv in tvs:
        tv.close()
    time.sleep(0.5)


def deliveries(tvs, recorded):
    """Per (stroke, TV): seconds from the commit to its arrival; per stroke: to the last TV."""
    each, last, missed = [], [], 0
    for committed_at, seq in recorded:
        arrivals = [next((t for t, s in seen if s >= seq), None) for seen in tvs]
        got = [t - committed_at for t in arrivals if t is not None]
        each += got
        missed += len(arrivals) - len(got)
        if len(got) == len(arrivals) and got:
            last.append(max(got))
    return each, last, missed


# --- the other pages, loaded meanwhile ---------------------------------------------------------

OTHER_PAGES = [
    "/",
    "/board/",
    "/leaderboards/",
    "/tournaments/",
    "/api/v1/tables/",
    f"/api/v1/tables/{TABLE_NUMBER}/",
    f"/tables/{TABLE_NUMBER}/overlay/",
]


async def visit(ports, until, every=0.25):
    """Loads the other pages in turn (a new connection each, as a visitor's browser may)
    until ``until``; {page: [seconds, …]}."""
    times = {page: [] for page in OTHER_PAGES}
    turn = 0
    while time.monotonic() < until:
        page = OTHER_PAGES[turn % len(OTHER_PAGES)]
        port = ports[turn % len(ports)]
        turn += 1
        began = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
            writer.write(
                f"GET {page} HTTP/1.1\r\nHost: {HOST}\r\nAccept-Language: ru\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            status, _headers, _body = await board_load.read_response(reader)
            writer.close()
            if status == 200:
                times[page].append(time.monotonic() - began)
        except (OSError, ValueError, asyncio.IncompleteReadError):
            pass
        await asyncio.sleep(max(0.0, every - (time.monotonic() - began)))
    return times


# --- one round -------------------------------------------------------------------------------


async def push_round(n, ports, servers, k, args):
    """N screens on the servers listening on ``ports`` (``servers``: their processes, ``k``
    server processes in all)."""
    game, user = await asyncio.to_thread(board_load.new_game)
    path = f"/tables/{TABLE_NUMBER}/board/"
    fp = await board_load.fetch_fp(ports[0], path)
    pids = [server.pid for server in servers]
    # Every process serves a few streams first (its first board rendered, its database and
    # broker connections made): the memory per stream is what each open stream adds.
    await asyncio.to_thread(warm_up, ports, path + "stream/", fp)
    rss_before = rss_mib(pids)
    # The screens run in reader processes of their own (--readers), so that one Python
    # process reading thousands of streams is not what the figures measure.
    count = args.readers or max(1, -(-n // 2500))
    context = multiprocessing.get_context("fork")
    stop, ready, results = context.Event(), context.Queue(), context.Queue()
    shares = [n // count + (i < n % count) for i in range(count)]
    readers = [
        context.Process(target=reader, args=(ports, path + "stream/", fp, k, ready, stop, results))
        for k in shares
        if k
    ]
    for process in readers:
        process.start()
    opened = 0
    for _ in readers:
        opened += await asyncio.to_thread(ready.get)
    await asyncio.sleep(2.0)
    rss_open = rss_mib(pids)

    cpu0, t0 = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(args.idle)  # nothing happens: heartbeats only
    idle_cpu = (cpu_seconds(pids) - cpu0) / (time.monotonic() - t0)

    cpu0, t0, own0 = cpu_seconds(pids), time.monotonic(), time.process_time()
    marker = board_load.Marker(game, user, args.stroke_every, t0 + args.seconds)
    await asyncio.to_thread(marker.start)
    pages = await visit(ports, t0 + args.seconds)
    await asyncio.to_thread(marker.join)
    await asyncio.sleep(1.0)  # the last stroke's deliveries
    busy_cpu = (cpu_seconds(pids) - cpu0) / (time.monotonic() - t0)
    own_cpu = (time.process_time() - own0) / (time.monotonic() - t0)  # the marker's
    rss_busy = rss_mib(pids)
    stop.set()
    tvs = []
    for _ in readers:
        tvs += await asyncio.to_thread(results.get)
    for process in readers:
        process.join(10)

    each, last, missed = deliveries(tvs, marker.recorded)
    page_p95 = {page: board_load.percentile(times, 0.95) for page, times in pages.items() if times}
    slowest = max(page_p95, key=page_p95.get, default="")
    return {
        "n": n,
        "k": k,
        "opened": opened,
        "strokes": len(marker.recorded),
        "missed": missed,
        "p50": board_load.percentile(each, 0.50),
        "p95": board_load.percentile(each, 0.95),
        "max": max(each) if each else float("nan"),
        "all_p95": board_load.percentile(last, 0.95),
        "idle_cpu": idle_cpu,
        "busy_cpu": busy_cpu,
        "own_cpu": own_cpu,
        "rss_before": rss_before,
        "rss_open": rss_open,
        "rss_busy": rss_busy,
        "per_stream_kib": (rss_open - rss_before) * 1024 / max(opened, 1),
        "page_p95": page_p95.get(slowest, float("nan")),
        "slowest_page": slowest,
        "page_loads": sum(len(times) for times in pages.values()),
    }


def poll_round(n, args):
    """Today's polling, same strokes: gunicorn as bench/board_load.py runs it."""
    poll_args = argparse.Namespace(**vars(args))
    poll_args.threads, poll_args.worker_class = 4, "gthread"
    poll_args.warmup = 1.0 if args.smoke else 3.0
    port = board_load.free_port()
    server = board_load.start_gunicorn(poll_args, port)
    try:
        cpu0, t0 = board_load.cpu_seconds(server.pid), time.monotonic()
        result = asyncio.run(board_load.run_round(n, port, poll_args))
        cpu = (board_load.cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0)
    finally:
        board_load.stop_server(server)
    return result, cpu


HEADER = (
    f"{'screens':>7} {'over':>4} {'open':>6} {'strokes':>7} {'commit→screen p50/p95/max ms':>28} "
    f"{'→all p95':>8} {'missed':>6} {'CPU busy':>8} {'idle':>5} {'RSS MiB idle→open':>17} "
    f"{'KiB/stream':>10} {'other pages p95 ms (slowest)':>28}"
)


def report(r):
    print(
        f"{r['n']:>7} {r['k']:>4} {r['opened']:>6} {r['strokes']:>7} "
        f"{r['p50'] * 1000:>10.0f} /{r['p95'] * 1000:>6.0f} /{r['max'] * 1000:>6.0f}  "
        f"{r['all_p95'] * 1000:>8.0f} {r['missed']:>6} {r['busy_cpu'] * 100:>7.0f}% "
        f"{r['idle_cpu'] * 100:>4.0f}% {r['rss_before']:>8.0f}→{r['rss_open']:<8.0f} "
        f"{r['per_stream_kib']:>10.1f} {r['page_p95'] * 1000:>8.0f} ({r['slowest_page']})",
        flush=True,
    )
    print(
        f"p95 stroke-to-screen: {r['p95'] * 1000:.0f} ms at {r['n']} screens over "
        f"{r['k']} processes",
        flush=True,
    )


def main():
    args = parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets
    board_load.ensure_database(args.database_url)
    os.environ["REDIS_URL"] = args.redis_url  # the marker publishes where the servers listen
    board_load.set_up_django(args)
    from live.hub import get_hub

    broker = get_hub().broker.name
    print(
        f"{urlparse(args.database_url).scheme}; broker {broker}; {os.cpu_count()} cores "
        f"(load {os.getloadavg()[0]:.1f} before); {args.seconds:.0f} s per round; a stroke "
        f"every {args.stroke_every:g} s; the other pages: {', '.join(OTHER_PAGES)}",
        flush=True,
    )
    print(HEADER, flush=True)
    results = []
    port = board_load.free_port()
    server = start_uvicorn(args, port, args.workers)
    try:
        for n in [int(x) for x in args.tvs.split(",")]:
            results.append(asyncio.run(push_round(n, [port], [server], args.workers, args)))
            report(results[-1])
    finally:
        board_load.stop_server(server)

    if args.spread:
        # As machines behind a load balancer: servers of one process each, one Redis.
        ports = [board_load.free_port() for _ in range(args.servers)]
        servers = []
        try:
            for each in ports:
                servers.append(start_uvicorn(args, each, 1))
            results.append(asyncio.run(push_round(args.spread, ports, servers, len(servers), args)))
            report(results[-1])
        finally:
            for each in servers:
                board_load.stop_server(each)

    if args.poll_tvs:
        poll, poll_cpu = poll_round(args.poll_tvs, args)
        print(
            f"poll (gunicorn, {args.poll_tvs} TVs at 1 Hz): stroke→all boards "
            f"p50 {poll['lag_p50'] * 1000:.0f} ms, p95 {poll['lag_p95'] * 1000:.0f} ms, "
            f"{poll['polls_per_s']:.0f} polls/s, server CPU {poll_cpu * 100:.0f}%",
            flush=True,
        )
    if not any(r["opened"] for r in results):
        raise SystemExit("no stream could be opened")
    if args.smoke:
        print("smoke run: no verdict")
        return
    largest = max(r["n"] for r in results)
    biggest = [r for r in results if r["n"] == largest]

    def verdict(ok):
        return "meets" if ok else "MISSES"

    print(
        f"at {largest} screens: p95 under 150 ms "
        f"{verdict(all(r['p95'] < 0.150 for r in biggest))}; at most 10 KiB a stream "
        f"{verdict(all(r['per_stream_kib'] <= 10 for r in biggest))}; other pages under 300 ms "
        f"p95 {verdict(all(r['page_p95'] < 0.300 for r in results))}"
    )


if __name__ == "__main__":
    main()
