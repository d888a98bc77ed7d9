"""The vocabulary and contract shared by every game module.

Vocabulary (RULES.md): cue ball, object ball, cork, pocket, home, stroke, foul, handicap.

Messages
    Every text the engine produces (an error, an event's description, a setting's label) is a
    ``Message(msgid, params)``: ``msgid`` is an English gettext msgid wrapped in
    ``gettext_noop`` where it is written (so ``makemessages`` collects it), ``params`` are
    %-format parameters. The Django side renders it with ``gettext(msgid) % params``.

Events
    ``Event(kind, fouls=(), ball=None, pocket=None, count=None)``: what the marker recorded.
    Stored as ``kind`` + ``payload`` (``event.to_payload()`` / ``Event.from_payload(kind, p)``).
    The kind ``"undo"`` is handled by ``replay`` for every game: it drops the last effective
    event.

Actions
    ``legal_actions(state)`` returns the ``Action`` templates the marker may send now. An
    action stands for every event with its ``kind`` and: a non-empty subset of ``fouls`` (when
    ``fouls`` is offered; several fouls in one stroke are penalised once), a ``ball`` from
    ``balls`` (when offered), a ``pocket`` from ``pockets`` (when offered; ``default_pocket`` is
    the designated one), a ``count`` from 1 to ``max_count`` (when offered). ``apply`` accepts
    every such event: the UI offers exactly these buttons.

Variants
    Each game module exposes ``VARIANT: Variant`` (see the class). States are frozen
    dataclasses; ``apply`` returns a new state and never mutates; an illegal event raises
    ``RuleViolation`` and changes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


def gettext_noop(msgid: str) -> str:
    """Marks ``msgid`` for translation (collected by makemessages); returns it unchanged."""
    return msgid


@dataclass(frozen=True)
class Message:
    """A translatable text: render with ``gettext(msgid) % params`` (or ``msgid`` alone)."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        text = translate(self.msgid)
        return text % dict(self.params) if self.params else text


class RuleViolation(Exception):
    """An event the rules do not allow now. ``code`` is stable; ``message`` is translatable."""

    def __init__(self, code: str, message: Message):
        super().__init__(message.render())
        self.code = code
        self.message = message


class SettingsError(Exception):
    """Invalid settings: ``errors`` maps a setting's name (or "__all__") to a Message."""

    def __init__(self, errors: Mapping[str, Message]):
        super().__init__("; ".join(f"{k}: {m.render()}" for k, m in errors.items()))
        self.errors = dict(errors)


class Pocket(enum.Enum):
    """The six pockets, declared in clockwise order seen from above, home at the bottom."""

    FAR_LEFT = "far_left"
    FAR_RIGHT = "far_right"
    RIGHT_MIDDLE = "right_middle"
    NEAR_RIGHT = "near_right"
    NEAR_LEFT = "near_left"
    LEFT_MIDDLE = "left_middle"

    def next_clockwise(self, steps: int = 1) -> Pocket:
        order = list(Pocket)
        return order[(order.index(self) + steps) % len(order)]

    @property
    def label(self) -> Message:
        return POCKET_LABELS[self]


POCKET_LABELS = {
    Pocket.FAR_LEFT: Message(gettext_noop("far left corner")),
    Pocket.FAR_RIGHT: Message(gettext_noop("far right corner")),
    Pocket.RIGHT_MIDDLE: Message(gettext_noop("right middle")),
    Pocket.NEAR_RIGHT: Message(gettext_noop("near right corner (home side)")),
    Pocket.NEAR_LEFT: Message(gettext_noop("near left corner (home side)")),
    Pocket.LEFT_MIDDLE: Message(gettext_noop("left middle")),
}


@dataclass(frozen=True)
class Event:
    kind: str
    fouls: tuple[str, ...] = ()
    ball: int | None = None
    pocket: Pocket | None = None
    count: int | None = None

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {}
        if self.fouls:
            payload["fouls"] = list(self.fouls)
        if self.ball is not None:
            payload["ball"] = self.ball
        if self.pocket is not None:
            payload["pocket"] = self.pocket.value
        if self.count is not None:
            payload["count"] = self.count
        return payload

    @classmethod
    def from_payload(cls, kind: str, payload: Mapping[str, Any]) -> Event:
        """Builds an event from stored or posted data; malformed data raises RuleViolation."""
        try:
            pocket = payload.get("pocket")
            ball = payload.get("ball")
            count = payload.get("count")
            return cls(
                kind=str(kind),
                fouls=tuple(str(f) for f in payload.get("fouls", ())),
                ball=None if ball in (None, "") else int(ball),
                pocket=None if pocket in (None, "") else Pocket(pocket),
                count=None if count in (None, "") else int(count),
            )
        except (TypeError, ValueError) as exc:
            raise RuleViolation(
                "malformed_event", Message(gettext_noop("The event's details are malformed."))
            ) from exc


UNDO = "undo"


@dataclass(frozen=True)
class Action:
    kind: str
    label: Message
    fouls: tuple[str, ...] = ()
    balls: tuple[int, ...] = ()
    pockets: tuple[Pocket, ...] = ()
    default_pocket: Pocket | None = None
    max_count: int | None = None


@dataclass(frozen=True)
class Result:
    """``winners``: seat indexes (all tied seats for a draw); ``draw``: None, "normal" or
    "conditional"; ``scores``: the final figure per seat (what the result was decided on)."""

    winners: tuple[int, ...]
    draw: str | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class SettingField:
    """One setting, enough to build a form field and the rules page."""

    name: str
    label: Message
    kind: str  # "int", "choice" or "bool"
    default: Any
    help: Message | None = None
    choices: tuple[tuple[str, Message], ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    decision: bool = False  # RULES.md marks this as [decision], not stated by the seed


class State(Protocol):
    settings: Any
    seats: int
    turn: int
    scores: tuple[int, ...]
    finished: bool
    result: Result | None
    applied: int


@dataclass(frozen=True)
class Variant:
    key: str
    name: Message
    settings_from_dict: Callable[[Mapping[str, Any]], Any]  # raises SettingsError
    settings_fields: tuple[SettingField, ...]
    foul_labels: Mapping[str, Message]
    initial_state: Callable[[Any], State]
    legal_actions: Callable[[State], tuple[Action, ...]]
    apply: Callable[[State, Event], State]
    describe: Callable[[State, Event, State], Message]
    seat_stats: Callable[[State], tuple[dict[str, Any], ...]]
    min_seats: int = 2
    max_seats: int = 2
