"""Driving the site the way the browser does, and reading what it shows: the marker's console
(HTMX posts with the seq shown) and the boards (polls with the fingerprint shown)."""

import asyncio
import os
import random
import re
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.db import connection
from django.urls import reverse

from games import demo, rules, selectors
from games.models import Game
from tables.models import Table
from tests.factories import UserFactory
from toolbox.roles import MARKERS

HX = {"HX-Request": "true"}
ROOT = Path(__file__).resolve().parents[1]


def reachable(port):
    """Whether a server answers on 127.0.0.1:``port`` (PostgreSQL, Redis, Mosquitto…)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port):
    """uvicorn, as in production (ASGI: the boards' streams served by ``live.asgi``), on the
    test database — PostgreSQL: another process can reach it, and the tests' commits."""
    name = connection.settings_dict["NAME"]
    env = dict(os.environ, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}", DEBUG="1")
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "clubsite.asgi:application", "--port", str(port),
         "--lifespan", "off", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if reachable(port):
            return server
        time.sleep(0.2)
    server.kill()
    raise AssertionError("the server did not start")


def stop_server(server):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


def asgi_scope(path, query="", headers=()):
    """The ASGI scope of a browser's GET of ``path`` (with ``query``, and more headers)."""
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "scheme": "http",
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


def run_async(coroutine, timeout=20):
    """``asyncio.run(coroutine)`` in a thread of its own: the browser tests' Playwright keeps
    an event loop running in the test's thread."""
    with ThreadPoolExecutor(1) as executor:
        return executor.submit(asyncio.run, coroutine).result(timeout=timeout)


def start_form_data(table, variant, seats, **settings):
    """What the start form posts to start a game; settings not given keep the defaults the
    form shows prefilled."""
    data = {"op": "start", "table": table.pk, "variant": variant, "seats": seat_tokens(seats)}
    for field in rules.get_variant(variant).settings_fields:
        value = settings.get(field.name, field.default)
        if field.kind != "bool" or value:
            data[f"s_{field.name}"] = value
    return data


def start_via_form(client, table, variant, seats, **settings):
    """Starts a game by posting the start form of the table's marker page; returns it.

    Settings not given keep the defaults the form shows prefilled.
    """
    data = start_form_data(table, variant, seats, **settings)
    response = client.post(reverse("games:table", args=[table.number]), data, headers=HX)
    assert response.status_code == 200, response.content.decode()[:2000]
    assert "HX-Redirect" in response.headers, re.findall(
        r"errorlist.*?</ul>", response.content.decode(), re.S
    )
    game = Game.objects.get(table=table, status="in_progress")
    assert response.headers["HX-Redirect"] == reverse("games:console", args=[game.pk])
    return game


def seat_tokens(seats):
    return [f"g:{s}" if isinstance(s, str) else f"p:{s.pk}" for s in seats]


def seq_shown(html):
    """The sequence number the console shows (and posts back)."""
    return int(re.search(r'data-seq="(\d+)"', html).group(1))


def tap(client, game, kind, *, seq=None, expect=200, **details):
    """One button of the console: posts ``kind`` and details with the seq it was shown."""
    game.refresh_from_db()
    data = {"kind": kind, "seq": game.last_seq if seq is None else seq}
    for name, value in details.items():
        if isinstance(value, rules.Pocket):
            value = value.value
        data[name] = list(value) if isinstance(value, (list, tuple)) else value
    response = client.post(reverse("games:record", args=[game.pk]), data, headers=HX)
    assert response.status_code == expect, response.content.decode()[:3000]
    return response


def play(client, game, *events):
    """Taps one button per rules.Event."""
    response = None
    for event in events:
        details = {}
        if event.fouls:
            details["fouls"] = event.fouls
        if event.ball is not None:
            details["ball"] = event.ball
        if event.pocket is not None:
            details["pocket"] = event.pocket
        if event.count is not None:
            details["count"] = event.count
        response = tap(client, game, event.kind, **details)
    return response


def console_html(client, game):
    response = client.get(reverse("games:console", args=[game.pk]), headers=HX)
    assert response.status_code == 200
    return response.content.decode()


def scores(html):
    """The scores on the console's scoreboard, in seat order."""
    return [int(s.replace("\u2212", "-")) for s in re.findall(r"data-score>([\u2212-]?\d+)<", html)]


def figures(html):
    return re.findall(r"data-figure>([^<]*)<", html)


def state_of(game):
    game.refresh_from_db()
    return selectors.game_state(game)


# --- the boards ------------------------------------------------------------------------


def poll(client, url, fp):
    """What htmx sends every second: the fingerprint the board shows."""
    return client.get(url, {"fp": fp}, headers={"HX-Request": "true"})


def shown_fp(html):
    return re.search(r'data-fp="([^"]+)"', html).group(1)


def seats(html):
    """[(classes, name, score)] for each seat card of a table board, in playing order."""
    cards = re.findall(r'<li class="seat([^"]*)"\s+data-seat="\d+">(.*?)</li>', html, re.S)
    result = []
    for classes, body in cards:
        name = re.search(r'class="seat-name">([^<]*)<', body).group(1)
        score = re.search(r"data-score>([^<]*)<", body).group(1)
        result.append((classes.split(), name, score))
    return result


def text_of(html, attribute):
    """The text of the element carrying ``attribute`` (e.g. ``data-bank``)."""
    return re.search(rf"{attribute}>([^<]*)<", html).group(1).strip()


def a_club_of_twelve(games):
    """Each (game, players) at tables 1, 2, … three strokes in; then free tables up to a
    club's twelve."""
    marker = UserFactory(username="marker-wall", groups=[MARKERS])
    rng = random.Random(5)
    for number, (key, players) in enumerate(games, start=1):
        demo.play(
            table=Table.objects.create(number=number),
            variant=key,
            settings={},
            players=players,
            marker=marker,
            rng=rng,
            strokes=3,
            undo_every=0,
        )
    Table.objects.bulk_create(Table(number=n) for n in range(len(games) + 1, 13))


def fixed_skills(monkeypatch, skills=None):
    """``records.rating.skill_of`` answers the skills of ``skills`` (player pk →
    ``glicko.Skill``; the dict returned may be filled later) and a newcomer's from his class
    for anybody else: the odds' tests read numbers they chose, whatever the ratings say."""
    from records import glicko, rating

    known = {} if skills is None else skills

    def skill_of(family, player_id, skill_class=None):
        return known.get(player_id) or glicko.start(skill_class)

    monkeypatch.setattr(rating, "skill_of", skill_of)
    return known
