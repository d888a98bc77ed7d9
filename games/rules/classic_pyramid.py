"""Классическая пирамида («Русская», «71 очко») — docs/rules/pyramid.md.

[rule] Only the coloured ball is the cue ball. Before each stroke the player calls a ball and
a pocket; the marker records them with the stroke. A ball scores its number, the ace (ball 1)
11, and the last object ball on the table 10 more (140 in all). When the called ball drops
into the called pocket, every ball that fell on that stroke counts. The first to 71 wins
(``target``: 51 is played too); with the table cleared at 70 : 70 the frame is drawn.
Pocketing the cue ball or knocking it off the table is a foul, and the opponent plays from
hand from дом; a foul costs 5 points (``foul_penalty``).

Decisions (listed in ``VARIANT.decisions`` or marked on the settings):
- A ball that drops without being called, or the called ball into another pocket, is spotted
  and scores nothing; the turn passes unless the called ball dropped as called (the marker
  records such a stroke as "nothing pocketed").
- The penalty is taken from the offender's score, which may go below zero
  (``penalty_to="offender"``); ``"opponent"`` gives it to the opponent instead, who may win
  by it.
- The last-ball bonus goes to the stroke that clears the table (once, whatever number of
  balls fell on it).
- The table cleared before anyone reached the target (fouls cost points): the higher score
  wins, equal scores are a draw.
- The handicap: the weaker starts with ``head_start`` points; the stronger's first
  ``returned_pots`` balls pocketed are spotted back. When a stroke pockets more balls than are
  still to go back, the marker names those spotted (``returned``); if he does not, the called
  ball goes back first, then the others in number order.

Events: ``pot`` (ball: the called ball, pocket: the called pocket, extra_balls: the other
balls that fell with it, returned: those of them the handicap puts back, optional),
``stroke`` (nothing pocketed as called; ball and pocket: the call, when the marker gave it),
``foul`` (fouls; extra_balls: the balls pocketed on it, spotted, when the marker gave them).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .base import ADVICE_HEAD_START_POINTS
from .base import MAY
from .base import Action
from .base import Event
from .base import Message
from .base import Pocket
from .base import Result
from .base import RuleViolation
from .base import SettingField
from .base import SettingsError
from .base import check_fouls
from .base import evolve
from .base import expect_details
from .base import game_over
from .base import game_variant
from .base import gettext_noop
from .base import join_messages
from .base import malformed
from .base import player_ref
from .base import unknown_event
from .pyramid import COMMON_FOULS
from .pyramid import CUE_BALL_POCKETED
from .pyramid import HANDICAP_DECISION
from .pyramid import HANDICAP_SOURCE
from .pyramid import PYRAMID
from .pyramid import SPOTTED_DECISION
from .pyramid import WINNING_FOUL_DECISION
from .pyramid import HandicapSettings
from .pyramid import PointsState
from .pyramid import add_to_shelf
from .pyramid import after_foul
from .pyramid import best_runs
from .pyramid import bump
from .pyramid import handicap_fields
from .pyramid import in_hand_after_foul
from .pyramid import parse_pyramid_settings
from .pyramid import points_seat_stats
from .pyramid import split_returned
from .pyramid import table_cleared_result
from .pyramid import with_ending
from .pyramid import with_spotted

BALLS: tuple[int, ...] = tuple(range(1, 16))
ACE = 1
ACE_POINTS = 11
LAST_BALL_BONUS = 10
TOTAL_POINTS = sum(BALLS) - ACE + ACE_POINTS + LAST_BALL_BONUS  # 140

POT = "pot"
STROKE = "stroke"
FOUL = "foul"

OFFENDER = "offender"
OPPONENT = "opponent"

FOUL_LABELS: dict[str, Message] = {
    **COMMON_FOULS,
    CUE_BALL_POCKETED: Message(gettext_noop("Cue ball pocketed")),
}

SETTINGS_FIELDS: tuple[SettingField, ...] = (
    SettingField(
        name="target",
        label=Message(gettext_noop("Points to win")),
        kind="int",
        default=71,
        help=Message(gettext_noop("71 (of 140) is the classic game; 51 is played too.")),
        min_value=11,
        max_value=TOTAL_POINTS,
    ),
    SettingField(
        name="foul_penalty",
        label=Message(gettext_noop("Foul penalty (points)")),
        kind="int",
        default=5,
        min_value=0,
        max_value=30,
    ),
    SettingField(
        name="penalty_to",
        label=Message(gettext_noop("Foul penalty applies to")),
        kind="choice",
        default=OFFENDER,
        help=Message(
            gettext_noop(
                "Taken from the offender's score (which may go below zero), or given to the "
                "opponent."
            )
        ),
        choices=(
            (OFFENDER, Message(gettext_noop("taken from the offender"))),
            (OPPONENT, Message(gettext_noop("given to the opponent"))),
        ),
        decision=True,
    ),
    *handicap_fields(TOTAL_POINTS // 2, "points"),
)


def value(ball: int) -> int:
    """What a ball scores: its number, the ace 11."""
    return ACE_POINTS if ball == ACE else ball


@dataclass(frozen=True)
class Settings(HandicapSettings):
    players: int = 2
    target: int = 71
    foul_penalty: int = 5
    penalty_to: str = OFFENDER
    weaker_seat: int = 1
    head_start: int = 0
    returned_pots: int = 0


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    settings = Settings(**parse_pyramid_settings(SETTINGS_FIELDS, data))
    if settings.head_start >= settings.target:
        raise SettingsError(
            {"head_start": Message(gettext_noop("The head start must be below the target."))}
        )
    return settings


@dataclass(frozen=True)
class State(PointsState):
    settings: Settings
    table: tuple[int, ...] = BALLS  # the balls on the table, in number order
    shelves: tuple[tuple[int, ...], ...] = ((), ())  # the balls each player pocketed
    in_hand: str = "home"  # the break; then "" or "home" after a foul that lost the cue ball
    penalties: tuple[int, ...] = (0, 0)  # points the player's fouls cost

    @property
    def target(self) -> int:
        return self.settings.target

    @property
    def points_on_table(self) -> int:
        """What is still to be scored: the balls' values and the last-ball bonus."""
        return sum(value(b) for b in self.table) + (LAST_BALL_BONUS if self.table else 0)


def initial_state(settings: Settings) -> State:
    return State.start(settings)


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.finished:
        return ()
    stronger = state.settings.handicap.stronger_seat
    return (
        Action(
            POT,
            Message(gettext_noop("Called ball pocketed as called")),
            balls=state.table,
            pockets=tuple(Pocket),
            extra_balls=state.table,
            returns=state.to_return if state.turn == stronger else 0,
        ),
        # the call, when the marker gave it, stays in the log
        Action(
            STROKE,
            Message(gettext_noop("Nothing pocketed as called")),
            balls=state.table,
            pockets=tuple(Pocket),
            optional=("ball", "pocket"),
        ),
        Action(
            FOUL, Message(gettext_noop("Foul")), fouls=tuple(FOUL_LABELS), extra_balls=state.table
        ),
    )


@dataclass(frozen=True)
class Stroke:
    """What a pot would score for the player at the table (the console shows it first)."""

    fallen: tuple[int, ...]  # the called ball, then the others in number order
    returned: tuple[int, ...]  # spotted back (the stronger's handicap)
    kept: tuple[int, ...]  # onto the shelf
    bonus: int  # the last-ball bonus
    points: int


def stroke_points(
    state: State, ball: int, extra_balls: Iterable[int] = (), returned: Iterable[int] = ()
) -> Stroke:
    """The points of pocketing the called ``ball`` with ``extra_balls`` (assumed on the
    table), the handicap putting back ``returned`` (as the marker named them) or else the
    called ball first, then the others in number order; ``apply`` checks them first."""
    fallen = (ball, *sorted(set(extra_balls) - {ball}))
    count = split_returned(
        state.to_return, state.turn, state.settings.handicap.stronger_seat, len(fallen)
    )
    back = tuple(b for b in fallen if b in set(returned)) if returned else fallen[:count]
    kept = tuple(b for b in fallen if b not in back)
    clears = bool(kept) and len(kept) == len(state.table)
    bonus = LAST_BALL_BONUS if clears else 0
    return Stroke(fallen, back, kept, bonus, sum(value(b) for b in kept) + bonus)


def _check_ball(state: State, ball: Any) -> int:
    if isinstance(ball, bool) or not isinstance(ball, int):
        raise malformed(Message(gettext_noop("A ball is a whole number from 1 to 15.")))
    if ball not in state.table:
        raise RuleViolation(
            "ball_not_on_table",
            Message(
                gettext_noop("Ball %(ball)s is not on the table: it is already down.")
                if ball in BALLS
                else gettext_noop("There is no ball %(ball)s: the balls are numbered 1 to 15."),
                {"ball": ball},
            ),
        )
    return ball


def _check_pocket(event: Event) -> None:
    if not isinstance(event.pocket, Pocket):
        raise malformed(Message(gettext_noop("Unknown pocket.")))


def _check_listed_once(balls: tuple[int, ...]) -> None:
    if len(set(balls)) != len(balls):
        raise malformed(Message(gettext_noop("A ball is listed more than once.")))


def _check_returned(state: State, event: Event) -> None:
    """The balls the marker names as put back by the handicap: balls that fell on this
    stroke, each once, as many as the handicap puts back."""
    if not event.returned:
        return
    fallen = (event.ball, *event.extra_balls)
    back = split_returned(
        state.to_return, state.turn, state.settings.handicap.stronger_seat, len(fallen)
    )
    if back == 0:
        raise RuleViolation(
            "nothing_returned",
            Message(gettext_noop("No ball goes back on this stroke: the handicap does not apply.")),
        )
    for ball in event.returned:
        if ball not in fallen:
            raise malformed(
                Message(
                    gettext_noop("Ball %(ball)s did not fall on this stroke: it cannot go back."),
                    {"ball": ball},
                )
            )
    _check_listed_once(event.returned)
    if len(event.returned) != back:
        raise RuleViolation(
            "returned_count",
            Message(
                gettext_noop("Of the balls that fell, the handicap puts back: %(count)s."),
                {"count": back},
            ),
        )


def apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    kind = event.kind
    seat = state.turn
    if kind == POT:
        expect_details(event, ball=True, pocket=True, extra_balls=True, returned=True)
        _check_pocket(event)
        called = _check_ball(state, event.ball)
        for ball in event.extra_balls:
            if _check_ball(state, ball) == called:
                raise malformed(
                    Message(
                        gettext_noop("Ball %(ball)s is the called ball; list only the others."),
                        {"ball": ball},
                    )
                )
        _check_listed_once(event.extra_balls)
        _check_returned(state, event)
        stroke = stroke_points(state, called, event.extra_balls, event.returned)
        scores = bump(state.scores, seat, stroke.points)
        table = tuple(b for b in state.table if b not in stroke.kept)
        run = state.run + len(stroke.fallen)
        if scores[seat] >= state.settings.target:
            result: Result | None = Result((seat,), None, scores)
        elif not table:
            result = table_cleared_result(scores)
        else:
            result = None
        shelves = add_to_shelf(state.shelves, seat, stroke.kept)
        return evolve(
            state,
            applied=state.applied + 1,
            scores=scores,
            table=table,
            shelves=shelves,
            to_return=state.to_return - len(stroke.returned),
            in_hand="",
            run=run,
            best_run=best_runs(state.best_run, seat, run),
            finished=result is not None,
            result=result,
        )
    if kind == STROKE:
        expect_details(event, ball=MAY, pocket=MAY)  # the call, when the marker gave it
        if event.pocket is not None:
            _check_pocket(event)
        if event.ball is not None:
            _check_ball(state, event.ball)
        return evolve(state, applied=state.applied + 1, turn=1 - seat, run=0, in_hand="")
    if kind == FOUL:
        expect_details(event, fouls=True, extra_balls=True)  # the balls that fell: spotted
        check_fouls(event, FOUL_LABELS)
        for ball in event.extra_balls:
            _check_ball(state, ball)
        _check_listed_once(event.extra_balls)
        penalty = state.settings.foul_penalty
        to_opponent = state.settings.penalty_to == OPPONENT
        other = 1 - seat
        scores = (
            bump(state.scores, other, penalty)
            if to_opponent
            else bump(state.scores, seat, -penalty)
        )
        won = to_opponent and scores[other] >= state.settings.target
        return evolve(
            state,
            applied=state.applied + 1,
            turn=other,
            run=0,
            scores=scores,
            fouls=bump(state.fouls, seat, 1),
            penalties=bump(state.penalties, seat, penalty),
            in_hand=in_hand_after_foul(event, True),
            finished=won,
            result=Result((other,), None, scores) if won else None,
        )
    raise unknown_event(kind)


# --- texts -----------------------------------------------------------------------------------


def describe(before: State, event: Event, after: State) -> Message:
    seat = before.turn
    other = 1 - seat
    params: dict[str, Any] = {
        "seat": player_ref(seat),
        "other": player_ref(other),
        "score": after.scores[seat],
    }
    if event.kind == POT:
        assert event.pocket is not None and event.ball is not None
        stroke = stroke_points(before, event.ball, event.extra_balls, event.returned)
        params.update(
            ball=event.ball,
            pocket=event.pocket.label,
            points=stroke.points,
            balls=", ".join(str(b) for b in stroke.fallen),
        )
        parts = [
            Message(
                gettext_noop(
                    "%(seat)s: ball %(ball)s called into the %(pocket)s; balls "
                    "%(balls)s: +%(points)s = %(score)s"
                ),
                params,
            )
        ]
        if stroke.bonus:
            parts.append(Message(gettext_noop("last ball +%(bonus)s"), {"bonus": stroke.bonus}))
        if stroke.returned:
            parts.append(
                Message(
                    gettext_noop("returned to the table (handicap): %(balls)s"),
                    {"balls": ", ".join(str(b) for b in stroke.returned)},
                )
            )
        return with_ending(join_messages(parts, "; "), after)
    if event.kind == STROKE:
        if event.ball is not None or event.pocket is not None:
            params["call"] = _call(event)
            return Message(
                gettext_noop("%(seat)s: %(call)s — not pocketed as called; %(other)s to play"),
                params,
            )
        return Message(
            gettext_noop("%(seat)s: nothing pocketed as called; %(other)s to play"),
            params,
        )
    params["fouls"] = join_messages([FOUL_LABELS[c] for c in event.fouls], ", ")
    params["penalty"] = before.settings.foul_penalty
    if before.settings.penalty_to == OPPONENT:
        params["opponent_score"] = after.scores[other]
        text = Message(
            gettext_noop(
                "%(seat)s: foul (%(fouls)s) — +%(penalty)s to %(other)s = %(opponent_score)s"
            ),
            params,
        )
    else:
        text = Message(
            gettext_noop("%(seat)s: foul (%(fouls)s) — −%(penalty)s = %(score)s"), params
        )
    return after_foul(with_spotted(text, event.extra_balls), after)


def _call(event: Event) -> Message:
    """What the player called: the ball, the pocket, or both."""
    if event.ball is not None and event.pocket is not None:
        return Message(
            gettext_noop("ball %(ball)s called into the %(pocket)s"),
            {"ball": event.ball, "pocket": event.pocket.label},
        )
    if event.ball is not None:
        return Message(gettext_noop("ball %(ball)s called"), {"ball": event.ball})
    assert event.pocket is not None
    return Message(gettext_noop("called into the %(pocket)s"), {"pocket": event.pocket.label})


def seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return points_seat_stats(state, state.shelves, penalty_points=state.penalties)


VARIANT = game_variant(
    globals(),
    key="pyramid_classic",
    handicap_advice=ADVICE_HEAD_START_POINTS,
    name=Message(gettext_noop("Classic pyramid («71 points»)")),
    decisions=(
        Message(
            gettext_noop(
                "A ball that drops without being called, or the called ball into another "
                "pocket, is spotted and scores nothing; the turn passes unless the called ball "
                "dropped as called."
            )
        ),
        Message(
            gettext_noop(
                "The last-ball bonus (+10) goes to the stroke that clears the table, once."
            )
        ),
        Message(
            gettext_noop(
                "If the table is cleared before anyone reaches the target (fouls cost points), "
                "the higher score wins and equal scores are a draw, as at 70 : 70."
            )
        ),
        Message(
            gettext_noop(
                "A stroke that pocketed nothing as called keeps the call (ball, pocket or "
                "both) in the log when the marker gives it."
            )
        ),
        HANDICAP_DECISION,
        WINNING_FOUL_DECISION,
        SPOTTED_DECISION,
    ),
    rating_family=PYRAMID,
    source_title="«Классическая пирамида» («71 очко»)",
    source_points=(
        Message(
            gettext_noop(
                "Only the coloured ball is the cue ball. Before each stroke the player calls a "
                "ball and a pocket."
            )
        ),
        Message(
            gettext_noop(
                "A ball scores its number, the ace (ball 1) 11, and the last ball on the table "
                "10 more: 140 in all. When the called ball drops as called, every ball that "
                "fell counts."
            )
        ),
        Message(
            gettext_noop(
                "The first to 71 wins (51 is played too); the table cleared at 70 : 70 is a "
                "draw. Pocketing the cue ball or knocking it off the table is a foul costing 5 "
                "points, and the opponent plays from hand from home."
            )
        ),
        HANDICAP_SOURCE,
    ),
    fouls_from_source=True,
)
