"""«Кладка шаров по часовой стрелке» («по солнцу») — balls in order, clockwise pockets
(docs/rules/clockwise.md).

[source] Two players alternate; fifteen numbered balls and the cue ball. The ball "on" is
always the lowest-numbered ball on the table. After the first player's first stroke (the
break) the opponent nominates the pocket for ball 1; each next ball goes into the next pocket
clockwise, so 1-7-13, 2-8-14, 3-9-15, 4-10, 5-11 and 6-12 share a pocket. A ball pocketed into
another pocket does not count and is put back on the table. An order error found late: every
ball pocketed so far counts, and the order continues clockwise from the pocket the last
pocketed ball really went into.

Decisions (the source defers to «по порядку номеров», which it does not contain):
- Scoring: a legal pot scores the ball's number (``points_per_ball="number"``, 120 in all) or
  1 (``"one"``, 15 in all); the first player to more than half (61, or 8 balls) wins; if the
  table is cleared first, the higher score wins and equal scores are a (normal) draw.
- A player continues after a legal pot; any other stroke passes the turn.
- Fouls: a miss, the cue ball pocketed, the cue ball off the table, touching a ball, hitting
  a ball other than the one on first. Penalty (``foul_penalty``): the value of the ball on
  (its number, or 1 with ``points_per_ball="one"``), or a fixed ``foul_penalty_points``;
  the turn passes; nothing pocketed in a foul stroke counts (balls go back). Scores may go
  below zero. Several fouls in one stroke are penalised once.
- The break scores nothing: a ball that drops on the break goes back on the table, since no
  pocket is designated yet. A foul on the break is penalised like any foul (ball 1 is on).
- After the break the opponent (player 2) nominates the pocket for ball 1, then plays
  (``breaker_continues=False``: the turn passes, as after any stroke without a legal pot);
  with ``breaker_continues=True`` the breaker plays ball 1 into the pocket chosen for him.
  After a foul on the break the turn always passes.
- The pot event names the ball on and the pocket it went into; the marker sends only the
  ball on (other balls that drop with it go back on the table and are not recorded).
- "Order error found" re-anchors the order on the last legally pocketed ball: the marker
  names the pocket it really went into (any pocket but the recorded one); scores and the
  turn are unchanged.

Events: ``break``, ``nominate`` (pocket), ``pot`` (ball, pocket), ``stroke`` (nothing
pocketed, no foul), ``foul`` (fouls), ``order_error`` (pocket).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .base import POCKETING
from .base import Action
from .base import Event
from .base import Message
from .base import Pocket
from .base import Result
from .base import RuleViolation
from .base import SettingField
from .base import bump
from .base import check_fouls
from .base import ending
from .base import evolve
from .base import expect_details
from .base import game_over
from .base import game_variant
from .base import gettext_noop
from .base import join_messages
from .base import malformed
from .base import parse_settings
from .base import per_seat
from .base import player_ref
from .base import unknown_event

BALLS: tuple[int, ...] = tuple(range(1, 16))
POCKETS: tuple[Pocket, ...] = tuple(Pocket)

BREAK = "break"
NOMINATE = "nominate"
POT = "pot"
STROKE = "stroke"
FOUL = "foul"
ORDER_ERROR = "order_error"

FOUL_LABELS: dict[str, Message] = {
    "miss": Message(gettext_noop("Miss")),
    "cue_ball_pocketed": Message(gettext_noop("Cue ball pocketed")),
    "cue_ball_off_table": Message(gettext_noop("Cue ball off the table")),
    "touched": Message(gettext_noop("A ball touched by hand, clothing or cue")),
    "wrong_ball_first": Message(gettext_noop("Another ball hit before the ball on")),
}
FOUL_CODES: tuple[str, ...] = tuple(FOUL_LABELS)

SETTINGS_FIELDS: tuple[SettingField, ...] = (
    SettingField(
        name="points_per_ball",
        label=Message(gettext_noop("Points per ball")),
        kind="choice",
        default="number",
        help=Message(
            gettext_noop(
                "The ball's number (120 in all; 61 wins) or one point a ball (8 balls win)."
            )
        ),
        choices=(
            ("number", Message(gettext_noop("the ball's number"))),
            ("one", Message(gettext_noop("one point"))),
        ),
        decision=True,
    ),
    SettingField(
        name="foul_penalty",
        label=Message(gettext_noop("Foul penalty")),
        kind="choice",
        default="ball_on",
        help=Message(
            gettext_noop("Points a foul costs: the value of the ball on, or a fixed number.")
        ),
        choices=(
            ("ball_on", Message(gettext_noop("the value of the ball on"))),
            ("fixed", Message(gettext_noop("a fixed number of points"))),
        ),
        decision=True,
    ),
    SettingField(
        name="foul_penalty_points",
        label=Message(gettext_noop("Fixed foul penalty")),
        kind="int",
        default=1,
        help=Message(gettext_noop("Used when the foul penalty is a fixed number of points.")),
        min_value=0,
        max_value=120,
        decision=True,
    ),
    SettingField(
        name="breaker_continues",
        label=Message(gettext_noop("Breaker plays ball 1")),
        kind="bool",
        default=False,
        help=Message(
            gettext_noop(
                "After the break and the opponent's nomination, the breaker plays on "
                "(otherwise the opponent does)."
            )
        ),
        decision=True,
    ),
)


class BallValues:
    """What balls played in number order score (shared with «по порядку номеров»)."""

    points_per_ball: str
    foul_penalty: str
    foul_penalty_points: int

    def value(self, ball: int) -> int:
        """Points for pocketing ``ball``."""
        return ball if self.points_per_ball == "number" else 1

    @property
    def total_points(self) -> int:
        return sum(BALLS) if self.points_per_ball == "number" else len(BALLS)

    @property
    def winning_points(self) -> int:
        """More than half of all the points: 61 (by number) or 8 (one a ball)."""
        return self.total_points // 2 + 1

    def penalty(self, ball_on: int) -> int:
        """What a foul costs with ``ball_on`` the lowest ball on the table."""
        if self.foul_penalty == "fixed":
            return self.foul_penalty_points
        return self.value(ball_on)


@dataclass(frozen=True)
class Settings(BallValues):
    players: int = 2
    points_per_ball: str = "number"
    foul_penalty: str = "ball_on"
    foul_penalty_points: int = 1
    breaker_continues: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "points_per_ball": self.points_per_ball,
            "foul_penalty": self.foul_penalty,
            "foul_penalty_points": self.foul_penalty_points,
            "breaker_continues": self.breaker_continues,
        }


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    return Settings(**parse_settings(SETTINGS_FIELDS, data, min_seats=2, max_seats=2))


@dataclass(frozen=True)
class State:
    settings: Settings
    seats: int = 2
    turn: int = 0
    scores: tuple[int, ...] = (0, 0)
    finished: bool = False
    result: Result | None = None
    applied: int = 0
    broken: bool = False
    awaiting_nomination: bool = True
    balls_left: tuple[int, ...] = BALLS
    pocketed: tuple[tuple[int, ...], ...] = ((), ())
    # The order is anchored on one ball and its pocket: ball 1 and the nominated pocket, or,
    # after an order error, the last pocketed ball and the pocket it really went into.
    anchor_ball: int = 1
    anchor_pocket: Pocket | None = None
    wrong_pockets: tuple[int, ...] = (0, 0)
    fouls: tuple[int, ...] = (0, 0)

    @property
    def ball_on(self) -> int | None:
        """The lowest-numbered ball on the table (None once the game is over)."""
        return None if self.finished or not self.balls_left else self.balls_left[0]

    def pocket_for(self, ball: int) -> Pocket | None:
        if self.anchor_pocket is None:
            return None
        return self.anchor_pocket.next_clockwise(ball - self.anchor_ball)

    @property
    def pocket_map(self) -> dict[int, Pocket]:
        """The designated pocket of every ball on the table (empty before the nomination)."""
        if self.anchor_pocket is None:
            return {}
        return {
            ball: self.anchor_pocket.next_clockwise(ball - self.anchor_ball)
            for ball in self.balls_left
        }

    @property
    def last_pocketed(self) -> int | None:
        """The last ball legally pocketed (balls leave the table in order)."""
        first_left = self.balls_left[0] if self.balls_left else len(BALLS) + 1
        return first_left - 1 if first_left > 1 else None


def initial_state(settings: Settings) -> State:
    return State(settings)


def _replace(state: State, **changes: Any) -> State:
    """The state after one more applied event, with ``changes``."""
    return evolve(state, applied=state.applied + 1, **changes)


def _penalty(state: State) -> int:
    return state.settings.penalty(state.balls_left[0])


# --- what the marker may send --------------------------------------------------------------

_BREAK_ACTIONS = (
    Action(BREAK, Message(gettext_noop("Break"))),
    Action(FOUL, Message(gettext_noop("Foul on the break")), fouls=FOUL_CODES),
)


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.finished:
        return ()
    if not state.broken:
        return _BREAK_ACTIONS
    if state.awaiting_nomination:
        return (
            Action(
                NOMINATE,
                Message(
                    gettext_noop("%(seat)s nominates the pocket for ball 1"),
                    {"seat": player_ref(1)},
                ),
                pockets=POCKETS,
            ),
        )
    ball = state.balls_left[0]
    designated = state.pocket_for(ball)
    actions = [
        Action(
            POT,
            Message(
                gettext_noop("Ball %(ball)s pocketed (%(pocket)s)"),
                {"ball": ball, "pocket": designated.label},  # type: ignore[union-attr]
            ),
            balls=(ball,),
            pockets=POCKETS,
            default_pocket=designated,
        ),
        Action(STROKE, Message(gettext_noop("Nothing pocketed"))),
        Action(FOUL, Message(gettext_noop("Foul")), fouls=FOUL_CODES),
    ]
    last = state.last_pocketed
    if last is not None:
        recorded = state.pocket_for(last)
        actions.append(
            Action(
                ORDER_ERROR,
                Message(
                    gettext_noop("Order error found: ball %(ball)s went into another pocket"),
                    {"ball": last},
                ),
                pockets=tuple(p for p in POCKETS if p is not recorded),
            )
        )
    return tuple(actions)


# --- applying an event ----------------------------------------------------------------------


def _check_pocket(event: Event) -> Pocket:
    if not isinstance(event.pocket, Pocket):
        raise malformed(Message(gettext_noop("Unknown pocket.")))
    return event.pocket


def apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    kind = event.kind
    if kind not in (BREAK, NOMINATE, POT, STROKE, FOUL, ORDER_ERROR):
        raise unknown_event(kind)
    seat = state.turn
    if not state.broken:
        if kind == BREAK:
            expect_details(event)
            turn = seat if state.settings.breaker_continues else 1 - seat
            return _replace(state, broken=True, turn=turn)
        if kind == FOUL:
            return _foul(state, event)
        raise RuleViolation("break_first", Message(gettext_noop("The game starts with the break.")))
    if state.awaiting_nomination:
        if kind == NOMINATE:
            expect_details(event, pocket=True)
            return _replace(
                state, awaiting_nomination=False, anchor_ball=1, anchor_pocket=_check_pocket(event)
            )
        raise RuleViolation(
            "nomination_first",
            Message(
                gettext_noop("%(seat)s must first nominate the pocket for ball 1."),
                {"seat": player_ref(1)},
            ),
        )
    if kind == BREAK:
        raise RuleViolation("already_broken", Message(gettext_noop("The break has been made.")))
    if kind == NOMINATE:
        raise RuleViolation(
            "already_nominated",
            Message(gettext_noop("The pocket for ball 1 has already been nominated.")),
        )
    if kind == STROKE:
        expect_details(event)
        return _replace(state, turn=1 - seat)
    if kind == FOUL:
        return _foul(state, event)
    if kind == ORDER_ERROR:
        return _order_error(state, event)
    return _pot(state, event)


def _foul(state: State, event: Event) -> State:
    expect_details(event, fouls=True)
    check_fouls(event, FOUL_LABELS)
    seat = state.turn
    return _replace(
        state,
        broken=True,
        turn=1 - seat,
        scores=bump(state.scores, seat, -_penalty(state)),
        fouls=bump(state.fouls, seat, 1),
    )


def check_ball_on(balls_left: tuple[int, ...], ball: Any) -> None:
    """Refuses a ball that is not on the table, or is not the ball on (the lowest there)."""
    if not isinstance(ball, int) or ball not in balls_left:
        raise RuleViolation(
            "ball_not_on_table",
            Message(gettext_noop("Ball %(ball)s is not on the table."), {"ball": ball}),
        )
    if ball != balls_left[0]:
        raise RuleViolation(
            "not_ball_on",
            Message(
                gettext_noop("Ball %(ball)s is not the ball on: ball %(on)s is."),
                {"ball": ball, "on": balls_left[0]},
            ),
        )


def _pot(state: State, event: Event) -> State:
    expect_details(event, ball=True, pocket=True)
    pocket = _check_pocket(event)
    ball = event.ball
    check_ball_on(state.balls_left, ball)
    seat = state.turn
    if pocket is not state.pocket_for(ball):
        # [source] the stroke does not count and the ball goes back; the turn passes.
        return _replace(state, turn=1 - seat, wrong_pockets=bump(state.wrong_pockets, seat, 1))
    settings = state.settings
    scores = bump(state.scores, seat, settings.value(ball))
    balls_left = state.balls_left[1:]
    pocketed = (
        state.pocketed[:seat] + (state.pocketed[seat] + (ball,),) + state.pocketed[seat + 1 :]
    )
    result = None
    if scores[seat] >= settings.winning_points:
        result = Result((seat,), None, scores)
    elif not balls_left:
        best = max(scores)
        winners = tuple(s for s in range(state.seats) if scores[s] == best)
        result = Result(winners, "normal" if len(winners) > 1 else None, scores)
    return _replace(
        state,
        scores=scores,
        balls_left=balls_left,
        pocketed=pocketed,
        finished=result is not None,
        result=result,
    )


def _order_error(state: State, event: Event) -> State:
    expect_details(event, pocket=True)
    pocket = _check_pocket(event)
    last = state.last_pocketed
    if last is None:
        raise RuleViolation(
            "nothing_pocketed", Message(gettext_noop("No ball has been pocketed yet."))
        )
    if pocket is state.pocket_for(last):
        raise RuleViolation(
            "order_unchanged",
            Message(
                gettext_noop("Ball %(ball)s is already recorded in that pocket (%(pocket)s)."),
                {"ball": last, "pocket": pocket.label},
            ),
        )
    return _replace(state, anchor_ball=last, anchor_pocket=pocket)


# --- texts ------------------------------------------------------------------------------------


def _ending(after: State) -> Message | None:
    return ending(
        after.result,
        drawn=gettext_noop("table clear: the game is drawn"),
        won=gettext_noop("%(seat)s wins the game"),
    )


def describe(before: State, event: Event, after: State) -> Message:
    seat = before.turn
    player = player_ref(seat)
    kind = event.kind
    if kind == BREAK:
        text = Message(
            gettext_noop("%(seat)s breaks; %(next)s to play"),
            {"seat": player, "next": player_ref(after.turn)},
        )
    elif kind == FOUL:
        text = Message(
            gettext_noop("%(seat)s: %(fouls)s — penalty −%(penalty)s = %(score)s"),
            {
                "seat": player,
                "fouls": join_messages([FOUL_LABELS[code] for code in event.fouls]),
                "penalty": before.scores[seat] - after.scores[seat],
                "score": after.scores[seat],
            },
        )
    elif kind == NOMINATE:
        assert event.pocket is not None
        text = Message(
            gettext_noop("%(seat)s nominates the pocket for ball 1: %(pocket)s"),
            {"seat": player_ref(1), "pocket": event.pocket.label},
        )
    elif kind == STROKE:
        text = Message(
            gettext_noop("%(seat)s: nothing pocketed; %(next)s to play"),
            {"seat": player, "next": player_ref(after.turn)},
        )
    elif kind == ORDER_ERROR:
        assert event.pocket is not None
        on = after.balls_left[0]
        text = Message(
            gettext_noop(
                "Order error found: ball %(ball)s was in: %(pocket)s; "
                "ball %(next)s now goes to: %(next_pocket)s"
            ),
            {
                "ball": after.anchor_ball,
                "pocket": event.pocket.label,
                "next": on,
                "next_pocket": after.pocket_for(on).label,  # type: ignore[union-attr]
            },
        )
    elif after.balls_left != before.balls_left:  # a legal pot
        assert event.pocket is not None
        text = Message(
            gettext_noop("%(seat)s: ball %(ball)s (%(pocket)s), +%(points)s = %(score)s"),
            {
                "seat": player,
                "ball": event.ball,
                "pocket": event.pocket.label,
                "points": after.scores[seat] - before.scores[seat],
                "score": after.scores[seat],
            },
        )
    else:  # a wrong pocket
        assert event.pocket is not None and event.ball is not None
        text = Message(
            gettext_noop(
                "%(seat)s: ball %(ball)s into the wrong pocket (%(pocket)s instead of "
                "%(designated)s) — back on the table"
            ),
            {
                "seat": player,
                "ball": event.ball,
                "pocket": event.pocket.label,
                "designated": before.pocket_for(event.ball).label,  # type: ignore[union-attr]
            },
        )
    ending = _ending(after)
    return text if ending is None else join_messages([text, ending], " — ")


def seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return per_seat(
        state.seats,
        balls=tuple(map(len, state.pocketed)),
        points=state.scores,
        wrong_pockets=state.wrong_pockets,
        fouls=state.fouls,
    )


VARIANT = game_variant(
    globals(),
    key="clockwise",
    name=Message(gettext_noop("Balls clockwise")),
    decisions=(
        Message(
            gettext_noop(
                "The first player to more than half of all the points wins; if the table is "
                "cleared first, the higher score wins and equal scores are a draw."
            )
        ),
        Message(
            gettext_noop(
                "With “one point” a ball: every ball scores 1, the first to 8 points wins, and "
                "a foul costs the value of the ball on, i.e. 1 point (unless a fixed penalty "
                "is chosen)."
            )
        ),
        Message(
            gettext_noop("A player continues after a legal pot; any other stroke passes the turn.")
        ),
        Message(
            gettext_noop(
                "Fouls: a miss, the cue ball pocketed or off the table, touching a ball, hitting "
                "another ball before the ball on. The turn passes and nothing pocketed in that "
                "stroke counts; several fouls in one stroke are penalised once."
            )
        ),
        Message(
            gettext_noop(
                "The break scores nothing: a ball that drops on the break goes back on the table."
            )
        ),
        Message(
            gettext_noop(
                "An order error found late is recorded as one event naming the pocket the last "
                "pocketed ball really went into; the order continues clockwise from there."
            )
        ),
    ),
    rating_family=POCKETING,
    source_title="«Кладка шаров по часовой стрелке» («по солнцу»)",
    source_points=(
        Message(
            gettext_noop(
                "Two players alternate; the balls are played in the order of their numbers, "
                "and each ball also has its own pocket."
            )
        ),
        Message(
            gettext_noop(
                "After the first player's first stroke, the opponent nominates the pocket for "
                "ball 1. Each next ball goes into the next pocket clockwise: balls 1, 7 and 13 "
                "share a pocket; 2, 8, 14; 3, 9, 15; 4 and 10; 5 and 11; 6 and 12."
            )
        ),
        Message(
            gettext_noop(
                "Playing a ball into a pocket other than its own is not allowed: the stroke "
                "does not count and the ball is put back on the table."
            )
        ),
        Message(
            gettext_noop(
                "An error found only after further strokes: every ball pocketed counts, and the "
                "order continues clockwise from the pocket of the last pocketed ball. Example: "
                "ball 3 went into the near-right corner instead of the right middle, then 4 "
                "near-left and 5 left-middle; found now — 6 goes far-left, 7 far-right."
            )
        ),
    ),
    fouls_from_source=False,
)
