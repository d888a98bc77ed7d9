"""Benchmark: what a marker's phone downloads, and how long it waits, before its console works
offline (issue 31 item 1).

    .venv/bin/python bench/offline_engine.py            # a first visit at 1× and at 4× CPU
    .venv/bin/python bench/offline_engine.py --smoke    # one first visit, 1× CPU: seconds
    .venv/bin/python bench/offline_engine.py --debug    # the server as `make run` serves

A real server (uvicorn, one worker, on DATABASE_URL — default SQLite, a file in the temporary
folder; a PostgreSQL URL works too) with production's settings: DEBUG off, the static files
collected by ``collectstatic`` and compressed by whitenoise, as a phone gets them (``--debug``:
``make run``'s, whitenoise's finders). A phone: Chromium, 360×740, a fresh profile per visit
(no cache, no service worker), the network slowed to 1.6 Mbit/s down, 750 kbit/s up, 150 ms
latency through the Chrome DevTools Protocol (``Network.emulateNetworkConditions``, on the
console page and on the service worker and the engine's worker it starts), and the CPU
slowed 4× (or not), in two visits of their own: through the protocol
(``Emulation.setCPUThrottlingRate``), which slows the page only (Chromium refuses it for
workers), then the renderer processes themselves, page and workers, kept to a quarter of
the CPU time (``SlowRenderers``, ``bench/support/devtools.py``). The marker, signed in
beforehand, opens a cork game's console; the clock runs until the console says its engine is
ready (``data-engine="ready"``: Brython has compiled ``games/rules`` in the worker).

Counted: every response's bytes over the wire (Chromium's ``Network.loadingFinished``,
headers and the compressed body), from the page, the service worker and the engine's worker,
and how many times each address crossed the network (the engine, Brython in it: once). The
sign-in page before it is not counted: the files it loaded (htmx, the site's CSS and script,
about 30 kB) come to the console from the browser's cache.

Then the console is opened again (a reload): Brython keeps the modules it compiled in
IndexedDB. Last lines: ``offline engine: <MB> over the wire, ready <s> s at 1× CPU, <s> s at
4× CPU (…)`` and whether the targets are met: at most 1.5 MB, Brython, the engine and its
worker downloaded once each, ready (within 120 s).
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

import board_load  # noqa: E402 - ensure_database: the same set-up as the other benches

# bench/ off the path again: its billing.py would hide the billing app from Django.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != BASE_DIR / "bench"]

from bench.support.devtools import NETWORK, Phone, SlowRenderers  # noqa: E402
from bench.support.server import start_uvicorn  # noqa: E402

HOST = "localhost"  # a secure context for the service worker, as 127.0.0.1 would be
PASSWORD = "offline-engine-bench-only"
USERNAME = "offline-engine-bench"
CHROMIUM = "/usr/bin/chromium"
TARGET_BYTES = 1_500_000
READY_SECONDS = 120  # longer than that is "not ready"
ONCE = ("/marker/offline/engine.js", "/marker/offline/engine-worker.js")  # Brython in the first


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_db = f"sqlite:///{Path(tempfile.gettempdir()) / 'luza_offline_engine_bench.sqlite3'}"
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", default_db))
    parser.add_argument("--rates", default="1,4", help="CPU slow-downs, one first visit each")
    parser.add_argument("--debug", action="store_true", help="the server as `make run` runs it")
    parser.add_argument("--port", type=int, default=0, help="the server's port (0: a free one)")
    parser.add_argument("--smoke", action="store_true", help="one first visit at 1× CPU")
    args = parser.parse_args()
    args.rates = [1.0] if args.smoke else [float(rate) for rate in args.rates.split(",")]
    return args


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_environment(args):
    env = dict(os.environ)
    env.update(
        DATABASE_URL=args.database_url,
        DEBUG="1" if args.debug else "0",
        STATIC_ROOT=board_load.BENCH_STATIC_ROOT,  # collected for this run alone
        SECRET_KEY="bench-only-not-secret",
        ALLOWED_HOSTS=HOST,
        SECURE_COOKIES="0",
    )
    env.pop("REDIS_URL", None)
    return env


def set_up(args):
    """Django in this process on the bench's database: migrated, the static files collected
    (production), a marker, a table."""
    board_load.ensure_database(args.database_url)
    env = server_environment(args)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--verbosity", "0"], cwd=BASE_DIR, env=env, check=True)
    if not args.debug:
        collect = [*manage, "collectstatic", "--noinput", "--verbosity", "0"]
        subprocess.run(collect, cwd=BASE_DIR, env=env, check=True)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User

    from clubs.staff import grant
    from tables.models import Table
    from toolbox.roles import MARKERS, ensure_roles

    ensure_roles()
    marker, _created = User.objects.get_or_create(username=USERNAME)
    marker.set_password(PASSWORD)
    marker.save()
    grant(marker, MARKERS)
    table, _created = Table.objects.get_or_create(number=78)
    return marker, table


def start_server(args, port):
    return start_uvicorn(server_environment(args), port)


def wait(page, expression, seconds):
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def first_visit(browser, base, game, rate, whole):
    """A fresh phone signs in, then opens the console: (bytes, {path: (times, bytes)},
    seconds or None). ``whole``: its renderers slowed (page and workers), else its page."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", service_workers="allow"
    )
    page = context.new_page()
    try:
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", USERNAME)
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        phone = Phone(page, 1 if whole else rate)
        try:
            with SlowRenderers(rate if whole else 1):
                started = time.perf_counter()
                page.goto(f"{base}/marker/games/{game.pk}/")
                ready = wait(page, "document.body.dataset.engine === 'ready'", READY_SECONDS)
                seconds = time.perf_counter() - started if ready else None
            if not ready:
                print("engine:", page.evaluate("document.body.dataset.engineError || ''"))
            kept = wait(page, "window.luzaOutbox.kept()", 30)  # the page kept for a reload
            time.sleep(0.5)  # the last responses' events
            fetched = {path: (n, phone.sizes[path]) for path, n in phone.fetched.items()}
            sent = phone.bytes
            print(f"  slowed: page, {', '.join(sorted(phone.slowed))}")
            with SlowRenderers(rate if whole else 1):
                again = time.perf_counter()
                page.reload()  # the console opened again: its modules compiled already
                if wait(page, "document.body.dataset.engine === 'ready'", READY_SECONDS):
                    print(f"  opened again: ready {time.perf_counter() - again:.1f} s")
            return sent, fetched, seconds if kept else None
        finally:
            phone.close()
    finally:
        context.close()


def main():
    args = parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: nothing measured")
        return outcome(args, False, f"{CHROMIUM} is missing: MISSES")
    marker, table = set_up(args)
    from games import services

    port = args.port or free_port()
    server = start_server(args, port)
    base = f"http://{HOST}:{port}"
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls here are plain.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    mode = "make run (DEBUG, whitenoise's finders)" if args.debug else "production (collectstatic)"
    print(f"database: {urlparse(args.database_url).scheme}; server: uvicorn on {base}, {mode}")
    print(
        f"network: {NETWORK['downloadThroughput'] * 8 / 1e6:.1f} Mbit/s down, "
        f"{NETWORK['latency']} ms latency"
    )
    game = services.start_game(
        table=table, variant="cork", settings={}, seats=["Анна", "Борис"], marker=marker
    )
    results = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            visits = [(rate, whole) for rate in args.rates for whole in sorted({False, rate > 1})]
            for rate, whole in visits:
                sent, fetched, seconds = first_visit(browser, base, game, rate, whole)
                how = f"{rate:g}× CPU" + (
                    (" (page and workers: the renderers given a quarter of the CPU)" if whole else
                     " (the page, through DevTools)") if rate > 1 else ""
                )  # fmt: skip
                results.append((how, sent, fetched, seconds))
                said = f"{seconds:.1f} s" if seconds is not None else "NOT READY"
                print(f"first visit at {how}: {sent / 1e6:.2f} MB over the wire, ready {said}")
                for path, (times, size) in sorted(fetched.items(), key=lambda item: -item[1][1]):
                    print(f"  {size / 1000:7.1f} kB  {times}× {path}")
            browser.close()
    finally:
        services.abandon_game(game=game, user=marker)
        server.terminate()
        server.wait(timeout=10)
    sent = max(result[1] for result in results)
    twice = sorted(
        {
            path
            for _r, _s, fetched, _t in results
            for path, (n, _size) in fetched.items()
            if n > 1 and any(once in path for once in ONCE)
        }
    )
    missing = [
        once for once in ONCE if not all(
            any(once in path for path in fetched) for _r, _s, fetched, _t in results
        )
    ]  # fmt: skip
    ready = all(result[3] is not None for result in results)
    timings = ", ".join(
        f"{t:.1f} s at {how}" if t is not None else f"not ready at {how}"
        for how, _s, _f, t in results
    )
    print(f"offline engine: {sent / 1e6:.2f} MB over the wire, ready {timings}")
    if twice:
        print("fetched more than once:", ", ".join(twice))
    if missing:
        print("never fetched (not counted?):", ", ".join(missing))
    ok = sent <= TARGET_BYTES and not twice and not missing and ready
    target = (
        f"targets: at most {TARGET_BYTES / 1e6:.1f} MB, each file once, ready: "
        f"{'meets' if ok else 'MISSES'}"
    )
    return outcome(args, ok, target)


def outcome(args, ok, target):
    from bench.support import verdict

    return verdict(smoke=args.smoke, ok=ok, target=target)


if __name__ == "__main__":
    sys.exit(main())
