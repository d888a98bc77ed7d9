"""The console without the network, against the server itself (issue 23 items 1 and 2).

The taps a phone queues are the forms its console posts; sent later, each goes to the
record view with the sequence number it was made at. For random games of every variant,
the state the offline console computed (``games.rules.offline``, from the stored events and
the queued forms) is the state the server replays once they are posted. And what the
outbox reads and loads is guarded as the console is."""

import dataclasses
import json
import random
import zipfile
from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors
from games.models import Event, Game
from games.rules import UNDO, VARIANTS, offline
from games.rules import Event as RulesEvent
from tests.factories import UserFactory, start
from tests.games.rules.test_offline import form_of
from tests.helpers import HX
from toolbox.roles import MARKERS

pytestmark = pytest.mark.django_db
ALL = sorted(VARIANTS)


def random_events(variant, settings, rng, length):
    """Events a marker could record (offered actions, an undo one time in ten)."""
    events, stack = [], [variant.initial_state(settings)]
    for _ in range(length):
        if len(stack) > 1 and rng.random() < 0.1:
            events.append(RulesEvent(UNDO))
            stack.pop()
            continue
        actions = variant.legal_actions(stack[-1])
        if not actions:
            break
        action = actions[rng.randrange(len(actions))]
        event = action.pick(rng.randrange)
        if action.default_pocket is not None and rng.random() < 0.7:
            event = dataclasses.replace(event, pocket=action.default_pocket)
        stack.append(variant.apply(stack[-1], event))
        events.append(event)
    return events


def post(client, game, seq, event):
    name = "undo" if event.kind == UNDO else "record"
    data = {"seq": seq} | ({} if event.kind == UNDO else form_of(event))
    return client.post(reverse(f"games:{name}", args=[game.pk]), data, headers=HX)


@pytest.mark.parametrize("key", ALL)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_queue_posted_later_gives_the_state_the_phone_showed(
    key, seed, table, players, marker_user, marker_client
):
    variant = VARIANTS[key]
    rng = random.Random(f"{key}-{seed}")
    seats = players[: variant.min_seats]
    game = start(table, key, seats, marker_user)
    settings = selectors.settings_of(game)
    events = random_events(variant, settings, rng, rng.randint(1, 60))
    split = rng.randint(0, len(events))
    for seq, event in enumerate(events[:split]):  # recorded while the Wi-Fi was up
        assert post(marker_client, game, seq, event).status_code == 200
    state = marker_client.get(reverse("games:offline_state", args=[game.pk])).json()
    assert state["seq"] == split
    queued = [{"form": form_of(e)} for e in events[split:]]
    entries = [{"kind": e["kind"], "payload": e["payload"]} for e in state["events"]] + queued
    shown = offline.console_view(key, state["settings"], entries, state["names"])
    for seq, event in enumerate(events[split:], start=split):  # the queue, once it is back
        assert post(marker_client, game, seq, event).status_code == 200
    game = Game.objects.get(pk=game.pk)
    assert game.last_seq == len(events)
    assert shown["digest"] == offline.state_digest(selectors.game_state(game))


def test_the_outbox_reads_the_stored_events_with_their_lines_and_who_recorded_them(
    table, players, marker_user, marker_client
):
    game = start(table, "cork", players[:3], marker_user)
    other = UserFactory(groups=[MARKERS])
    other_client = Client()
    other_client.force_login(other)
    stroke = VARIANTS["cork"].legal_actions(selectors.game_state(game))[1].event()
    assert post(marker_client, game, 0, stroke).status_code == 200
    assert post(other_client, game, 1, stroke).status_code == 200
    response = marker_client.get(reverse("games:offline_state", args=[game.pk]))
    assert response["Cache-Control"] == "no-store"
    state = response.json()
    assert state["seq"] == 2 and state["variant"] == "cork" and state["status"] == "in_progress"
    assert [e["mine"] for e in state["events"]] == [True, False]
    assert [e["seq"] for e in state["events"]] == [1, 2]
    assert state["events"][0]["text"].startswith(players[0].full_name)
    assert Event.objects.filter(game=game).count() == 2


def test_only_those_who_may_use_the_console_read_its_events(table, players, marker_user, client):
    game = start(table, "cork", players[:3], marker_user)
    url = reverse("games:offline_state", args=[game.pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403


def test_the_engine_the_browser_runs_is_the_servers(client):
    from pathlib import Path

    import games.rules

    response = client.get(reverse("games:offline_engine"))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(BytesIO(response.content))
    folder = Path(games.rules.__file__).parent
    shipped = {name for name in archive.namelist() if name.startswith("games/rules/")}
    assert shipped == {f"games/rules/{path.name}" for path in folder.glob("*.py")}
    for path in folder.glob("*.py"):
        assert archive.read(f"games/rules/{path.name}") == path.read_bytes()
    assert archive.read("games/__init__.py") == b""  # not the Django app


def test_the_service_worker_and_the_engine_worker(marker_client, table, players, marker_user):
    sw = marker_client.get(reverse("games:service_worker"))
    assert sw.status_code == 200 and sw["Content-Type"].startswith("text/javascript")
    assert sw["Cache-Control"] == "no-cache"
    precache = json.loads(sw.content.decode().split("var PRECACHE = ", 1)[1].split(";\n", 1)[0])
    assert "/static/vendor/pyodide/pyodide.asm.wasm" in precache
    assert reverse("games:engine_worker") in precache
    worker = marker_client.get(reverse("games:engine_worker"))
    assert worker.status_code == 200
    policy = worker["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy
    # The console page carries the outbox's settings, its texts in the page's language.
    game = start(table, "cork", players[:3], marker_user)
    page = marker_client.get(reverse("games:console", args=[game.pk])).content.decode()
    config = page.split('<script id="offline-config" type="application/json">', 1)[1]
    config = json.loads(config.split("</script>", 1)[0])
    assert config["texts"]["queued"] == "Не отправлено (%(n)s)"
    assert config["record_url"] == reverse("games:record", args=[game.pk])
    assert config["catalog"]["Miss"] == "Промах"
    partial = marker_client.get(reverse("games:console", args=[game.pk]), headers=HX)
    assert "offline-config" not in partial.content.decode()  # read once, with the page
