"""«Кладка шаров по порядку номеров» — balls in the order of their numbers, any pocket
(docs/rules/pyramid.md: the clockwise game of docs/rules/clockwise.md without the
pocket order).

The ball "on" is always the lowest-numbered ball on the table and may go into any pocket; it
scores its number (``points_per_ball="number"``, 120 in all, 61 wins) or one point (``"one"``,
8 win) [decision, as §2]. A player continues after a legal pot; any other stroke passes the
turn. Fouls (as §2: a miss, the cue ball pocketed or off the table, a ball touched, another
ball hit before the ball on), and those every pyramid game has (a double hit or push, no foot
on the floor, playing before the balls stopped or out of turn), cost the value of the ball on
or a fixed number of points (``foul_penalty``), and scores may go below zero.

Decisions (listed in ``VARIANT.decisions``):
- No pocket is designated, so the break is an ordinary stroke: ball 1 dropping on it counts.
- Only the ball on is recorded; other balls that drop with it go back on the table.
- The table cleared before anyone reached the target: the higher score wins, equal scores
  draw.
- The handicap: the weaker starts with ``head_start`` points (balls carry their numbers, so
  the head start is in points); the stronger's first ``returned_pots`` balls are spotted back
  (he plays on and plays the same ball again).

Events: ``pot`` (ball: the ball on), ``stroke`` (nothing pocketed), ``foul`` (fouls;
extra_balls: the balls pocketed on it, spotted, when the marker gave them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .base import ADVICE_HEAD_START_POINTS
from .base import POCKETING
from .base import Action
from .base import Event
from .base import Message
from .base import Result
from .base import RuleViolation
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
from .clockwise import BALLS
from .clockwise import FOUL_LABELS as CLOCKWISE_FOULS
from .clockwise import SETTINGS_FIELDS as CLOCKWISE_FIELDS
from .clockwise import BallValues
from .clockwise import check_ball_on
from .pyramid import COMMON_FOULS
from .pyramid import HANDICAP_DECISION
from .pyramid import SPOTTED_DECISION
from .pyramid import HandicapSettings
from .pyramid import PointsState
from .pyramid import add_to_shelf
from .pyramid import best_runs
from .pyramid import bump
from .pyramid import handicap_fields
from .pyramid import parse_pyramid_settings
from .pyramid import points_seat_stats
from .pyramid import split_returned
from .pyramid import table_cleared_result
from .pyramid import with_ending
from .pyramid import with_spotted

POT = "pot"
STROKE = "stroke"
FOUL = "foul"

# The clockwise game's five fouls, then those every pyramid game has that it lacks (a double
# hit, no foot on the floor, balls still moving, out of turn).
FOUL_LABELS = {
    **CLOCKWISE_FOULS,
    **{code: label for code, label in COMMON_FOULS.items() if code not in CLOCKWISE_FOULS},
}

# points_per_ball, foul_penalty and foul_penalty_points: the clockwise game's own settings.
SETTINGS_FIELDS = (
    *(f for f in CLOCKWISE_FIELDS if f.name != "breaker_continues"),
    *handicap_fields(sum(BALLS) // 2, "points"),
)


@dataclass(frozen=True)
class Settings(BallValues, HandicapSettings):
    players: int = 2
    points_per_ball: str = "number"
    foul_penalty: str = "ball_on"
    foul_penalty_points: int = 1
    weaker_seat: int = 1
    head_start: int = 0
    returned_pots: int = 0

    @property
    def target(self) -> int:
        return self.winning_points


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    settings = Settings(**parse_pyramid_settings(SETTINGS_FIELDS, data))
    if settings.head_start >= settings.winning_points:
        raise SettingsError(
            {
                "head_start": Message(
                    gettext_noop("The head start must be below the %(target)s points that win."),
                    {"target": settings.winning_points},
                )
            }
        )
    return settings


@dataclass(frozen=True)
class State(PointsState):
    settings: Settings
    balls_left: tuple[int, ...] = BALLS
    pocketed: tuple[tuple[int, ...], ...] = ((), ())

    @property
    def target(self) -> int:
        return self.settings.winning_points

    @property
    def ball_on(self) -> int | None:
        return None if self.finished or not self.balls_left else self.balls_left[0]


def initial_state(settings: Settings) -> State:
    return State.start(settings)


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.finished:
        return ()
    on = state.balls_left[0]
    return (
        Action(POT, Message(gettext_noop("Ball %(ball)s pocketed"), {"ball": on}), balls=(on,)),
        Action(STROKE, Message(gettext_noop("Nothing pocketed"))),
        Action(
            FOUL,
            Message(gettext_noop("Foul")),
            fouls=tuple(FOUL_LABELS),
            extra_balls=state.balls_left,  # the balls pocketed on it, spotted (optional)
        ),
    )


def apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    seat = state.turn
    kind = event.kind
    if kind == POT:
        expect_details(event, ball=True)
        return _pot(state, event.ball)
    if kind == STROKE:
        expect_details(event)
        return evolve(state, applied=state.applied + 1, turn=1 - seat, run=0)
    if kind == FOUL:
        expect_details(event, fouls=True, extra_balls=True)
        check_fouls(event, FOUL_LABELS)
        for ball in event.extra_balls:
            _check_on_table(state, ball)
        if len(set(event.extra_balls)) != len(event.extra_balls):
            raise malformed(Message(gettext_noop("A ball is listed more than once.")))
        penalty = state.settings.penalty(state.balls_left[0])
        return evolve(
            state,
            applied=state.applied + 1,
            turn=1 - seat,
            run=0,
            scores=bump(state.scores, seat, -penalty),
            fouls=bump(state.fouls, seat, 1),
        )
    raise unknown_event(kind)


def _check_on_table(state: State, ball: Any) -> None:
    """A ball that fell on a foul: a ball still on the table."""
    if isinstance(ball, bool) or not isinstance(ball, int):
        raise malformed(Message(gettext_noop("A ball is a whole number from 1 to 15.")))
    if ball not in state.balls_left:
        raise RuleViolation(
            "ball_not_on_table",
            Message(
                gettext_noop("Ball %(ball)s is not on the table: it is already down.")
                if 1 <= ball <= 15
                else gettext_noop("There is no ball %(ball)s: the balls are numbered 1 to 15."),
                {"ball": ball},
            ),
        )


def _pot(state: State, ball: Any) -> State:
    if isinstance(ball, bool) or not isinstance(ball, int):
        raise malformed(Message(gettext_noop("A ball is a whole number from 1 to 15.")))
    check_ball_on(state.balls_left, ball)
    seat = state.turn
    run = state.run + 1
    changes: dict[str, Any] = {"run": run, "best_run": best_runs(state.best_run, seat, run)}
    if split_returned(state.to_return, seat, state.settings.handicap.stronger_seat, 1):
        return evolve(state, applied=state.applied + 1, to_return=state.to_return - 1, **changes)
    scores = bump(state.scores, seat, state.settings.value(ball))
    balls_left = state.balls_left[1:]
    result = None
    if scores[seat] >= state.settings.winning_points:
        result = Result((seat,), None, scores)
    elif not balls_left:
        result = table_cleared_result(scores)
    return evolve(
        state,
        applied=state.applied + 1,
        scores=scores,
        balls_left=balls_left,
        pocketed=add_to_shelf(state.pocketed, seat, (ball,)),
        finished=result is not None,
        result=result,
        **changes,
    )


def describe(before: State, event: Event, after: State) -> Message:
    seat = before.turn
    params: dict[str, Any] = {
        "seat": player_ref(seat),
        "other": player_ref(1 - seat),
        "ball": event.ball,
        "score": after.scores[seat],
    }
    if event.kind == POT:
        if after.to_return < before.to_return:
            return Message(
                gettext_noop(
                    "%(seat)s: ball %(ball)s pocketed and returned to the table "
                    "(handicap); plays on"
                ),
                params,
            )
        params["points"] = after.scores[seat] - before.scores[seat]
        return with_ending(
            Message(gettext_noop("%(seat)s: ball %(ball)s, +%(points)s = %(score)s"), params),
            after,
        )
    if event.kind == STROKE:
        return Message(gettext_noop("%(seat)s: nothing pocketed; %(other)s to play"), params)
    params["fouls"] = join_messages([FOUL_LABELS[c] for c in event.fouls], ", ")
    params["penalty"] = before.scores[seat] - after.scores[seat]
    text = Message(gettext_noop("%(seat)s: foul (%(fouls)s) — −%(penalty)s = %(score)s"), params)
    return with_spotted(text, event.extra_balls)


def seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return points_seat_stats(state, state.pocketed)


VARIANT = game_variant(
    globals(),
    key="in_order",
    handicap_advice=ADVICE_HEAD_START_POINTS,
    name=Message(gettext_noop("Balls in order of their numbers")),
    decisions=(
        Message(
            gettext_noop(
                "No pocket is designated, so the break is an ordinary stroke: ball 1 dropping "
                "on it counts."
            )
        ),
        Message(
            gettext_noop(
                "Only the ball on is recorded; other balls that drop with it go back on the table."
            )
        ),
        Message(
            gettext_noop(
                "If the table is cleared before anyone reaches the target, the higher score "
                "wins and equal scores are a draw."
            )
        ),
        Message(
            gettext_noop(
                "Handicap: the weaker player's head start is in points; a returned pot of the "
                "stronger is spotted and he plays the same ball again."
            )
        ),
        Message(
            gettext_noop(
                "Fouls: the clockwise game's five, and those every pyramid game has (a double "
                "hit or push, no foot on the floor, playing before the balls stop or out of "
                "turn), each costing the same penalty."
            )
        ),
        HANDICAP_DECISION,
        SPOTTED_DECISION,
    ),
    rating_family=POCKETING,
    source_title="«Кладка шаров по порядку номеров»",
    source_points=(
        Message(
            gettext_noop(
                "The source defines «Кладка шаров по часовой стрелке» as this game plus fixed "
                "pockets: here the balls are pocketed strictly in the order of their numbers, "
                "into any pocket."
            )
        ),
        Message(
            gettext_noop(
                "The source also names «Игра от бортов» but gives no rules for it, so that "
                "game is left out."
            )
        ),
    ),
)
