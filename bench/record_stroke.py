"""Benchmark: recording one stroke into games with 10, 100 and 1,000 prior events.

    .venv/bin/python bench/record_stroke.py [--samples 100] [--sizes 10,100,1000]
    .venv/bin/python bench/record_stroke.py --smoke   # seconds: 4 strokes at 10 and 50 events

Uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/luza_bench) only to reach the
server: like the test runner it creates a throwaway database ``test_<name>``, migrates it,
and drops it at the end, so no real data is touched.

For every size it prepares ``--samples`` cork games on one table, each with that many prior
events (a realistic mix of strokes, fouls, scoring strokes and undos), and records one more
stroke in each:
- through the service ``games.services.record_event`` (lock, read the log, replay, insert,
  update: the write path), and
- through the view, as the marker's phone posts it (session, permission check, the write,
  and rendering the console fragment): Django's test client sends it in this process and
  the time is taken inside Django's request handler (the server's side only).
It prints the median and p95 time per stroke and the SQL statements per stroke (transaction
control, i.e. BEGIN/COMMIT, not counted; counted on the first requests of each size, which
are not timed: the query log costs each statement time of its own). As in production, DEBUG
is off (``DEBUG=1`` in the environment measures with it).

The floor, measured in the same run and interleaved with the strokes (so that both see the
same machine): a bare request of the same signed-in marker that reads the session and the
user and renders a small template (``bench/support/floor.py``). The last line compares the
view with it at the game length where it costs the most:
``record stroke: <x>× the floor (<ms> ms vs <ms> ms median)``.
Targets: p95 < 25 ms at 1,000 prior events (issue 4); the same query count at every size;
the view ≤ 2× the floor at every game length (issue 31; it was 2.5×, issue 23). The last
line says MEETS or MISSES.
"""

import argparse
import os
import random
import statistics
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/luza_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
# As in production: DEBUG off (no query log kept, templates without their debug records).
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.handlers.base import BaseHandler  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench.support import throwaway_database  # noqa: E402
from clubs.staff import grant  # noqa: E402
from games import rules, services  # noqa: E402
from games.models import Event, Game  # noqa: E402
from players.models import Player  # noqa: E402
from tables.models import Table  # noqa: E402
from toolbox.roles import MARKERS, ensure_roles  # noqa: E402

PLAYERS = 6
FORM = "application/x-www-form-urlencoded"
STATIC_AS_IS = "django.contrib.staticfiles.storage.StaticFilesStorage"
STROKE = rules.Event("stroke")


def prior_events(count, rng):
    """``count`` legal cork events: mostly plain strokes, some fouls, a few scores and undos."""
    variant = rules.get_variant("cork")
    settings = variant.settings_from_dict({"players": PLAYERS, "target": 10**9})
    fouls = sorted(variant.foul_labels)
    events, states = [], [variant.initial_state(settings)]  # states: replay's undo stack
    while len(events) < count:
        roll = rng.random()
        if roll < 0.05:
            if len(states) > 1:
                states.pop()
                events.append(rules.Event(rules.UNDO))
            continue
        if roll < 0.25:
            event = rules.Event("foul", fouls=tuple(rng.sample(fouls, rng.choice((1, 1, 2)))))
        elif roll < 0.27 and states[-1].bank < 10**8:
            event = rules.Event("score")
        else:
            event = STROKE
        states.append(variant.apply(states[-1], event))
        events.append(event)
    assert rules.replay(variant, settings, events) == states[-1]
    return events


def prepare_game(table, seats, marker, events):
    game = services.start_game(
        table=table, variant="cork", settings={"target": 10**9}, seats=seats, marker=marker
    )
    Event.objects.bulk_create(
        Event(game=game, seq=seq, kind=e.kind, payload=e.to_payload(), recorded_by=marker)
        for seq, e in enumerate(events, start=1)
    )
    Game.objects.filter(pk=game.pk).update(last_seq=len(events))
    game.refresh_from_db()
    # As if every event had been recorded through the service: its replay is cached.
    services.refresh_replay_cache(game=game)
    game.refresh_from_db()
    return game


SERVER_TIMES = []  # ms spent in Django's request handler (middleware, view, rendering)
SERVER_CPU = []  # ms of this thread's CPU in it (what a busy machine's waits do not inflate)


def time_the_handler():
    """Times ``BaseHandler.get_response``: the server's side of a request, not the client's."""
    get_response = BaseHandler.get_response

    def timed(self, request):
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return get_response(self, request)
        finally:
            SERVER_TIMES.append((time.perf_counter() - start) * 1000)
            SERVER_CPU.append((time.thread_time() - cpu) * 1000)

    BaseHandler.get_response = timed


def statements(queries):
    """SQL statements run (transaction control — BEGIN, COMMIT, savepoints — not counted)."""
    control = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
    return sum(1 for q in queries if not q["sql"].upper().startswith(control))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


FLOOR_RATIO = 2.0  # the view's median may cost at most this many floors
COUNTED = 2  # the first samples of a size count statements (the view's: i = 1), untimed


def measure(size, samples, table, seats, marker, client, rng):
    events = prior_events(size, rng)
    service_ms, view_ms, service_queries, view_queries = [], [], set(), set()
    floor_ms, floor_queries = [], set()
    view_cpu, floor_cpu = [], []
    for i in range(samples):
        game = prepare_game(table, seats, marker, events)
        reset_queries()  # the query log is a bounded deque: keep the count below exact
        if i % 2 == 0:  # the service alone
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                services.record_event(game=game, expected_seq=size, event=STROKE, user=marker)
                service_ms.append((time.perf_counter() - start) * 1000)
            service_queries.add(statements(queries))
        else:  # the whole request, as the phone posts it
            # The first few count their statements and are not timed: the query log that
            # counts them costs each statement its own time (more for the view's five).
            counting = i < COUNTED
            with CaptureQueriesContext(connection) if counting else nullcontext() as queries:
                floor = client.get(reverse("bench_floor"))
            assert floor.status_code == 200, floor.status_code
            floor_time, floor_thread = SERVER_TIMES.pop(), SERVER_CPU.pop()
            url = reverse("games:record", args=[game.pk])
            data = urlencode({"seq": size, "kind": "stroke"})  # a form, as htmx posts it
            with CaptureQueriesContext(connection) if counting else nullcontext() as view_log:
                response = client.post(url, data, content_type=FORM, headers={"HX-Request": "true"})
            assert response.status_code == 200, response.status_code
            view_time, view_thread = SERVER_TIMES.pop(), SERVER_CPU.pop()
            if counting:
                floor_queries.add(statements(queries))
                view_queries.add(statements(view_log))
            else:
                floor_ms.append(floor_time)
                floor_cpu.append(floor_thread)
                view_ms.append(view_time)
                view_cpu.append(view_thread)
        game.refresh_from_db()
        assert game.last_seq == size + 1
        services.abandon_game(game=game, user=marker)  # frees the table for the next one
    return (
        service_ms,
        view_ms,
        service_queries,
        view_queries,
        floor_ms,
        floor_queries,
        (
            view_cpu,
            floor_cpu,
        ),
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--samples", type=int, default=100, help="strokes per size (default 100)")
    parser.add_argument("--sizes", default="10,100,1000", help="prior events (default 10,100,1000)")
    parser.add_argument("--smoke", action="store_true", help="4 strokes at 10 and 50: seconds")
    args = parser.parse_args()
    if args.smoke:
        args.samples, args.sizes = 4, "10,50"
    sizes = [int(s) for s in args.sizes.split(",")]

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    # The static files as they are (production's manifest would need collectstatic first).
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": STATIC_AS_IS}}
    settings.ROOT_URLCONF = "bench.support.floor"  # the site's routes and /bench/floor/
    time_the_handler()
    with throwaway_database():
        ensure_roles()
        marker = User.objects.create_user("bench-marker", password="bench-only")
        grant(marker, MARKERS)
        table = Table.objects.create(number=1)
        seats = [Player.objects.create(full_name=f"Игрок {i}") for i in range(1, PLAYERS + 1)]
        client = Client()
        client.force_login(marker)
        client.get(reverse("games:start"))  # warm up: templates, session, URL resolver
        rng = random.Random(4)
        measure(10, 40, table, seats, marker, client, rng)  # warm up the code paths

        header = f"{'prior events':>12} | {'path':<8} | {'median ms':>9} | {'p95 ms':>7} | queries"
        print(header)
        print("-" * len(header))
        worst_p95 = 0.0
        all_service, all_view = set(), set()
        ratios = []  # (view ÷ floor, view median, floor median) per size
        cpu_ratios = []  # the same of the server thread's CPU time
        for size in sizes:
            service_ms, view_ms, service_q, view_q, floor_ms, floor_q, cpu = measure(
                size, args.samples, table, seats, marker, client, rng
            )
            view_median, floor_median = statistics.median(view_ms), statistics.median(floor_ms)
            ratios.append((view_median / floor_median, view_median, floor_median))
            cpu_ratios.append(statistics.median(cpu[0]) / statistics.median(cpu[1]))
            all_service |= service_q
            all_view |= view_q
            for path, times, queries in (
                ("service", service_ms, service_q),
                ("view", view_ms, view_q),
                ("floor", floor_ms, floor_q),
            ):
                p95 = percentile(times, 0.95)
                if size == max(sizes) and path != "floor":
                    worst_p95 = max(worst_p95, p95)
                q = ",".join(str(n) for n in sorted(queries))
                print(
                    f"{size:>12} | {path:<8} | {statistics.median(times):>9.2f} | {p95:>7.2f} | {q}"
                )
        print()
        constant = len(all_service) == 1 and len(all_view) == 1
        print(
            f"queries per stroke constant across sizes: {'yes' if constant else 'NO'} "
            f"(service {sorted(all_service)}, view {sorted(all_view)})"
        )
        ratio, view_median, floor_median = max(ratios)
        each = ", ".join(f"{n}: {r:.2f}×" for n, (r, _v, _f) in zip(sizes, ratios, strict=True))
        print(f"the view ÷ the floor (medians) at each length: {each}")
        print(f"server CPU per request, the view ÷ the floor: at most {max(cpu_ratios):.1f}×")
        print(
            f"record stroke: {ratio:.1f}× the floor "
            f"({view_median:.1f} ms vs {floor_median:.1f} ms median)"
        )
        if args.smoke:
            print("smoke run: no verdict")
        else:
            print(
                f"p95 at {max(sizes)} prior events: {worst_p95:.2f} ms "
                f"({'MEETS' if worst_p95 < 25 else 'MISSES'} the 25 ms target)"
            )
            print(
                f"view at most {FLOOR_RATIO:g}× the floor at every length: "
                f"{'MEETS' if ratio <= FLOOR_RATIO else 'MISSES'}"
            )


if __name__ == "__main__":
    main()
