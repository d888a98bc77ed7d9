"""«Снимание шаров рукой» — cue against hand (docs/rules/cue_vs_hand.md).

[source] (the source stops mid-sentence) All fifteen balls, whatever their numbers, are set up
as a pyramid. The participant who plays with the cue opens and breaks; he may first play the
cue ball off a cushion so that it stops behind the pyramid, and then break. A ball that drops
on the break is put back and the same player keeps the stroke.

Decisions (docs/rules/cue_vs_hand.md; listed in ``VARIANT.decisions`` and marked on the settings):
- Two participants: the cue player (the stronger) and the hand player (the weaker), who rolls
  the cue ball by hand instead of striking it with a cue. ``cue_seat`` says which seat plays
  with the cue (default: player 1).
- If nothing drops on the break, the turn passes to the hand player.
- After the break every ball pocketed counts 1 for whoever pocketed it; a player continues
  after a pot; a stroke without a pot passes the turn.
- Fouls (a miss, the cue ball pocketed, the cue ball off the table, touching a ball other
  than the hand player's own roll): the fouling player returns one of his pocketed balls to
  the table (if he has one) and the turn passes. Nothing pocketed in a foul stroke counts
  (those balls go back on the table). A foul on the break opens the game like a break and
  passes the turn; several fouls in one stroke are penalised once.
- The first to ``target`` balls (8) wins. The target is at most 8, more than half of the 15
  balls: balls on the table = 15 − both scores, so the game always ends before the table is
  empty and no draw is possible.

Events: ``position`` (before the break: the cue ball played off a cushion behind the
pyramid), ``stroke`` (nothing pocketed; on the break: nothing dropped), ``pot`` (after the
break: ``count`` balls pocketed, 1 if not given; on the break: balls dropped and put back),
``foul`` (one or more foul codes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .base import ADVICE_CUE_ROLES
from .base import POCKETING
from .base import SEAT_CHOICES
from .base import Action
from .base import Event
from .base import Message
from .base import Result
from .base import RuleViolation
from .base import SettingField
from .base import check_fouls
from .base import check_whole_numbers
from .base import count_fouls
from .base import evolve
from .base import expect_details
from .base import foul_tallies
from .base import game_over
from .base import game_variant
from .base import gettext_noop
from .base import join_messages
from .base import malformed
from .base import parse_settings
from .base import per_seat
from .base import player_ref
from .base import unknown_event

BALLS = 15

POSITION = "position"
STROKE = "stroke"
POT = "pot"
FOUL = "foul"

FOUL_LABELS: dict[str, Message] = {
    "miss": Message(gettext_noop("Miss")),
    "cue_ball_pocketed": Message(gettext_noop("Cue ball pocketed")),
    "cue_ball_off_table": Message(gettext_noop("Cue ball off the table")),
    "touched": Message(gettext_noop("A ball touched (other than the hand player's roll)")),
}
FOUL_CODES: tuple[str, ...] = tuple(FOUL_LABELS)

ROLE_LABELS: dict[str, Message] = {
    "cue": Message(gettext_noop("cue")),
    "hand": Message(gettext_noop("hand")),
}

SETTINGS_FIELDS: tuple[SettingField, ...] = (
    SettingField(
        name="target",
        label=Message(gettext_noop("Balls to win")),
        kind="int",
        default=8,
        help=Message(
            gettext_noop("The first to pocket this many balls wins (at most 8 of the 15).")
        ),
        min_value=1,
        max_value=8,
        decision=True,
    ),
    SettingField(
        name="cue_seat",
        label=Message(gettext_noop("Plays with the cue (the stronger player)")),
        kind="choice",
        default="0",
        help=Message(gettext_noop("The other player rolls the cue ball by hand.")),
        choices=SEAT_CHOICES,
        decision=True,
    ),
)

DECISIONS: tuple[Message, ...] = (
    Message(
        gettext_noop(
            "The source text breaks off after the break rule; the rest is modelled on the "
            "traditional cue-against-hand handicap game."
        )
    ),
    Message(
        gettext_noop(
            "The cue player is the stronger one; the hand player rolls the cue ball by hand "
            "instead of striking it with a cue."
        )
    ),
    Message(gettext_noop("If nothing drops on the break, the turn passes to the hand player.")),
    Message(
        gettext_noop(
            "After the break every ball pocketed counts 1 for whoever pocketed it; a player "
            "continues after a pot; a stroke without a pot passes the turn."
        )
    ),
    Message(
        gettext_noop(
            "After a foul the fouling player returns one of his pocketed balls to the table "
            "(if he has one) and the turn passes; balls pocketed in a foul stroke go back on "
            "the table. Several fouls in one stroke are penalised once. A foul on the break "
            "opens the game and passes the turn."
        )
    ),
    Message(
        gettext_noop(
            "The first to 8 balls wins (configurable up to 8, so the game always ends before "
            "the table is empty)."
        )
    ),
)


@dataclass(frozen=True)
class Settings:
    players: int = 2
    target: int = 8
    cue_seat: int = 0  # 0-based seat index of the cue player

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "target": self.target, "cue_seat": self.cue_seat}


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    """Validates the settings; ``cue_seat`` is a 0-based seat index (0 or 1)."""
    data = dict(data)
    if isinstance(data.get("cue_seat"), int) and not isinstance(data["cue_seat"], bool):
        data["cue_seat"] = str(data["cue_seat"])
    clean = parse_settings(SETTINGS_FIELDS, data, min_seats=2, max_seats=2)
    return Settings(clean["players"], clean["target"], int(clean["cue_seat"]))


@dataclass(frozen=True)
class State:
    settings: Settings
    seats: int
    turn: int
    scores: tuple[int, ...]  # balls per seat
    cue_seat: int
    hand_seat: int
    broken: bool = False
    balls_on_table: int = BALLS  # 15 − both scores
    foul_counts: tuple[tuple[int, ...], ...] = ()  # per seat, in FOUL_CODES order
    foul_strokes: tuple[int, ...] = (0, 0)
    finished: bool = False
    result: Result | None = None
    applied: int = 0

    def role(self, seat: int) -> str:
        return "cue" if seat == self.cue_seat else "hand"


def initial_state(settings: Settings) -> State:
    cue = settings.cue_seat
    return State(
        settings=settings,
        seats=2,
        turn=cue,
        scores=(0, 0),
        cue_seat=cue,
        hand_seat=1 - cue,
        foul_counts=((0,) * len(FOUL_CODES),) * 2,
    )


_BREAK_ACTIONS = (
    Action(
        POT, Message(gettext_noop("Break: a ball dropped (put back, the same player plays on)"))
    ),
    Action(STROKE, Message(gettext_noop("Break: nothing dropped (the hand player plays)"))),
    Action(FOUL, Message(gettext_noop("Foul on the break")), fouls=FOUL_CODES),
    Action(POSITION, Message(gettext_noop("Cue ball off a cushion behind the pyramid"))),
)
_ACTIONS_BY_BALLS = tuple(
    (
        Action(POT, Message(gettext_noop("Balls pocketed")), max_count=left),
        Action(STROKE, Message(gettext_noop("Nothing pocketed"))),
        Action(FOUL, Message(gettext_noop("Foul")), fouls=FOUL_CODES),
    )
    for left in range(BALLS + 1)
)


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.finished:
        return ()
    if not state.broken:
        return _BREAK_ACTIONS
    return _ACTIONS_BY_BALLS[state.balls_on_table]


def _state(
    state: State,
    *,
    turn: int,
    scores: tuple[int, ...] | None = None,
    foul_counts: tuple[tuple[int, ...], ...] | None = None,
    foul_strokes: tuple[int, ...] | None = None,
) -> State:
    """The next state after an event (the break is done by then, unless positioning)."""
    scores = state.scores if scores is None else scores
    winner = state.turn if scores[state.turn] >= state.settings.target else None
    return evolve(
        state,
        turn=turn,
        scores=scores,
        broken=True,
        balls_on_table=BALLS - scores[0] - scores[1],
        foul_counts=state.foul_counts if foul_counts is None else foul_counts,
        foul_strokes=state.foul_strokes if foul_strokes is None else foul_strokes,
        finished=winner is not None,
        result=Result((winner,), None, scores) if winner is not None else None,
        applied=state.applied + 1,
    )


def apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    kind = event.kind
    seat = state.turn
    other = 1 - seat
    if kind == POSITION:
        expect_details(event)
        if state.broken:
            raise RuleViolation(
                "already_broken",
                Message(gettext_noop("The pyramid is already broken.")),
            )
        return evolve(state, turn=seat, broken=False, applied=state.applied + 1)
    if kind == STROKE:
        expect_details(event)
        return _state(state, turn=other)
    if kind == POT:
        count = _pot_count(state, event)
        if not state.broken:  # the balls dropped on the break go back; he plays on
            return _state(state, turn=seat)
        scores = list(state.scores)
        scores[seat] += count
        return _state(state, turn=seat, scores=tuple(scores))
    if kind == FOUL:
        expect_details(event, fouls=True)
        check_fouls(event, FOUL_LABELS)
        scores = list(state.scores)
        scores[seat] = max(0, scores[seat] - 1)
        strokes = list(state.foul_strokes)
        strokes[seat] += 1
        return _state(
            state,
            turn=other,
            scores=tuple(scores),
            foul_counts=count_fouls(state.foul_counts, seat, FOUL_CODES, event.fouls),
            foul_strokes=tuple(strokes),
        )
    raise unknown_event(kind)


def _pot_count(state: State, event: Event) -> int:
    """The balls pocketed: ``count`` (1 if not given), at most the balls on the table."""
    check_whole_numbers(event)
    if event.fouls or event.ball is not None or event.pocket is not None:
        raise malformed(Message(gettext_noop("A pot takes only the number of balls.")))
    count = 1 if event.count is None else event.count
    if count < 1:
        raise malformed(Message(gettext_noop("The number of balls must be at least 1.")))
    if count > state.balls_on_table:
        raise RuleViolation(
            "not_enough_balls",
            Message(
                gettext_noop("Only %(balls)s balls are on the table."),
                {"balls": state.balls_on_table},
            ),
        )
    return count


# --- descriptions and statistics ----------------------------------------------------------


def _who(state: State, seat: int) -> Message:
    return Message(
        gettext_noop("%(seat)s (%(role)s)"),
        {"seat": player_ref(seat), "role": ROLE_LABELS[state.role(seat)]},
    )


def describe(before: State, event: Event, after: State) -> Message:
    seat = before.turn
    params: dict[str, Any] = {
        "who": _who(before, seat),
        "next": _who(before, after.turn),
        "balls": after.scores[seat],
        "left": after.balls_on_table,
    }
    kind = event.kind
    if kind == POSITION:
        return Message(gettext_noop("%(who)s: cue ball off a cushion behind the pyramid"), params)
    if kind == FOUL:
        params["fouls"] = join_messages([FOUL_LABELS[c] for c in event.fouls], ", ")
        if not before.broken:
            text = gettext_noop("%(who)s: foul on the break (%(fouls)s); %(next)s to play")
        elif before.scores[seat]:
            text = gettext_noop(
                "%(who)s: foul (%(fouls)s), returns a ball: %(balls)s; %(next)s to play"
            )
        else:
            text = gettext_noop("%(who)s: foul (%(fouls)s), no ball to return; %(next)s to play")
        return Message(text, params)
    if not before.broken:
        if kind == POT:
            return Message(
                gettext_noop("%(who)s: break, a ball dropped and is put back; plays on"),
                params,
            )
        return Message(gettext_noop("%(who)s: break, nothing dropped; %(next)s to play"), params)
    if kind == POT:
        params["count"] = after.scores[seat] - before.scores[seat]
        if after.finished:
            return Message(
                gettext_noop("%(who)s: +%(count)s, balls: %(balls)s — wins the game"), params
            )
        return Message(
            gettext_noop("%(who)s: +%(count)s, balls: %(balls)s (on the table: %(left)s)"),
            params,
        )
    return Message(gettext_noop("%(who)s: nothing pocketed; %(next)s to play"), params)


def seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return per_seat(
        state.seats,
        role=tuple(map(state.role, range(state.seats))),
        balls=state.scores,
        fouls=foul_tallies(FOUL_CODES, state.foul_counts),
        fouls_total=state.foul_strokes,
    )


VARIANT = game_variant(
    globals(),
    key="cue_vs_hand",
    handicap_advice=ADVICE_CUE_ROLES,
    name=Message(gettext_noop("Cue against hand")),
    min_seats=2,
    max_seats=2,
    decisions=DECISIONS,
    always_handicap=True,  # one plays with the cue, the other by hand
    rating_family=POCKETING,
    source_title="«Снимание шаров рукой»",
    source_points=(
        Message(
            gettext_noop(
                "All the balls, whatever their numbers, are set up as a pyramid. One "
                "participant plays with the cue, the other with his hand."
            )
        ),
        Message(
            gettext_noop(
                "The one who plays with the cue opens and breaks the pyramid; he may first play "
                "the cue ball off a cushion so that it stops behind the pyramid, and then break."
            )
        ),
        Message(
            gettext_noop(
                "If a ball drops on the break, the same player keeps the stroke and the ball "
                "is put back."
            )
        ),
        Message(gettext_noop("Here the source text breaks off mid-sentence.")),
    ),
    fouls_from_source=False,
)
