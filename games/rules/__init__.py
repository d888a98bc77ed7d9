"""The rules of the club's games: a pure, event-sourced engine.

Plain Python: no Django import, no I/O. Views and models call it; it never calls them.
See ``base.py`` for the contract every game module fulfils, and ``docs/rules/`` for the
rules themselves, as this club plays them: what the traditional Russian source states is
marked **[source]** there (and ``[source]`` in the modules' docstrings), what the club decided
**[decision]**. The nine games, one module each:

- the four traditional games of that source (``docs/rules/README.md``): ``cork`` «Пробка»,
  ``clockwise`` «Кладка шаров по часовой стрелке», ``cue_run`` «Кладка шаров кием»,
  ``cue_vs_hand`` «Снимание шаров рукой»;
- the everyday pyramid games (``docs/rules/pyramid.md``): ``in_order`` «Кладка шаров по
  порядку номеров», ``free_pyramid`` Свободная («Американка»), ``combined_pyramid``
  Комбинированная («Московская»), ``dynamic_pyramid`` Динамичная («Невская»),
  ``classic_pyramid`` Классическая («71 очко»); their shared mechanics are in ``pyramid.py``.

- ``VARIANTS`` / ``get_variant(key)``: the games by key (``Game.variant``).
- ``replay(variant, settings, events)``: the state after the marker's events. An
  ``Event("undo")`` drops the last effective event (undo after undo drops the one before).
  An ``Event("dispute")`` marks the last effective event as being checked: no stroke is
  accepted until an ``Event("confirm")`` (it stands) or an undo (it goes); the state itself
  is unchanged by both (``disputed(events)``: the event being checked now, if any).
- ``replay_log(variant, settings, events)``: one ``LogStep`` per event, for the game's log.

Three players of «Пробка»: the first fouls (1 − 3 = −2; the bank doubles to 6), the second scores,
the marker undoes the score — the state is as after the foul alone:

>>> from games.rules import Event, get_variant, replay
>>> events = [Event("foul", fouls=("miss",)), Event("score"), Event("undo")]
>>> state = replay(get_variant("cork"), {"players": 3}, events)
>>> state.scores, state.bank, state.turn
((-2, 1, 1), 6, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from types import ModuleType
from typing import Any

from . import classic_pyramid
from . import clockwise
from . import combined_pyramid
from . import cork
from . import cue_run
from . import cue_vs_hand
from . import dynamic_pyramid
from . import free_pyramid
from . import in_order
from .base import ADVICE_CUE_ROLES
from .base import ADVICE_HEAD_START_BALLS
from .base import ADVICE_HEAD_START_POINTS
from .base import ADVICE_STROKES
from .base import CONFIRM
from .base import DISPUTE
from .base import META_KINDS
from .base import POCKET_LABELS
from .base import POCKETING
from .base import SEAT_CHOICES
from .base import UNDO
from .base import Action
from .base import Event
from .base import Message
from .base import Pocket
from .base import RatingFamily
from .base import Result
from .base import RuleViolation
from .base import SettingField
from .base import SettingsError
from .base import State
from .base import Variant
from .base import gettext_noop

__all__ = [
    "ADVICE_CUE_ROLES",
    "ADVICE_STROKES",
    "ADVICE_HEAD_START_BALLS",
    "ADVICE_HEAD_START_POINTS",
    "POCKETING",
    "POCKET_LABELS",
    "SEAT_CHOICES",
    "GAME_MODULES",
    "CONFIRM",
    "DISPUTE",
    "META_KINDS",
    "UNDO",
    "VARIANTS",
    "Action",
    "Event",
    "LogStep",
    "Message",
    "Pocket",
    "RatingFamily",
    "Result",
    "RuleViolation",
    "SettingField",
    "SettingsError",
    "State",
    "Variant",
    "get_variant",
    "gettext_noop",
    "check_meta",
    "disputed",
    "replay",
    "replay_log",
]

# The game modules, in the order the site lists the games. Each game's presentation is the
# module of the same name in games/presentation/ (games.presentation.PRESENTATIONS).
GAME_MODULES: tuple[ModuleType, ...] = (
    # the four traditional games of the Russian source (docs/rules/README.md)
    cork,
    clockwise,
    cue_run,
    cue_vs_hand,
    # the everyday pyramid games (docs/rules/pyramid.md)
    in_order,
    free_pyramid,
    combined_pyramid,
    dynamic_pyramid,
    classic_pyramid,
)

VARIANTS: dict[str, Variant] = {module.VARIANT.key: module.VARIANT for module in GAME_MODULES}


def get_variant(key: str) -> Variant:
    """The game with this key ("cork", "clockwise", "cue_run", "cue_vs_hand"); KeyError if none."""
    return VARIANTS[key]


def _settings(variant: Variant, settings: Any) -> Any:
    """Accepts a Settings object or the stored dict (which is validated here)."""
    if isinstance(settings, Mapping):
        return variant.settings_from_dict(settings)
    return settings


def _nothing_to_undo() -> RuleViolation:
    return RuleViolation("nothing_to_undo", Message(gettext_noop("There is nothing to undo.")))


def _refused(code: str, text: str) -> RuleViolation:
    return RuleViolation(code, Message(text))


def check_meta(kind: str, disputed: bool, strokes_in_force: int) -> None:
    """Raises the RuleViolation for an event of ``kind`` that the dispute's state refuses
    (``disputed``: a stroke is being checked; ``strokes_in_force``: how many could be undone)."""
    if kind == DISPUTE:
        if disputed:
            text = gettext_noop("This stroke is already being checked.")
            raise _refused("already_disputed", text)
        if not strokes_in_force:
            raise _refused("nothing_to_dispute", gettext_noop("There is no stroke to check yet."))
    elif kind == CONFIRM:
        if not disputed:
            raise _refused("not_disputed", gettext_noop("No stroke is being checked."))
    elif kind != UNDO and disputed:
        raise _refused(
            "disputed",
            gettext_noop(
                "The last stroke is being checked: confirm it or undo it before the next one."
            ),
        )


def replay(variant: Variant, settings: Any, events: Iterable[Event]) -> State:
    """The state after ``events``, starting from ``variant.initial_state(settings)``.

    Raises RuleViolation for the first event the rules reject (nothing is ever half-applied:
    states are immutable) and ``nothing_to_undo`` for an undo with no effective event left;
    a stroke while the last one is disputed is refused (``disputed``).
    """
    stack = [variant.initial_state(_settings(variant, settings))]
    apply = variant.apply
    disputed = False
    for event in events:
        check_meta(event.kind, disputed, len(stack) - 1)
        if event.kind == UNDO:
            if len(stack) == 1:
                raise _nothing_to_undo()
            stack.pop()
            disputed = False
        elif event.kind == DISPUTE:
            disputed = True
        elif event.kind == CONFIRM:
            disputed = False
        else:
            stack.append(apply(stack[-1], event))
    return stack[-1]


def disputed(variant: Variant, settings: Any, events: Iterable[Event]) -> int | None:
    """The 1-based number of the event being checked after ``events``, None if none."""
    log = replay_log(variant, settings, events)
    return log[-1].disputed if log else None


@dataclass(frozen=True)
class LogStep:
    """One recorded event with the states around it and its human-readable description.

    ``undone`` is True for an event that a later undo cancelled; an undo's own step has the
    state before and after the undo and says which event (1-based number) it cancelled.
    ``disputed``: the 1-based number of the event being checked after this step (a dispute
    and its confirmation leave the state as it was), None when none is.
    """

    event: Event
    before: State
    after: State
    description: Message
    undone: bool = False
    disputed: int | None = None


def replay_log(variant: Variant, settings: Any, events: Iterable[Event]) -> list[LogStep]:
    """One ``LogStep`` per input event, undo events included, in the order recorded."""
    initial = variant.initial_state(_settings(variant, settings))
    steps: list[LogStep] = []
    effective: list[int] = []  # indexes into ``steps`` of the events still in force
    state = initial
    disputed: int | None = None  # index into ``steps`` of the event being checked
    for event in events:
        check_meta(event.kind, disputed is not None, len(effective))
        if event.kind == UNDO:
            if not effective:
                raise _nothing_to_undo()
            cancelled = effective.pop()
            steps[cancelled] = replace(steps[cancelled], undone=True)
            after = steps[cancelled].before
            description = Message(
                gettext_noop("Undone: event %(number)s (%(what)s)"),
                {"number": cancelled + 1, "what": steps[cancelled].description},
            )
            disputed = None
            steps.append(LogStep(event, state, after, description))
            state = after
        elif event.kind in (DISPUTE, CONFIRM):
            checked = effective[-1] if event.kind == DISPUTE else disputed
            assert checked is not None  # (checked above)
            text = (
                gettext_noop("Disputed: event %(number)s (%(what)s) is being checked")
                if event.kind == DISPUTE
                else gettext_noop("Confirmed after a check: event %(number)s (%(what)s)")
            )
            description = Message(text, {"number": checked + 1, "what": steps[checked].description})
            disputed = checked if event.kind == DISPUTE else None
            steps.append(LogStep(event, state, state, description))
        else:
            after = variant.apply(state, event)
            steps.append(LogStep(event, state, after, variant.describe(state, event, after)))
            effective.append(len(steps) - 1)
            state = after
        if disputed is not None:
            steps[-1] = replace(steps[-1], disputed=disputed + 1)
    return steps
