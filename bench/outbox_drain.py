"""Benchmark: how long the strokes a phone queued offline take to land once the network is back.

    .venv/bin/python bench/outbox_drain.py [--strokes 20] [--rounds 3] [--pace 1.0]
    .venv/bin/python bench/outbox_drain.py --smoke   # one round of 3 strokes: seconds

A real server (uvicorn, one worker, on DATABASE_URL — default
postgres://postgres@127.0.0.1:5432/luza_outbox_bench, created and migrated if missing; a
SQLite URL works too) and a real phone (Chromium, 360×740, through Playwright): the marker
signs in and opens a cork game's console, waits for its rules engine (Brython) to be warm,
switches the network off (``context.set_offline``), taps ``--strokes`` strokes ``--pace``
seconds apart, switches it on again and the clock runs until the outbox is empty and the
database holds every stroke (checked: in order, once). Each round is a new game.

Last line: ``outbox drain: <n> queued strokes landed <s> s after the network came back
(median of <r> rounds, max <s> s)``. Target (issue 23 item 5): under 2 s for 20 strokes.
"""

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

BASE_DIR = Path(__file__).resolve().parent.parent
# The project before bench/ (the script's own folder, first on sys.path): bench/billing.py
# must not stand in for the billing app.
sys.path.insert(0, str(BASE_DIR / "bench"))
sys.path.insert(0, str(BASE_DIR))

import board_load  # noqa: E402 - ensure_database: the same set-up as the other benches

# bench/ off the path again: its billing.py would hide the billing app from Django.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != BASE_DIR / "bench"]

from bench.support.server import start_uvicorn  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/luza_outbox_bench"
HOST = "localhost"  # a secure context for the service worker, as 127.0.0.1 would be
PASSWORD = "outbox-bench-only"
CHROMIUM = "/usr/bin/chromium"
TARGET_SECONDS = 2.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--strokes", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between taps")
    parser.add_argument("--port", type=int, default=0, help="the server's port (0: a free one)")
    parser.add_argument("--smoke", action="store_true", help="one round of 3 strokes")
    args = parser.parse_args()
    if args.smoke:
        args.strokes, args.rounds, args.pace = 3, 1, 0.7
    return args


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def set_up(args):
    """Django in this process on the bench's database: migrated, a marker, a table."""
    board_load.ensure_database(args.database_url)
    migrate = [sys.executable, "manage.py", "migrate", "--verbosity", "0"]
    subprocess.run(migrate, cwd=BASE_DIR, env=server_environment(args), check=True)
    os.environ.update(server_environment(args))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User

    from clubs.staff import grant
    from tables.models import Table
    from toolbox.roles import MARKERS, ensure_roles

    ensure_roles()
    marker, _created = User.objects.get_or_create(username="outbox-bench")
    marker.set_password(PASSWORD)
    marker.save()
    grant(marker, MARKERS)
    table, _created = Table.objects.get_or_create(number=77)
    return marker, table


def server_environment(args):
    env = dict(os.environ)
    env.update(
        DATABASE_URL=args.database_url,
        DEBUG="1",  # its static files as they are (no collectstatic needed)
        SECRET_KEY="bench-only-not-secret",
        ALLOWED_HOSTS=HOST,
        SECURE_COOKIES="0",
    )
    env.pop("REDIS_URL", None)
    return env


def start_server(args, port):
    return start_uvicorn(server_environment(args), port)


def wait(page, expression, seconds):
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise SystemExit(f"still false after {seconds} s: {expression}")
        time.sleep(0.02)


def one_round(browser, base, args, marker, table):
    from games import services
    from games.models import Event

    game = services.start_game(
        table=table, variant="cork", settings={}, seats=["Анна", "Борис"], marker=marker
    )
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    page = context.new_page()
    try:
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", "outbox-bench")
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        page.goto(f"{base}/marker/games/{game.pk}/")
        wait(page, "document.body.dataset.engine === 'ready'", 120)
        wait(page, "(window.luzaOutbox.store().base || {}).seq === 0", 30)
        context.set_offline(True)
        kinds = []
        for i in range(args.strokes):
            kind = "foul" if i % 3 == 1 else "stroke"
            if kind == "foul":
                page.click("#console button[data-foul=miss]")
            else:
                page.click("#console button[data-kind=stroke]")
            page.wait_for_selector(f'#console[data-seq="{i + 1}"]')
            kinds.append(kind)
            time.sleep(args.pace)
        started = time.perf_counter()
        context.set_offline(False)
        deadline = time.monotonic() + 60
        while Event.objects.filter(game=game).count() < args.strokes:
            if time.monotonic() > deadline:
                raise SystemExit("the queue did not land within 60 s")
            time.sleep(0.01)
        landed = time.perf_counter() - started
        stored = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "kind"))
        assert stored == [(i + 1, kind) for i, kind in enumerate(kinds)], stored
        wait(page, "document.body.dataset.queued === '0'", 30)
    finally:
        context.close()
        services.abandon_game(game=game, user=marker)
    return landed


def main():
    args = parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: nothing measured")
        return outcome(args, False) if not args.smoke else (print("smoke run: no verdict"), 0)[1]
    marker, table = set_up(args)
    port = args.port or free_port()
    server = start_server(args, port)
    base = f"http://{HOST}:{port}"
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls here are plain.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    print(f"database: {urlparse(args.database_url).scheme}; server: uvicorn on {base}")
    times = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            for number in range(1, args.rounds + 1):
                landed = one_round(browser, base, args, marker, table)
                times.append(landed)
                print(f"round {number}: {args.strokes} strokes landed in {landed:.2f} s")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    median = statistics.median(times)
    print(
        f"outbox drain: {args.strokes} queued strokes landed {median:.2f} s after the network "
        f"came back (median of {len(times)} rounds, max {max(times):.2f} s)"
    )
    verdict = median < TARGET_SECONDS
    return outcome(args, verdict)


def outcome(args, ok):
    from bench.support import verdict

    target = f"target: under {TARGET_SECONDS:.0f} s for 20 strokes: {'meets' if ok else 'MISSES'}"
    return verdict(smoke=args.smoke, ok=ok, target=target)


if __name__ == "__main__":
    sys.exit(main())
