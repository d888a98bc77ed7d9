"""«Кладка шаров кием» — pocket all 16 balls in the fewest strokes (docs/rules/cue_run.md).

[source] Each participant in turn makes a complete run: the fifteen pyramid balls and the cue
ball, sixteen in all; the referee (the marker) counts the strokes. Every stroke counts 1. A
penalty of one stroke is added for a double hit and for touching the cue ball or any other
ball with clothing, hand, cue, machine (машинка) or mazik. A ball knocked off the table goes
back on without penalty (the stroke still counts). The fewest strokes win. A normal draw: every
participant pocketed 16 in 16 — also when a handicap is in force. Handicap (фора), three kinds:
the stronger player starts; the weaker player gets N extra strokes; mixed (смешанная фора):
the stronger player starts and has N strokes fewer.

Decisions (listed in ``VARIANT.decisions`` and marked on the settings for the rules page):
- Adjusted total: ``extra_strokes``: the weaker player's strokes − N; ``mixed``: the stronger
  player's strokes + N; otherwise the strokes. Fewer adjusted strokes win.
- A conditional draw: equal best adjusted totals that are not all perfect runs. If every
  participant makes 16 in 16 it is a normal draw, whatever the handicap.
- With more than two players (up to 8, no handicap) the best adjusted total wins; several
  seats sharing it draw — normally if all of them made 16 in 16, conditionally otherwise.
- A handicap is played between two players; the run order is the seating order, except that
  with the ``start`` and ``mixed`` handicaps the stronger player runs first.
- A stroke counts at most one ball: 16 in 16 is the best possible run (so strokes ≥ balls
  down always holds); a second ball that drops in the same stroke is put back, like a ball
  off the table.
- Several fouls in one stroke are penalised once; a ball pocketed in a stroke with a foul
  stays down: the penalty is the extra stroke.
- The result is declared (``state.declared``) as soon as it is decided, i.e. as soon as no
  stroke still to be played can change who wins or the kind of draw. Declared is not
  finished (``result`` stays None until the game is finished): the marker may
  let the run go on (its strokes are still counted), or end a run that can no longer win or
  draw with ``stop``. The game is finished when every run is complete or stopped. A stopped
  run is scored at the fewest strokes it could still have finished in (its strokes + the
  balls left on the table, with the handicap).

Events (each applies to the player at the table, ``turn``): ``stroke`` (nothing pocketed),
``pot`` (one ball pocketed), ``ball_off`` (a ball flew off the table and is put back),
``foul_stroke`` / ``foul_pot`` (the same strokes with one or more fouls: +1), ``penalty``
(a touch between strokes: +1, no stroke), ``stop`` (end a run that can no longer win or draw).

State invariants: strokes ≥ balls down; strokes = plain strokes + penalties; a run is complete
exactly when its 16 balls are down.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from typing import Any

from .base import ADVICE_STROKES
from .base import POCKETING
from .base import SEAT_CHOICES
from .base import Action
from .base import Event
from .base import Message
from .base import Result
from .base import RuleViolation
from .base import SettingField
from .base import SettingsError
from .base import bump
from .base import check_fouls
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

BALLS = 16
MIN_PLAYERS = 2
MAX_PLAYERS = 8

STROKE = "stroke"
POT = "pot"
BALL_OFF = "ball_off"
FOUL_STROKE = "foul_stroke"
FOUL_POT = "foul_pot"
PENALTY = "penalty"
STOP = "stop"

NO_HANDICAP = "none"
START = "start"
EXTRA_STROKES = "extra_strokes"
MIXED = "mixed"

# The source's two penalties, a) and b).
FOUL_LABELS: dict[str, Message] = {
    "double_hit": Message(gettext_noop("Double hit")),
    "touched": Message(
        gettext_noop("A ball touched with clothing, hand, cue, machine or mazik (touch)")
    ),
}
FOUL_CODES: tuple[str, ...] = tuple(FOUL_LABELS)

SETTINGS_FIELDS: tuple[SettingField, ...] = (
    SettingField(
        name="handicap",
        label=Message(gettext_noop("Handicap")),
        kind="choice",
        default=NO_HANDICAP,
        help=Message(
            gettext_noop(
                "The three kinds of handicap of the traditional rules; a handicap is played "
                "between two players."
            )
        ),
        choices=(
            (NO_HANDICAP, Message(gettext_noop("no handicap"))),
            (START, Message(gettext_noop("the stronger player starts"))),
            (EXTRA_STROKES, Message(gettext_noop("the weaker player gets extra strokes"))),
            (
                MIXED,
                Message(gettext_noop("mixed: the stronger player starts and has strokes fewer")),
            ),
        ),
    ),
    SettingField(
        name="handicap_strokes",
        label=Message(gettext_noop("Handicap strokes (N)")),
        kind="int",
        default=0,
        help=Message(
            gettext_noop(
                "Extra strokes: the weaker player's total is his strokes − N. Mixed: the "
                "stronger player's total is his strokes + N. Not used by the other kinds."
            )
        ),
        min_value=0,
        max_value=15,
        decision=True,
    ),
    SettingField(
        name="strong_seat",
        label=Message(gettext_noop("Stronger player (gives the handicap)")),
        kind="choice",
        default="0",
        help=Message(gettext_noop("Used only with a handicap.")),
        choices=SEAT_CHOICES,
    ),
)

DECISIONS: tuple[Message, ...] = (
    Message(
        gettext_noop(
            "Adjusted total: with extra strokes the weaker player's strokes − N; with the "
            "mixed handicap the stronger player's strokes + N. Fewer adjusted strokes win."
        )
    ),
    Message(
        gettext_noop(
            "A conditional draw is equal best adjusted totals that are not all perfect runs "
            "(16 in 16); if every participant makes 16 in 16 it is a normal draw."
        )
    ),
    Message(
        gettext_noop(
            "Up to 8 players may run without a handicap (a handicap is played between two "
            "players). With three or more the best adjusted total wins; when several share "
            "it, they draw — a normal draw when each of them ran 16 in 16, otherwise a "
            "conditional draw — and the others lose."
        )
    ),
    Message(
        gettext_noop(
            "The runs follow the seating order; with the “stronger player starts” and mixed "
            "handicaps the stronger player runs first."
        )
    ),
    Message(
        gettext_noop(
            "A stroke counts at most one ball, so 16 in 16 is the best possible run; a second "
            "ball that drops in the same stroke is put back, like a ball off the table."
        )
    ),
    Message(
        gettext_noop(
            "Several fouls in one stroke are penalised once (+1); a ball pocketed in that "
            "stroke stays down."
        )
    ),
    Message(
        gettext_noop(
            "The result is declared as soon as no stroke still to be played can change it. "
            "The marker may let the run go on, or stop a run that can no longer win or draw; "
            "a stopped run counts as its strokes plus the balls still on the table."
        )
    ),
)


@dataclass(frozen=True)
class Settings:
    players: int = 2
    handicap: str = NO_HANDICAP
    handicap_strokes: int = 0
    strong_seat: int = 0  # 0-based seat index, like every seat in the engine

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "handicap": self.handicap,
            "handicap_strokes": self.handicap_strokes,
            "strong_seat": self.strong_seat,
        }


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    """Validates the settings; a value the chosen handicap does not use is reset to its default.

    ``strong_seat`` is a 0-based seat index (the form offers "Player 1" / "Player 2").
    """
    data = dict(data)
    if isinstance(data.get("strong_seat"), int) and not isinstance(data["strong_seat"], bool):
        data["strong_seat"] = str(data["strong_seat"])
    clean = parse_settings(SETTINGS_FIELDS, data, min_seats=MIN_PLAYERS, max_seats=MAX_PLAYERS)
    handicap = clean["handicap"]
    strokes = clean["handicap_strokes"]
    strong = int(clean["strong_seat"])
    errors: dict[str, Message] = {}
    if handicap != NO_HANDICAP and clean["players"] != 2:
        errors["handicap"] = Message(gettext_noop("A handicap is played between two players."))
    if handicap in (EXTRA_STROKES, MIXED) and strokes < 1:
        errors["handicap_strokes"] = Message(
            gettext_noop("Give the handicap's number of strokes (at least 1).")
        )
    if errors:
        raise SettingsError(errors)
    if handicap in (NO_HANDICAP, START):
        strokes = 0
    if handicap == NO_HANDICAP:
        strong = 0
    return Settings(clean["players"], handicap, strokes, strong)


@dataclass(frozen=True)
class State:
    """The counts of the game. What follows from them (``adjusted``, ``to_beat``, ``declared``)
    are properties, worked out when read: a replay only keeps the counts up to date."""

    settings: Settings
    seats: int
    turn: int  # the seat making its run now (the last runner once finished)
    scores: tuple[int, ...]  # = strokes: the marker's count per seat, penalties included
    strokes: tuple[int, ...]
    penalties: tuple[int, ...]
    balls_down: tuple[int, ...]
    runs_done: tuple[bool, ...]  # complete (16 down) or stopped
    stopped: tuple[bool, ...]  # runs ended by the marker with ``stop``
    order: tuple[int, ...]  # the seats in running order
    position: int  # index into ``order`` of the current run
    deltas: tuple[int, ...]  # handicap per seat: adjusted total = strokes + delta
    best: int | None  # the best (lowest) adjusted total of the complete runs
    foul_counts: tuple[tuple[int, ...], ...]  # per seat, in FOUL_CODES order
    balls_off: tuple[int, ...]
    finished: bool = False
    result: Result | None = None
    applied: int = 0

    @property
    def adjusted(self) -> tuple[int | None, ...]:
        """Each seat's total with the handicap applied; None until its run is done."""
        return tuple(
            _fewest(self, seat) if done else None for seat, done in enumerate(self.runs_done)
        )

    @property
    def to_beat(self) -> int | None:
        """The most strokes (raw, penalties included) the runner may finish with and still
        win or draw; None before the first complete run and once the game is finished."""
        if self.best is None or self.finished:
            return None
        to_beat = self.best - self.deltas[self.turn]
        if _all_perfect_so_far(self):
            return max(to_beat, BALLS)  # 16 in 16 still makes a normal draw
        return to_beat

    @property
    def to_win(self) -> int | None:
        """The most strokes (raw, penalties included) the runner may finish with and win
        outright (finishing with ``to_beat`` draws); None when no finish of his run can win
        (before the first complete run, once the game is finished, or when the strokes it
        needs at least are more). (A perfect run is a normal draw when every run so far is
        perfect, even below this.)"""
        to_beat = self.to_beat
        if to_beat is None or to_beat - 1 < self.least_to_finish:
            return None
        return to_beat - 1

    @property
    def to_draw(self) -> int | None:
        """The strokes (raw) that finish the runner's run level with the best total so far: a
        draw (normal if every run is 16 in 16, else conditional); None when the run can no
        longer finish with them."""
        to_beat = self.to_beat
        if to_beat is None or to_beat < self.least_to_finish:
            return None
        return to_beat

    @property
    def least_to_finish(self) -> int:
        """The fewest strokes (raw) the runner's run can still end with: one a ball left."""
        seat = self.turn
        return self.strokes[seat] + BALLS - self.balls_down[seat]

    @property
    def declared(self) -> Result | None:
        """The result as soon as it is decided — possibly before the game is finished, while
        ``result`` stays None until every run is complete or stopped."""
        if self.finished:
            return self.result
        if self.best is None or _all_perfect_so_far(self):
            return None
        for seat in range(self.seats):
            if not self.runs_done[seat] and _fewest(self, seat) <= self.best:
                return None  # this run can still win or draw
        return _result(self)

    @property
    def decided(self) -> bool:
        """The result is declared (possibly before the game is finished)."""
        return self.declared is not None

    @property
    def strong_seat(self) -> int | None:
        """The seat giving the handicap, or None without a handicap."""
        if self.settings.handicap == NO_HANDICAP:
            return None
        return self.settings.strong_seat


def run_order(settings: Settings) -> tuple[int, ...]:
    seats = tuple(range(settings.players))
    if settings.handicap in (START, MIXED):
        strong = settings.strong_seat
        return (strong,) + tuple(s for s in seats if s != strong)
    return seats


def handicap_deltas(settings: Settings) -> tuple[int, ...]:
    n = settings.handicap_strokes
    strong = settings.strong_seat

    def delta(seat: int) -> int:
        if settings.handicap == EXTRA_STROKES and seat != strong:
            return -n
        if settings.handicap == MIXED and seat == strong:
            return n
        return 0

    return tuple(delta(seat) for seat in range(settings.players))


def initial_state(settings: Settings) -> State:
    n = settings.players
    zeros = (0,) * n
    order = run_order(settings)
    return State(
        settings=settings,
        seats=n,
        turn=order[0],
        scores=zeros,
        strokes=zeros,
        penalties=zeros,
        balls_down=zeros,
        runs_done=(False,) * n,
        stopped=(False,) * n,
        order=order,
        position=0,
        deltas=handicap_deltas(settings),
        best=None,
        foul_counts=((0,) * len(FOUL_CODES),) * n,
        balls_off=zeros,
    )


# --- who can still win --------------------------------------------------------------------


def _perfect(state: State, seat: int) -> bool:
    """A complete run of 16 in 16 (no penalty, every stroke a ball)."""
    return state.balls_down[seat] == BALLS and state.strokes[seat] == BALLS


def _fewest(state: State, seat: int) -> int:
    """The fewest adjusted strokes the seat's run can end with: its total once complete; a
    stopped run is scored so (its strokes + the balls left, with the handicap)."""
    return state.strokes[seat] + BALLS - state.balls_down[seat] + state.deltas[seat]


def _all_perfect_so_far(state: State) -> bool:
    """Every run is perfect or may still be: done with 16 in 16, or every stroke a ball."""
    for strokes, balls, done in zip(state.strokes, state.balls_down, state.runs_done, strict=True):
        if strokes != balls or (done and balls != BALLS):
            return False
    return True


def _out_of_contention(state: State, seat: int) -> bool:
    """The seat's run, not done yet, can no longer win or draw."""
    if state.best is None or state.runs_done[seat] or _all_perfect_so_far(state):
        return False  # (if everybody may still make 16 in 16, a normal draw is possible)
    return _fewest(state, seat) > state.best


def _result(state: State) -> Result:
    """The result, once no run still going can reach the best complete total."""
    seats = range(state.seats)
    scores = tuple(_fewest(state, seat) for seat in seats)
    if all(_perfect(state, seat) for seat in seats):
        return Result(tuple(seats), "normal", scores)
    winners = tuple(
        seat
        for seat in seats
        if state.runs_done[seat] and not state.stopped[seat] and scores[seat] == state.best
    )
    if len(winners) == 1:
        return Result(winners, None, scores)
    kind = "normal" if all(_perfect(state, seat) for seat in winners) else "conditional"
    return Result(winners, kind, scores)


def _end_run(state: State, stopped: bool) -> State:
    """The runner's run is over (16 balls down, or stopped): the next one starts, or the game
    is finished."""
    seat = state.turn
    runs_done = state.runs_done[:seat] + (True,) + state.runs_done[seat + 1 :]
    stops = state.stopped[:seat] + (True,) + state.stopped[seat + 1 :] if stopped else state.stopped
    best = state.best
    if not stopped:
        total = _fewest(state, seat)
        best = total if best is None else min(best, total)
    finished = all(runs_done)
    position = state.position if finished else state.position + 1
    after = evolve(
        state,
        turn=state.order[position],
        runs_done=runs_done,
        stopped=stops,
        position=position,
        best=best,
        finished=False,
        result=None,
    )
    if finished:
        return replace(after, finished=True, result=_result(after))
    return after


# --- legal actions and apply -------------------------------------------------------------

_STROKE_ACTIONS = (
    Action(POT, Message(gettext_noop("Ball pocketed"))),
    Action(STROKE, Message(gettext_noop("Stroke, nothing pocketed"))),
    Action(BALL_OFF, Message(gettext_noop("A ball off the table: put back, no penalty"))),
    Action(FOUL_POT, Message(gettext_noop("Ball pocketed, with a foul (+1)")), fouls=FOUL_CODES),
    Action(
        FOUL_STROKE,
        Message(gettext_noop("Stroke with a foul, nothing pocketed (+1)")),
        fouls=FOUL_CODES,
    ),
    Action(PENALTY, Message(gettext_noop("Touch between strokes (+1)")), fouls=("touched",)),
)
_STOP_ACTION = Action(STOP, Message(gettext_noop("End this run: it can no longer win or draw")))


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.finished:
        return ()
    if _out_of_contention(state, state.turn):
        return _STROKE_ACTIONS + (_STOP_ACTION,)
    return _STROKE_ACTIONS


def apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    kind = event.kind
    seat = state.turn
    if kind in (STROKE, POT, BALL_OFF):
        expect_details(event)
        fouls: tuple[str, ...] = ()
    elif kind in (FOUL_STROKE, FOUL_POT):
        expect_details(event, fouls=True)
        check_fouls(event, FOUL_LABELS)
        fouls = event.fouls
    elif kind == PENALTY:
        expect_details(event, fouls=True)
        check_fouls(event, FOUL_LABELS)
        if "double_hit" in event.fouls:
            raise malformed(
                Message(gettext_noop("A double hit is recorded with its stroke, not on its own."))
            )
        fouls = event.fouls
    elif kind == STOP:
        expect_details(event)
        if not _out_of_contention(state, seat):
            raise RuleViolation(
                "run_can_still_win",
                Message(
                    gettext_noop("%(seat)s can still win or draw: the run goes on."),
                    {"seat": player_ref(seat)},
                ),
            )
        return _end_run(replace(state, applied=state.applied + 1), stopped=True)
    else:
        raise unknown_event(kind)

    added = (kind != PENALTY) + bool(fouls)  # the stroke itself, and one penalty at most
    strokes = bump(state.strokes, seat, added)
    balls_down = bump(state.balls_down, seat) if kind in (POT, FOUL_POT) else state.balls_down
    after = evolve(
        state,
        turn=seat,
        scores=strokes,
        strokes=strokes,
        penalties=bump(state.penalties, seat) if fouls else state.penalties,
        balls_down=balls_down,
        foul_counts=count_fouls(state.foul_counts, seat, FOUL_CODES, fouls),
        balls_off=bump(state.balls_off, seat) if kind == BALL_OFF else state.balls_off,
        finished=False,
        result=None,
        applied=state.applied + 1,
    )
    if balls_down[seat] == BALLS:
        return _end_run(after, stopped=False)
    return after


# --- descriptions and statistics ----------------------------------------------------------


def _result_text(result: Result) -> Message:
    if result.draw is None:
        return Message(gettext_noop("%(seat)s wins"), {"seat": player_ref(result.winners[0])})
    seats = join_messages([player_ref(s) for s in result.winners], ", ")
    if result.draw == "normal":
        return Message(gettext_noop("normal draw (%(seats)s)"), {"seats": seats})
    return Message(gettext_noop("conditional draw (%(seats)s)"), {"seats": seats})


def describe(before: State, event: Event, after: State) -> Message:
    seat = before.turn
    player = player_ref(seat)
    stroke_no = before.strokes[seat] + 1
    kind = event.kind
    parts: list[Message] = []
    if kind in (POT, FOUL_POT):
        parts.append(
            Message(
                gettext_noop("%(seat)s: stroke %(stroke)s, ball pocketed (%(balls)s of 16)"),
                {"seat": player, "stroke": stroke_no, "balls": after.balls_down[seat]},
            )
        )
    elif kind in (STROKE, FOUL_STROKE):
        parts.append(
            Message(
                gettext_noop("%(seat)s: stroke %(stroke)s, nothing pocketed"),
                {"seat": player, "stroke": stroke_no},
            )
        )
    elif kind == BALL_OFF:
        parts.append(
            Message(
                gettext_noop(
                    "%(seat)s: stroke %(stroke)s, a ball off the table is put back (no penalty)"
                ),
                {"seat": player, "stroke": stroke_no},
            )
        )
    elif kind == PENALTY:
        parts.append(
            Message(
                gettext_noop("%(seat)s: %(fouls)s between strokes, penalty +1"),
                {"seat": player, "fouls": join_messages([FOUL_LABELS[c] for c in event.fouls])},
            )
        )
    elif kind == STOP:
        parts.append(
            Message(
                gettext_noop(
                    "%(seat)s: run stopped (strokes: %(strokes)s, balls: %(balls)s of "
                    "16), counted as %(total)s"
                ),
                {
                    "seat": player,
                    "strokes": before.strokes[seat],
                    "balls": before.balls_down[seat],
                    "total": after.adjusted[seat],
                },
            )
        )
    if kind in (FOUL_STROKE, FOUL_POT):
        parts.append(
            Message(
                gettext_noop("%(fouls)s: penalty +1"),
                {"fouls": join_messages([FOUL_LABELS[c] for c in event.fouls], ", ")},
            )
        )
    if event.fouls:
        parts.append(
            Message(gettext_noop("strokes: %(strokes)s"), {"strokes": after.strokes[seat]})
        )
    if kind != STOP and after.runs_done[seat]:
        if _perfect(after, seat):
            parts.append(Message(gettext_noop("perfect run: 16 in 16")))
        elif after.deltas[seat]:
            parts.append(
                Message(
                    gettext_noop(
                        "run complete, strokes: %(strokes)s, with the handicap: %(adjusted)s"
                    ),
                    {"strokes": after.strokes[seat], "adjusted": after.adjusted[seat]},
                )
            )
        else:
            parts.append(
                Message(
                    gettext_noop("run complete, strokes: %(strokes)s"),
                    {"strokes": after.strokes[seat]},
                )
            )
    if after.finished:
        parts.append(
            Message(gettext_noop("game over: %(result)s"), {"result": _result_text(after.result)})
        )
    elif after.declared is not None and before.declared is None:
        parts.append(
            Message(gettext_noop("decided: %(result)s"), {"result": _result_text(after.declared)})
        )
    return join_messages(parts)


def seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return per_seat(
        state.seats,
        strokes=state.strokes,
        penalties=state.penalties,
        adjusted=state.adjusted,
        balls=state.balls_down,
        complete=tuple(balls == BALLS for balls in state.balls_down),
        perfect=tuple(_perfect(state, seat) for seat in range(state.seats)),
        fouls=foul_tallies(FOUL_CODES, state.foul_counts),
        balls_off=state.balls_off,
        stopped=state.stopped,
    )


VARIANT = game_variant(
    globals(),
    key="cue_run",
    handicap_advice=ADVICE_STROKES,
    name=Message(gettext_noop("Pocketing with the cue")),
    min_seats=MIN_PLAYERS,
    max_seats=MAX_PLAYERS,
    decisions=DECISIONS,
    lower_score_wins=True,  # fewer (adjusted) strokes are better
    rating_family=POCKETING,
    source_title="«Кладка шаров кием»",
    source_points=(
        Message(
            gettext_noop(
                "Each participant in turn pockets all 16 balls — the fifteen of the pyramid "
                "and the cue ball — in as few strokes as he can; the referee counts the "
                "strokes. A perfect run is 16 balls in 16 strokes."
            )
        ),
        Message(
            gettext_noop(
                "The first stroke may break the pyramid or pocket the cue ball into any "
                "pocket. No ball or pocket is called; any stroke may be used, with a long or "
                "short cue, the machine (машинка) or the mazik."
            )
        ),
        Message(
            gettext_noop(
                "Penalty, one stroke added: for a double hit; for touching the cue ball or any "
                "other ball with clothing, hand or cue (machine, mazik)."
            )
        ),
        Message(
            gettext_noop(
                "A ball knocked off the table by an over-hard stroke goes back on the table; "
                "there is no penalty."
            )
        ),
        Message(
            gettext_noop(
                "The outcome is a win, a loss or a draw, normal or conditional. A normal draw: "
                "every participant pockets 16 balls in 16 strokes — also when the stronger "
                "player gives the weaker one a handicap."
            )
        ),
        Message(
            gettext_noop(
                "The weaker player may ask for a handicap, of three kinds: the stronger player "
                "starts; the weaker player may make more strokes; mixed — the stronger player "
                "starts and may make fewer strokes."
            )
        ),
    ),
    fouls_from_source=True,
)
