"""The console without the network, against the server itself (issue 23 items 1 and 2).

The taps a phone queues are the forms its console posts; sent later, each goes to the
record view with the sequence number it was made at. For random games of every variant,
the state the offline console computed (``games.rules.offline``, from the stored events and
the queued forms) is the state the server replays once they are posted. And what the
outbox reads and loads is guarded as the console is."""

import dataclasses
import gzip
import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from games import selectors
from games.console import offline_engine_url
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
    """The one script the worker loads is Brython, then the engine's own source, byte for
    byte, and the standard modules it needs as Brython ships them, added to Brython's file
    system; gzip'ed when asked, kept forever under its fingerprint."""
    from pathlib import Path

    import games.rules
    from games.offline_bundle import STDLIB, _stdlib, brython_dir

    url = offline_engine_url()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "immutable" in response["Cache-Control"]
    assert "Content-Encoding" not in response  # not asked
    text = response.content.decode()
    brython = (brython_dir() / "brython.min.js").read_text(encoding="utf-8")
    prefix = brython + ";\n__BRYTHON__.use_VFS = true;\n__BRYTHON__.update_VFS("
    assert text.startswith(prefix) and text.endswith(");\n")
    shipped = json.loads(text[len(prefix) : -len(");\n")])
    folder = Path(games.rules.__file__).parent
    engine = {name for name in shipped if name.startswith("games.rules")}
    assert engine == {"games.rules"} | {f"games.rules.{p.stem}" for p in folder.glob("*.py")} - {
        "games.rules.__init__"
    }
    for path in folder.glob("*.py"):
        name = "games.rules" if path.stem == "__init__" else f"games.rules.{path.stem}"
        assert shipped[name][1] == path.read_text(encoding="utf-8")
    assert shipped["games.rules"][3] == 1 and shipped["games"] == [".py", "", [], 1]
    stdlib = _stdlib()
    assert {name: shipped[name] for name in STDLIB} == {name: stdlib[name] for name in STDLIB}
    assert set(shipped) == {"$timestamp", "games", *engine, *STDLIB}
    zipped = client.get(url, headers={"accept-encoding": "gzip, deflate, br"})
    assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
    assert len(zipped.content) < 600_000 and len(zipped.content) < len(response.content) / 4
    assert gzip.decompress(zipped.content) == response.content


def test_the_service_worker_and_the_engine_worker(marker_client, table, players, marker_user):
    sw = marker_client.get(reverse("games:service_worker"))
    assert sw.status_code == 200 and sw["Content-Type"].startswith("text/javascript")
    assert sw["Cache-Control"] == "no-cache"
    precache = json.loads(sw.content.decode().split("var PRECACHE = ", 1)[1].split(";\n", 1)[0])
    assert offline_engine_url() in precache  # Brython in it
    assert not any("pyodide" in url or "vendor/brython" in url for url in precache)
    assert reverse("games:engine_worker") in precache
    worker = marker_client.get(reverse("games:engine_worker"))
    assert worker.status_code == 200
    policy = worker["Content-Security-Policy"]
    assert "'unsafe-eval'" in policy  # Brython runs what it compiles; the page's stays strict
    assert worker["Content-Type"].startswith("text/javascript")
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
