"""The console without the network (issue 23 item 2): what the browser computes with the
engine (``games.rules.offline``, run by Brython) is what the server's replay gives — for
random stroke sequences of every game, split anywhere between the events the server stores
and the taps queued on the phone (as the console's forms post them), through JSON as the
worker passes them. ``tests/games/test_offline_through_views.py`` posts the same forms to the
server; ``tests/games/test_offline_browser.py`` runs this bridge in the browser itself."""

import json

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games.console import engine_catalog
from games.i18n import render_message
from games.rules import UNDO, VARIANTS, RuleViolation, offline, replay, replay_log
from games.views.console import _posted_number
from tests.games.rules.test_properties import PROPERTY, games

ALL = sorted(VARIANTS)


def form_of(event):
    """The fields a console form posts for ``event`` (an undo: the outbox's own entry)."""
    form = {"kind": [event.kind]}
    if event.fouls:
        form["fouls"] = list(event.fouls)
    if event.ball is not None:
        form["ball"] = [str(event.ball)]
    if event.pocket is not None:
        form["pocket"] = [event.pocket.value]
    if event.count is not None:
        form["count"] = [str(event.count)]
    if event.extra_balls:
        form["balls"] = [str(ball) for ball in event.extra_balls]
    if event.returned:
        form["returned"] = [str(ball) for ball in event.returned]
    return form


def entries_for(events, split):
    """The first ``split`` events as the server lists them, the rest as queued taps."""
    stored = [{"kind": e.kind, "payload": e.to_payload()} for e in events[:split]]
    queued = [{"form": form_of(e)} for e in events[split:]]
    return json.loads(json.dumps(stored + queued))  # as the worker receives them


@pytest.mark.parametrize("key", ALL)
@PROPERTY
@given(data=st.data())
def test_the_offline_state_is_the_servers_replay(key, data):
    variant, game_settings, events, _stack = data.draw(games(key, max_events=120))
    split = data.draw(st.integers(0, len(events)))
    state = replay(variant, game_settings, events)
    names = [f"Игрок {i}" for i in range(len(state.scores))]
    view = offline.console_view(key, game_settings.to_dict(), entries_for(events, split), names)
    assert view["digest"] == offline.state_digest(state)
    assert view["seq"] == len(events)
    assert view["turn"] == state.turn and view["finished"] == state.finished
    offered = [action.kind for action in variant.legal_actions(state)] if not state.finished else []
    assert [action["kind"] for action in view["actions"]] == offered


@pytest.mark.parametrize("key", ALL)
def test_a_queued_undo_takes_back_the_newest_stroke(key):
    variant = VARIANTS[key]
    settings = variant.settings_from_dict({"players": variant.min_seats})
    first = variant.legal_actions(variant.initial_state(settings))[0].event()
    entries = [{"form": form_of(first)}, {"form": {"kind": [UNDO]}}]
    view = offline.console_view(key, settings.to_dict(), entries)
    assert view["digest"] == offline.state_digest(variant.initial_state(settings))
    assert view["recent"][0]["undone"] and view["undoable"] is None


def test_a_queued_tap_the_rules_refuse_is_named_not_applied():
    view = offline.console_view(
        "cork", {"players": 3}, [{"form": {"kind": ["score"]}}, {"form": {"kind": ["undo"]}},
                                 {"form": {"kind": ["undo"]}}]
    )  # fmt: skip
    assert view == {"refused": 2, "error": "There is nothing to undo."}


@pytest.mark.parametrize(
    "posted",
    ["", None, "3", "0", "9999", "10000", "٣", " 3", "3 ", "1_0", "2.0", "+2", "-1", "x", "³"],
)
def test_a_posted_number_is_read_as_the_console_view_reads_it(posted):
    assert offline.form_number(posted) == _posted_number(posted)


def test_the_offline_texts_are_the_sites():
    """Rendered from the active language's catalog, with the seats' names and U+2212."""
    variant = VARIANTS["cork"]
    settings = variant.settings_from_dict({"players": 3})
    foul = next(a for a in variant.legal_actions(variant.initial_state(settings)) if a.fouls)
    events = [foul.event()]
    names = ["Лена", "Сокол", "Дед"]
    view = offline.console_view(
        "cork", settings.to_dict(), entries_for(events, 0), names, engine_catalog("ru")
    )
    with translation.override("ru"):
        step = replay_log(variant, settings, events)[0]
        assert view["recent"][0]["text"] == render_message(step.description, names)
        assert view["actions"][0]["label"] == render_message(
            variant.legal_actions(step.after)[0].label, names
        )
    assert view["recent"][0]["text"].startswith("Лена")
    assert view["scores"][0] == "\u22122"  # a foul: 1 − 3
    assert view["turn_name"] == "Сокол"


def test_malformed_queued_details_are_refused_as_the_server_refuses_them():
    """What the view would answer 409 for is refused here too, never guessed at."""
    entries = [{"form": {"kind": ["stroke"], "count": ["2.5"]}}]
    assert offline.console_view("cue_vs_hand", {"players": 2}, entries)["refused"] == 0
    with pytest.raises(RuleViolation):
        offline.event_from_form({"kind": ["pot"], "ball": ["³"]})


def test_offline_a_disputed_stroke_offers_no_stroke_until_resolved():
    """A dispute is marked and confirmed online only; a console drawn offline over a stored
    dispute offers no stroke (the engine would refuse it) and may still undo it."""
    stored = [{"kind": "score", "payload": {}}, {"kind": "dispute", "payload": {}}]
    view = offline.console_view("cork", {"players": 2}, stored, ["Аня", "Борис"])
    assert view["disputed"] == 1 and view["actions"] == [] and view["undoable"]
    undone = offline.console_view("cork", {"players": 2}, [*stored, {"form": {"kind": [UNDO]}}])
    assert undone["disputed"] is None and undone["actions"]
    refused = offline.console_view("cork", {"players": 2}, [*stored, {"form": {"kind": ["score"]}}])
    assert refused["refused"] == 2
