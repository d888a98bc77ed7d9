"""The console without the network: what the browser computes with this very engine.

The marker's console keeps recording through a Wi-Fi outage (``static/js/outbox.js``): each
tap is queued with the sequence number it was made at and applied at once. The state it
shows is computed in the browser by this package itself — the rules engine runs there under
Brython (Python 3 in JavaScript, with CPython's semantics: ``static/js/engine-worker.js``,
which loads this package's source as ``games/offline_bundle.py`` serves it), so no game is
written twice and a new game works offline the day it is added. This module is the bridge:
plain data in, plain data out (JSON through the worker), and nothing the server does not do
the same way. Only what Brython runs as CPython does is used here and in the engine: the
standard library's pure-Python modules (``dataclasses``, ``enum``, ``re``, ``json``), no C
extension, no I/O; ``tests/games/test_offline_browser.py`` compares Brython's answers with
CPython's for every variant:

- ``event_from_form(fields)``: a queued tap's form fields (as the console's forms post them)
  read as ``games.views.console.record`` reads them — the same numbers refused.
- ``console_view(variant, settings, entries, names, catalog)``: the state after the stored
  events and the queued taps, as the console shows it: scores, turn, result, the buttons of
  the legal actions, the newest log lines (texts rendered from ``catalog``, the active
  language's translations of the engine's messages), the event an undo would cancel, and
  ``digest``: the state itself, canonically, which the tests compare with the server's.
- ``state_digest(state)``: that canonical form (``tests/games/rules/test_offline.py``).

An entry of ``entries`` is ``{"kind": …, "payload": {…}}`` (a stored event, as the server
lists it) or ``{"form": {name: [values…]}}`` (a tap not sent yet).
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import fields
from dataclasses import is_dataclass
from typing import Any

from . import VARIANTS
from . import replay_log
from .base import META_KINDS
from .base import PLAYER
from .base import Action
from .base import Event
from .base import Message
from .base import Pocket
from .base import RuleViolation

MINUS = "\u2212"
LOG_LENGTH = 10  # as games.replay_cache: the newest log lines the console lists
# The pockets as the console lays them out: the table seen from above, home at the bottom.
POCKET_GRID = (
    Pocket.FAR_LEFT,
    Pocket.FAR_RIGHT,
    Pocket.LEFT_MIDDLE,
    Pocket.RIGHT_MIDDLE,
    Pocket.NEAR_LEFT,
    Pocket.NEAR_RIGHT,
)
_PLAIN_NUMBER = re.compile(r"[0-9]{1,4}", re.ASCII)
QUICK_COUNTS = 6  # "balls pocketed": one big button each for 1 … 6, the rest behind "more"


# --- a queued tap ------------------------------------------------------------------------


def form_number(text: str | None) -> int | str | None:
    """A posted ball or count as the console's view reads it: None when absent, an int for
    one to four plain ASCII digits, else the text itself (which the engine refuses)."""
    if text in (None, ""):
        return None
    return int(text) if _PLAIN_NUMBER.fullmatch(text) else text


def event_from_form(form: Mapping[str, Sequence[str]]) -> Event:
    """The event a console form posts (``kind``: its last value, as Django's ``get``)."""

    def values(name: str) -> list[str]:
        return [str(value) for value in form.get(name, ())]

    kinds = values("kind")
    pocket = values("pocket")
    return Event.from_payload(
        kinds[-1] if kinds else "",
        {
            "fouls": values("fouls"),
            "ball": form_number((values("ball") or [None])[-1]),
            "pocket": pocket[-1] if pocket else None,
            "count": form_number((values("count") or [None])[-1]),
            "balls": [form_number(ball) for ball in values("balls")],
            "returned": [form_number(ball) for ball in values("returned")],
        },
    )


def _event(entry: Mapping[str, Any]) -> Event:
    if "form" in entry:
        return event_from_form(entry["form"])
    return Event.from_payload(entry["kind"], entry.get("payload") or {})


# --- texts -------------------------------------------------------------------------------


def render(message: Any, catalog: Mapping[str, str], names: Sequence[str] = ()) -> str:
    """As ``games.i18n.render_message``, translating through ``catalog`` (msgid → text)."""
    if message is None:
        return ""
    if isinstance(message, str):
        return catalog.get(message, message)
    if names and message.msgid == PLAYER:
        index = message.params.get("seat", 0) - 1
        if 0 <= index < len(names) and names[index]:
            return names[index]
    text = catalog.get(message.msgid, message.msgid)
    if not message.params:
        return text
    return text % {
        key: render(value, catalog, names) if isinstance(value, Message) else minus(value)
        for key, value in message.params.items()
    }


def minus(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"{MINUS}{-value}"
    return value


# --- the state ---------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    if isinstance(value, Mapping):
        return {str(_plain(key)): _plain(item) for key, item in value.items()}
    if isinstance(value, frozenset | set):
        return sorted((_plain(item) for item in value), key=repr)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def state_digest(state: Any) -> str:
    """The state as canonical JSON: equal for equal states, here and in the browser."""
    return json.dumps(_plain(state), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def action_layout(action: Action) -> dict[str, Any]:
    """How the console lays ``action`` out, online (``games.console.ActionView``) and offline
    (``static/js/outbox.js``) alike: its ``shape`` — ``simple`` (one tap records it),
    ``fouls`` (a button per foul), ``pockets`` (a button per pocket), ``counts`` (a button
    per count, +1 … +6, the rest behind "more") or ``detailed`` (pickers and one button) —
    and the details each shape needs.

    >>> from .base import Message
    >>> action_layout(Action("pot", Message("Pot"), max_count=8))["shape"]
    'counts'
    >>> action_layout(Action("pot", Message("Pot"), max_count=8))["more_counts"]
    [7, 8]
    """
    optional = set(action.optional)
    # A foul's optional detail: the balls pocketed on it, spotted (their numbers, or how
    # many), chosen in its "several fouls" form; the one-tap foul buttons leave it out.
    max_count = None if "count" in optional else action.max_count
    details = (
        bool(action.fouls),
        bool(action.balls) and "ball" not in optional,
        bool(action.pockets) and "pocket" not in optional,
        bool(max_count),
    )
    if not any(details):
        shape = "simple"
    elif details == (True, False, False, False):
        shape = "fouls"
    elif details == (False, False, True, False) and not action.default_pocket:
        shape = "pockets"
    elif details == (False, False, False, True):
        shape = "counts"
    else:
        shape = "detailed"
    return {
        "shape": shape,
        "max_count": max_count,
        "counts": list(range(1, min(max_count or 0, QUICK_COUNTS) + 1)),
        "more_counts": list(range(QUICK_COUNTS + 1, (max_count or 0) + 1)),
        "spot_balls": list(action.extra_balls) if action.fouls else [],
        "spot_count": action.max_count if action.fouls and "count" in optional else None,
        "default_ball": action.balls[0] if len(action.balls) == 1 else None,
    }


def _action(action: Action, variant: Any, catalog: Mapping[str, str], names: Sequence[str]):
    offered = set(action.pockets)
    return {
        **action_layout(action),
        "kind": action.kind,
        "label": render(action.label, catalog, names),
        "fouls": [
            [code, render(variant.foul_labels.get(code, Message(code)), catalog, names)]
            for code in action.fouls
        ],
        "balls": list(action.balls),
        "pockets": [
            {
                "value": pocket.value,
                "label": render(pocket.label, catalog),
                "offered": pocket in offered,
                "default": pocket == action.default_pocket,
            }
            for pocket in POCKET_GRID
        ]
        if action.pockets
        else [],
        "default_pocket": action.default_pocket.value if action.default_pocket else None,
        "extra_balls": list(action.extra_balls),
        "optional": list(action.optional),
        "returns": action.returns,
    }


def console_view(
    variant_key: str,
    settings: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    names: Sequence[str] = (),
    catalog: Mapping[str, str] | None = None,
    texts_from: int | None = None,
) -> dict[str, Any]:
    """What the console shows after ``entries`` (see the module's docstring); with
    ``texts_from``, also ``described``: the log lines of the entries from that index on.

    A queued tap the rules refuse (it cannot be: it was legal where it was made, unless the
    stored events changed under it) gives ``{"refused": index, "error": text}`` instead.
    """
    catalog = catalog or {}
    variant = VARIANTS[variant_key]
    parsed = variant.settings_from_dict(settings)
    events = []
    try:
        for entry in entries:
            events.append(_event(entry))
        log = replay_log(variant, parsed, events)
    except RuleViolation as violation:
        # Which entry: the first whose prefix no longer replays.
        index = len(events)
        for index in range(len(events) + 1):
            try:
                replay_log(variant, parsed, events[: index + 1])
            except RuleViolation:
                break
        return {"refused": index, "error": render(violation.message, catalog, names)}
    state = log[-1].after if log else variant.initial_state(parsed)
    in_force = [
        number
        for number, step in enumerate(log, start=1)
        if step.event.kind not in META_KINDS and not step.undone
    ]
    result = state.result
    return {
        "seq": len(events),
        "scores": [minus(score) for score in state.scores],
        "turn": state.turn,
        "turn_name": names[state.turn] if 0 <= state.turn < len(names) else "",
        "finished": state.finished,
        "result": None
        if result is None
        else {"winners": [names[i] for i in result.winners if i < len(names)], "draw": result.draw},
        # A disputed stroke is resolved online only (confirm or undo): no stroke meanwhile.
        "disputed": log[-1].disputed if log else None,
        "actions": []
        if state.finished or (log and log[-1].disputed)
        else [_action(a, variant, catalog, names) for a in variant.legal_actions(state)],
        "recent": [
            {
                "seq": number,
                "text": render(step.description, catalog, names),
                "undone": step.undone,
            }
            for number, step in list(enumerate(log, start=1))[-LOG_LENGTH:]
        ],
        "undoable": render(log[in_force[-1] - 1].description, catalog, names) if in_force else None,
        "digest": state_digest(state),
        "described": []
        if texts_from is None
        else [render(step.description, catalog, names) for step in log[texts_from:]],
    }
