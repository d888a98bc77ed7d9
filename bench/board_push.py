"""Pushed boards benchmark (issue 13): a stroke's commit to every TV, over Server-Sent Events.

Starts the server as in production — uvicorn workers (ASGI) on PostgreSQL with Redis as the
live broker — then, for each N, opens N simulated TVs that each hold their table board's
stream (``GET /tables/<n>/board/stream/``, read as a browser's EventSource does) while a
marker in this process records a stroke every 2 s through the console's service. Prints per
N: the time from each stroke's commit to each TV receiving it (p50/p95/max over every stroke
and TV) and to the last TV having it (p95), the server's CPU % while strokes are pushed and
while the streams only idle, its resident memory and the memory per open stream. Then the
same strokes are measured on today's polling (gunicorn, each TV polling once a second as
htmx does, ``bench/board_load.py``'s TVs) for the ratio, and the last line is

    p95 stroke-to-board: <ms> ms at <N> TVs (push), <ms> ms (poll)

    .venv/bin/python bench/board_push.py                      # N = 500, 2000; 20 s each
    .venv/bin/python bench/board_push.py --tvs 2000 --poll-tvs 500
    .venv/bin/python bench/board_push.py --smoke              # 5 TVs, a few seconds

DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/luza_pushbench (created and
migrated if missing), REDIS_URL to redis://127.0.0.1:6379/14; a SQLite DATABASE_URL works too
(the smoke run). Loopback only; bounded in time. The TVs run in this process, on the same
two cores as the server: the figures include their own cost.
Targets (2 cores): p95 under 150 ms at 2,000 TVs; idle CPU under 5 % with 2,000 streams open.
"""

import argparse
import asyncio
import multiprocessing
import os
import resource
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
    parser.add_argument("--tvs", default="500,2000", help="comma-separated N (default 500,2000)")
    parser.add_argument(
        "--poll-tvs",
        type=int,
        default=0,
        help="N for the polling round (default: the largest N, at most 500)",
    )
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per N")
    parser.add_argument("--idle", type=float, default=6, help="seconds of idle streams measured")
    parser.add_argument("--stroke-every", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers (2 cores)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS))
    parser.add_argument("--readers", type=int, default=2, help="processes reading the streams")
    parser.add_argument("--smoke", action="store_true", help="5 TVs for a few seconds")
    args = parser.parse_args()
    if args.smoke:
        args.tvs, args.seconds, args.idle, args.stroke_every = "5", 3.0, 1.0, 1.0
        args.workers, args.poll_tvs, args.readers = 1, 5, 1
    if not args.poll_tvs:
        args.poll_tvs = min(500, max(int(n) for n in args.tvs.split(",")))
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
    env.pop("LIVE_BROKER", None)
    return env


def start_uvicorn(args, port):
    command = [
        str(BASE_DIR / ".venv" / "bin" / "uvicorn"),
        "clubsite.asgi:application",
        "--host", HOST, "--port", str(port),
        "--workers", str(args.workers),
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


def rss_mib(pid):
    """Resident memory of the server and its worker processes, MiB."""
    total = 0
    for p in server_pids(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


# --- the TVs that hold a stream ----------------------------------------------------------------


class StreamTV:
    """One board's EventSource: a stream read as it comes; keeps when each id arrived."""

    def __init__(self, port, path, fp):
        self.port, self.path, self.fp = port, path, fp
        self.seen = []  # (received at, last_seq)
        self.errors = 0
        self.opened = asyncio.Event()
        self.writer = None

    async def run(self, until):
        try:
            reader, self.writer = await asyncio.open_connection(HOST, self.port)
            self.writer.write(
                f"GET {self.path}?fp={self.fp} HTTP/1.1\r\nHost: {HOST}\r\n"
                "Accept: text/event-stream\r\nAccept-Language: ru\r\n\r\n".encode()
            )
            status = (await reader.readline()).split()
            if len(status) < 2 or status[1] != b"200":
                raise ValueError(f"stream answered {status!r}")
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            self.opened.set()
            buffer = b""
            while time.monotonic() < until:
                data = await asyncio.wait_for(reader.read(1 << 16), until - time.monotonic())
                if not data:
                    break
                buffer = self.arrived(buffer + data, time.monotonic())
        except TimeoutError:
            pass
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.errors += 1
        finally:
            self.opened.set()
            if self.writer is not None:
                self.writer.close()

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


def reader(port, path, fp, count, ready, stop, results):
    """A reader process: ``count`` TVs hold their streams until ``stop``; then what each saw
    (a list of (received at, seq) per TV; time.monotonic is the same clock in every process)."""

    async def run():
        tvs = [StreamTV(port, path, fp) for _ in range(count)]
        tasks = []
        for start in range(0, count, 100):  # open the streams in batches, as TVs switched on
            batch = tvs[start : start + 100]
            tasks += [asyncio.create_task(tv.run(time.monotonic() + 3600)) for tv in batch]
            await asyncio.gather(*(tv.opened.wait() for tv in batch))
        ready.put(sum(1 for tv in tvs if not tv.errors))
        while not stop.is_set():
            await asyncio.sleep(0.1)
        for tv in tvs:
            if tv.writer is not None:
                tv.writer.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        results.put([tv.seen for tv in tvs])

    asyncio.run(run())


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


async def push_round(n, port, server, args):
    game, user = await asyncio.to_thread(board_load.new_game)
    path = f"/tables/{TABLE_NUMBER}/board/"
    fp = await board_load.fetch_fp(port, path)
    rss_before = rss_mib(server.pid)
    # The TVs run in reader processes of their own (--readers), so that one Python process
    # reading thousands of streams is not what the figures measure.
    context = multiprocessing.get_context("fork")
    stop, ready, results = context.Event(), context.Queue(), context.Queue()
    shares = [n // args.readers + (i < n % args.readers) for i in range(args.readers)]
    readers = [
        context.Process(target=reader, args=(port, path + "stream/", fp, k, ready, stop, results))
        for k in shares
        if k
    ]
    for process in readers:
        process.start()
    opened = 0
    for _ in readers:
        opened += await asyncio.to_thread(ready.get)
    await asyncio.sleep(1.0)
    rss_open = rss_mib(server.pid)

    cpu0, t0 = board_load.cpu_seconds(server.pid), time.monotonic()
    await asyncio.sleep(args.idle)  # nothing happens: heartbeats only
    idle_cpu = (board_load.cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0)

    cpu0, t0, own0 = board_load.cpu_seconds(server.pid), time.monotonic(), time.process_time()
    marker = board_load.Marker(game, user, args.stroke_every, t0 + args.seconds)
    await asyncio.to_thread(marker.start)
    await asyncio.to_thread(marker.join)
    await asyncio.sleep(1.0)  # the last stroke's deliveries
    busy_cpu = (board_load.cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0)
    own_cpu = (time.process_time() - own0) / (time.monotonic() - t0)  # the marker's
    rss_busy = rss_mib(server.pid)
    stop.set()
    tvs = []
    for _ in readers:
        tvs += await asyncio.to_thread(results.get)
    for process in readers:
        process.join(10)

    each, last, missed = deliveries(tvs, marker.recorded)
    return {
        "n": n,
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


def main():
    args = parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets
    board_load.ensure_database(args.database_url)
    os.environ["REDIS_URL"] = args.redis_url  # the marker publishes where the server listens
    board_load.set_up_django(args)
    from live.hub import get_hub

    port = board_load.free_port()
    server = start_uvicorn(args, port)
    broker = get_hub().broker.name
    print(
        f"uvicorn: {args.workers} workers on {HOST}:{port}; "
        f"{urlparse(args.database_url).scheme}; broker {broker}; {os.cpu_count()} cores "
        f"(load {os.getloadavg()[0]:.1f} before); {args.seconds:.0f} s per N; a stroke every "
        f"{args.stroke_every:g} s",
        flush=True,
    )
    print(
        f"{'TVs':>5} {'open':>5} {'strokes':>7} {'commit→TV p50/p95/max ms':>25} "
        f"{'→all p95':>8} {'missed':>6} {'CPU busy':>8} {'idle':>5} "
        f"{'RSS MiB idle→open':>17} {'KiB/stream':>10} {'bench CPU':>9}",
        flush=True,
    )
    results = []
    try:
        for n in [int(x) for x in args.tvs.split(",")]:
            r = asyncio.run(push_round(n, port, server, args))
            results.append(r)
            print(
                f"{n:>5} {r['opened']:>5} {r['strokes']:>7} "
                f"{r['p50'] * 1000:>8.0f} /{r['p95'] * 1000:>6.0f} /{r['max'] * 1000:>6.0f}  "
                f"{r['all_p95'] * 1000:>8.0f} {r['missed']:>6} {r['busy_cpu'] * 100:>7.0f}% "
                f"{r['idle_cpu'] * 100:>4.0f}% {r['rss_before']:>8.0f}→{r['rss_open']:<8.0f} "
                f"{r['per_stream_kib']:>10.1f} {r['own_cpu'] * 100:>8.0f}%",
                flush=True,
            )
    finally:
        board_load.stop_server(server)

    poll, poll_cpu = poll_round(args.poll_tvs, args)
    poll_lag = poll["lag_p95"]
    print(
        f"poll (gunicorn, {args.poll_tvs} TVs at 1 Hz): stroke→all boards "
        f"p50 {poll['lag_p50'] * 1000:.0f} ms, p95 {poll_lag * 1000:.0f} ms, "
        f"{poll['polls_per_s']:.0f} polls/s, server CPU {poll_cpu * 100:.0f}%",
        flush=True,
    )
    largest = max((r for r in results if r["opened"]), key=lambda r: r["n"], default=None)
    if largest is None:
        raise SystemExit("no stream could be opened")
    print(
        f"p95 stroke-to-board: {largest['p95'] * 1000:.0f} ms at {largest['n']} TVs (push), "
        f"{poll_lag * 1000:.0f} ms (poll)"
    )
    if args.smoke:
        print("smoke run: no verdict")


if __name__ == "__main__":
    main()
