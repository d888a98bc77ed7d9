"""What the everyday pyramid games share (docs/rules/pyramid.md).

Two things live here:

- **The handicap (фора) of every pyramid game**: the weaker player's head start before the
  break (balls on his shelf, or points where balls score their number) and the stronger
  player's first pots returned to the table (``handicap_fields``, ``Handicap``).
- **The free-pyramid family**: Свободная, Комбинированная and Динамичная play with the same
  shelf, pot and foul mechanics and differ only in a few facts (``Family``: the number of
  balls in play, whether a свояк scores and where the cue ball is played from after it). Each
  game's module states its facts and gets its ``Variant`` from ``family_variant``.

Free-pyramid family, as implemented (docs/rules/pyramid.md; [rule] unless said):
- Every ball pocketed by a legal stroke goes to the player's shelf and is one point; the first
  to ``TARGET`` (8) balls on his shelf wins the frame. A legal pot keeps the turn; a stroke
  without a pot or with a foul passes it.
- Свояк (Комбинированная, Динамичная): the cue ball pocketed off an object ball; the shooter
  takes a ball of his choice off the table onto his shelf (one point) and plays on from hand —
  from дом, or in Динамичная from anywhere, where pocketing the cue ball on that premium
  stroke is a foul [decision]. Object balls that fell on the same stroke count too.
- A foul: the balls pocketed on it are spotted. ``foul_model="modern"``: the opponent takes a
  penalty ball from the table onto his shelf (and may win by it); ``"legacy"``: the offender
  returns a ball from his shelf to the table, or owes one when his shelf is empty; a debt is
  paid from his next pots (those balls go back to the table) [decision: modern by default].
- The handicap: the weaker player starts with ``head_start`` balls on his shelf (the club's
  "8–7" is a head start of 1); the first ``returned_pots`` balls the stronger pockets go back
  to the table (he plays on, as after any legal pot) [decision]. A penalty ball is not a pot.
- Invariant: balls on the table + balls on both shelves = the game's ball count (16 in
  Свободная, 15 object balls in the others); a debt is counted apart.

Events: ``pot`` (count: balls pocketed), ``svoyak`` (count, optional: object balls pocketed on
the same stroke; a свояк needs an object ball left on the table to take), ``stroke`` (nothing
pocketed), ``foul`` (fouls; count, optional: the balls pocketed on it, which are spotted).
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import fields
from typing import Any

from .base import ADVICE_HEAD_START_BALLS
from .base import MAY
from .base import SEAT_CHOICES
from .base import Action
from .base import Event
from .base import Message
from .base import RatingFamily
from .base import Result
from .base import RuleViolation
from .base import SettingField
from .base import Variant
from .base import bump
from .base import check_fouls
from .base import ending
from .base import evolve
from .base import expect_details
from .base import game_over
from .base import gettext_noop
from .base import join_messages
from .base import malformed
from .base import parse_settings
from .base import per_seat
from .base import player_ref
from .base import unknown_event

# The four pyramid games measure the same skill: one rating (the decision is in the README).
PYRAMID = RatingFamily("pyramid", Message(gettext_noop("Pyramid games")))

# --- the handicap of every pyramid game ---------------------------------------------------------

MAX_RETURNED = 3


def handicap_fields(max_head_start: int, unit: str) -> tuple[SettingField, ...]:
    """The two handicap forms as settings; ``unit`` is "balls" or "points" (a head start in
    points where balls score their number)."""
    if unit == "balls":
        head_label = Message(gettext_noop("Handicap: balls on the weaker's shelf"))
        head_help = Message(
            gettext_noop(
                "Before the break the weaker player takes this many balls from the table onto "
                "his shelf (“8–7” is 1, “8–6” is 2)."
            )
        )
    else:
        head_label = Message(gettext_noop("Handicap: the weaker's points before the break"))
        head_help = Message(gettext_noop("The weaker player starts with this many points."))
    return (
        SettingField(
            name="weaker_seat",
            label=Message(gettext_noop("Receives the handicap (the weaker player)")),
            kind="choice",
            default="1",
            help=Message(gettext_noop("Used only when a handicap is set below.")),
            choices=SEAT_CHOICES,
        ),
        SettingField(
            name="head_start",
            label=head_label,
            kind="int",
            default=0,
            help=head_help,
            min_value=0,
            max_value=max_head_start,
        ),
        SettingField(
            name="returned_pots",
            label=Message(gettext_noop("Handicap: the stronger's first pots returned")),
            kind="int",
            default=0,
            help=Message(
                gettext_noop(
                    "The first balls the stronger player pockets are spotted back on the table."
                )
            ),
            min_value=0,
            max_value=MAX_RETURNED,
        ),
    )


def parse_pyramid_settings(
    fields: Sequence[SettingField], data: Mapping[str, Any]
) -> dict[str, Any]:
    """``parse_settings`` for two players; ``weaker_seat`` may come as the int 0 or 1 and
    comes back as an int."""
    data = dict(data)
    seat = data.get("weaker_seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        data["weaker_seat"] = str(seat)
    clean = parse_settings(fields, data, min_seats=2, max_seats=2)
    clean["weaker_seat"] = int(clean["weaker_seat"])
    return clean


@dataclass(frozen=True)
class Handicap:
    """The handicap in force: who receives it, his head start, the stronger's returns."""

    weaker_seat: int
    head_start: int
    returned_pots: int

    @property
    def stronger_seat(self) -> int:
        return 1 - self.weaker_seat

    @property
    def active(self) -> bool:
        return bool(self.head_start or self.returned_pots)

    def shorthand(self, target: int) -> str:
        """The club's notation of a head start: "8–7" (target 8, the weaker needs 7)."""
        return f"{target}–{target - self.head_start}"


class HandicapSettings:
    """What the settings of every pyramid game share: the handicap, and ``to_dict`` (every
    field, as stored). Mixed into each game's frozen Settings dataclass."""

    weaker_seat: int
    head_start: int
    returned_pots: int

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    @property
    def handicap(self) -> Handicap:
        return Handicap(self.weaker_seat, self.head_start, self.returned_pots)


def split_returned(to_return: int, seat: int, stronger: int, count: int) -> int:
    """How many of ``count`` balls the stronger's pot returns to the table."""
    return min(to_return, count) if seat == stronger else 0


def add_to_shelf(
    shelves: tuple[tuple[int, ...], ...], seat: int, balls: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return shelves[:seat] + (shelves[seat] + balls,) + shelves[seat + 1 :]


def best_runs(best: tuple[int, ...], seat: int, run: int) -> tuple[int, ...]:
    return bump(best, seat, run - best[seat]) if run > best[seat] else best


@dataclass(frozen=True)
class PointsState:
    """What the states of the two games played for points on the numbered balls (the classic
    pyramid, balls in order) share; each game's State adds its own fields (all defaulted)."""

    settings: Any  # the game's Settings, with HandicapSettings mixed in
    scores: tuple[int, ...]
    seats: int = 2
    turn: int = 0
    finished: bool = False
    result: Result | None = None
    applied: int = 0
    to_return: int = 0  # the stronger player's pots still to be returned (handicap)
    run: int = 0
    fouls: tuple[int, ...] = (0, 0)
    best_run: tuple[int, ...] = (0, 0)

    @classmethod
    def start(cls, settings: Any) -> Any:
        """The state before the break: the weaker player's head start on his score."""
        handicap = settings.handicap
        return cls(
            settings,
            scores=bump((0, 0), handicap.weaker_seat, handicap.head_start),
            to_return=handicap.returned_pots,
        )


def points_seat_stats(
    state: Any, balls: tuple[tuple[int, ...], ...], **more: tuple[Any, ...]
) -> tuple[dict[str, Any], ...]:
    """``seat_stats`` of a game played for points on the pyramid's numbered balls: each
    seat's points, how many ``balls`` it pocketed, its fouls, ``more`` and its best run."""
    return per_seat(
        state.seats,
        points=state.scores,
        balls=tuple(map(len, balls)),
        fouls=state.fouls,
        **more,
        best_run=state.best_run,
    )


def table_cleared_result(scores: tuple[int, ...]) -> Result:
    """The table is cleared before anyone reached the target: the higher score wins, equal
    scores are a draw (e.g. 70 : 70 in Классическая)."""
    top = max(scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score == top)
    return Result(winners, "normal" if len(winners) > 1 else None, scores)


# The fouls every pyramid game shares (the marker's buttons), then each game's own.
COMMON_FOULS: dict[str, Message] = {
    "miss": Message(gettext_noop("Miss (no ball hit)")),
    "cue_ball_off_table": Message(gettext_noop("Cue ball off the table")),
    "touched": Message(gettext_noop("A ball touched by hand, clothing or cue")),
    "double_hit": Message(gettext_noop("Double hit or push")),
    "no_foot_on_floor": Message(gettext_noop("No foot on the floor")),
    "balls_moving": Message(gettext_noop("Played before the balls stopped")),
    "out_of_turn": Message(gettext_noop("Played out of turn")),
}
CUE_BALL_POCKETED = "cue_ball_pocketed"
CUE_BALL_LOST = frozenset({CUE_BALL_POCKETED, "cue_ball_off_table"})

# Where the next stroke's cue ball is played from.
HOME = "home"
ANYWHERE = "anywhere"
IN_HAND_LABELS: dict[str, Message] = {
    HOME: Message(gettext_noop("from hand from home")),
    ANYWHERE: Message(gettext_noop("from hand from anywhere")),
}


def in_hand_after_foul(event: Event, coloured_cue_ball: bool) -> str:
    """After a foul on which the cue ball was pocketed or left the table, the opponent plays
    from hand from home (in games with one coloured cue ball)."""
    return HOME if coloured_cue_ball and CUE_BALL_LOST.intersection(event.fouls) else ""


# --- the free-pyramid family -------------------------------------------------------------------

TARGET = 8
MODERN = "modern"
LEGACY = "legacy"

POT = "pot"
SVOYAK = "svoyak"
STROKE = "stroke"
FOUL = "foul"
KINDS = (POT, SVOYAK, STROKE, FOUL)

FOUL_MODEL_FIELD = SettingField(
    name="foul_model",
    label=Message(gettext_noop("Foul penalty")),
    kind="choice",
    default=MODERN,
    help=Message(
        gettext_noop(
            "Modern: the opponent takes a penalty ball from the table onto his shelf. Legacy "
            "(the Soviet rule): the offender returns a ball from his shelf to the table, and "
            "owes it when his shelf is empty."
        )
    ),
    choices=(
        (MODERN, Message(gettext_noop("modern: a penalty ball to the opponent"))),
        (LEGACY, Message(gettext_noop("legacy: the offender returns a ball"))),
    ),
    decision=True,
)
FAMILY_FIELDS: tuple[SettingField, ...] = (FOUL_MODEL_FIELD, *handicap_fields(TARGET - 1, "balls"))


@dataclass(frozen=True)
class Family:
    """One game of the free-pyramid family: the facts it differs in."""

    key: str
    name: Message
    balls: int  # balls in play: 16 in Свободная (any may be struck), 15 object balls otherwise
    svoyak_from: str | None  # where the cue ball is played from after a свояк (None: no свояк)
    foul_labels: Mapping[str, Message]
    decisions: tuple[Message, ...]
    source_title: str
    source_points: tuple[Message, ...]

    def __post_init__(self) -> None:
        _FAMILIES[self.key] = self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by key (a state carries its game's facts; the replay cache stays small)."""
        return (_family, (self.key,))

    @property
    def coloured_cue_ball(self) -> bool:
        """Only the coloured ball is the cue ball (so it can be "in hand")."""
        return self.svoyak_from is not None


_FAMILIES: dict[str, Family] = {}


def _family(key: str) -> Family:
    return _FAMILIES[key]


@dataclass(frozen=True)
class Settings(HandicapSettings):
    players: int = 2
    foul_model: str = MODERN
    weaker_seat: int = 1
    head_start: int = 0
    returned_pots: int = 0

    @property
    def target(self) -> int:
        return TARGET


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    return Settings(**parse_pyramid_settings(FAMILY_FIELDS, data))


@dataclass(frozen=True)
class State:
    settings: Settings
    family: Family
    on_table: int
    scores: tuple[int, ...]  # balls on each shelf (= points)
    seats: int = 2
    turn: int = 0
    finished: bool = False
    result: Result | None = None
    applied: int = 0
    to_return: int = 0  # the stronger's pots still to be returned (handicap)
    debts: tuple[int, ...] = (0, 0)  # legacy: balls owed to the table
    in_hand: str = HOME  # the next stroke from hand: HOME, ANYWHERE or "" (the break: home)
    strokes: int = 0
    run: int = 0  # balls pocketed in the current visit
    balls: tuple[int, ...] = (0, 0)  # balls pocketed by legal strokes (returned ones too)
    svoyaki: tuple[int, ...] = (0, 0)
    fouls: tuple[int, ...] = (0, 0)
    best_run: tuple[int, ...] = (0, 0)
    penalty_balls: tuple[int, ...] = (0, 0)  # modern: balls taken after the opponent's fouls

    @property
    def target(self) -> int:
        return TARGET

    @property
    def premium(self) -> bool:
        """Динамичная's premium stroke: after a свояк, from anywhere, no свояк allowed."""
        return self.in_hand == ANYWHERE


def family_initial_state(family: Family, settings: Settings) -> State:
    handicap = settings.handicap
    scores = bump((0, 0), handicap.weaker_seat, handicap.head_start)
    return State(
        settings,
        family,
        on_table=family.balls - handicap.head_start,
        scores=scores,
        to_return=handicap.returned_pots,
    )


def family_legal_actions(state: State) -> tuple[Action, ...]:
    if state.finished:
        return ()
    family = state.family
    left = state.on_table
    actions = [
        Action(POT, Message(gettext_noop("Balls pocketed")), max_count=left),
        Action(STROKE, Message(gettext_noop("No pot"))),  # «Мимо», the most frequent tap
    ]
    if family.svoyak_from and not state.premium:
        actions.append(Action(SVOYAK, Message(gettext_noop("Svoyak"))))
        if left > 1:
            label = Message(gettext_noop("Svoyak, and object balls pocketed:"))
            actions.append(Action(SVOYAK, label, max_count=left - 1))
    # the balls pocketed on a foul, when the marker gives them: spotted, kept in the log
    actions.append(
        Action(
            FOUL,
            Message(gettext_noop("Foul")),
            fouls=tuple(family.foul_labels),
            max_count=left or None,
            optional=("count",),
        )
    )
    return tuple(actions)


def check_count(count: Any, *, at_least: int, at_most: int, on_table: int) -> int:
    """A whole number of balls between ``at_least`` and ``at_most`` (the balls there are)."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise malformed(Message(gettext_noop("The number of balls must be a whole number.")))
    if count < at_least:
        raise malformed(
            Message(
                gettext_noop("The number of balls must be at least %(min)s."), {"min": at_least}
            )
        )
    if count > at_most:
        raise RuleViolation(
            "not_enough_balls",
            Message(gettext_noop("Only %(balls)s balls are on the table."), {"balls": on_table})
            if on_table != 1
            else Message(gettext_noop("Only one ball is on the table.")),
        )
    return count


def no_ball_for_svoyak() -> RuleViolation:
    return RuleViolation(
        "no_ball_for_svoyak",
        Message(
            gettext_noop(
                "No object ball is left on the table to take for the svoyak: record the "
                "balls pocketed without it."
            )
        ),
    )


def _next(state: State, **changes: Any) -> State:
    return evolve(state, applied=state.applied + 1, strokes=state.strokes + 1, **changes)


def family_apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    kind = event.kind
    if kind not in KINDS:
        raise unknown_event(kind)
    if kind == POT:
        expect_details(event, count=True)
        left = state.on_table
        count = check_count(event.count, at_least=1, at_most=left, on_table=left)
        return _to_shelf(state, count, svoyak=False)
    if kind == SVOYAK:
        return _svoyak(state, event)
    if kind == STROKE:
        expect_details(event)
        return _pass_turn(state)
    return _foul(state, event)


def _svoyak(state: State, event: Event) -> State:
    family = state.family
    if family.svoyak_from is None:
        raise RuleViolation(
            "no_svoyak",
            Message(
                gettext_noop(
                    "There is no svoyak in this game: the cue ball pocketed is not a point here."
                )
            ),
        )
    if state.premium:
        raise RuleViolation(
            "premium_stroke",
            Message(
                gettext_noop(
                    "On the stroke after a svoyak only object balls may be pocketed: the cue "
                    "ball pocketed is a foul."
                )
            ),
        )
    if event.count is None:
        expect_details(event)
        count = 0
    else:
        expect_details(event, count=True)
        count = check_count(
            event.count, at_least=1, at_most=state.on_table, on_table=state.on_table
        )
    if count >= state.on_table:  # the object balls that fell were the last ones
        raise no_ball_for_svoyak()
    return _to_shelf(state, count + 1, svoyak=True)


def _to_shelf(state: State, count: int, *, svoyak: bool) -> State:
    """A legal stroke that took ``count`` balls off the table (a свояк's chosen ball included):
    the stronger's first ones go back (handicap), then a legacy debt is paid, the rest go to
    the shelf. The player plays on."""
    seat = state.turn
    settings = state.settings
    returned = split_returned(state.to_return, seat, settings.handicap.stronger_seat, count)
    paid = min(state.debts[seat], count - returned)
    kept = count - returned - paid
    scores = bump(state.scores, seat, kept)
    run = state.run + count
    won = scores[seat] >= TARGET
    return _next(
        state,
        on_table=state.on_table - kept,
        scores=scores,
        to_return=state.to_return - returned,
        debts=bump(state.debts, seat, -paid) if paid else state.debts,
        in_hand=state.family.svoyak_from if svoyak else "",
        run=run,
        balls=bump(state.balls, seat, count),
        svoyaki=bump(state.svoyaki, seat, 1) if svoyak else state.svoyaki,
        best_run=best_runs(state.best_run, seat, run),
        finished=won,
        result=Result((seat,), None, scores) if won else None,
    )


def _pass_turn(state: State, **changes: Any) -> State:
    changes.setdefault("in_hand", "")
    return _next(state, turn=1 - state.turn, run=0, **changes)


def _foul(state: State, event: Event) -> State:
    expect_details(event, fouls=True, count=MAY)
    family = state.family
    check_fouls(event, family.foul_labels)
    if event.count is not None:  # the balls pocketed on it: spotted, nothing else changes
        check_count(event.count, at_least=1, at_most=state.on_table, on_table=state.on_table)
    seat = state.turn
    other = 1 - seat
    changes: dict[str, Any] = {
        "fouls": bump(state.fouls, seat, 1),
        "in_hand": in_hand_after_foul(event, family.coloured_cue_ball),
    }
    if state.settings.foul_model == MODERN:
        if state.on_table:  # the frame is won before the table is empty, but be safe
            scores = bump(state.scores, other, 1)
            changes.update(
                scores=scores,
                on_table=state.on_table - 1,
                penalty_balls=bump(state.penalty_balls, other, 1),
            )
            if scores[other] >= TARGET:
                changes.update(finished=True, result=Result((other,), None, scores))
    elif state.scores[seat]:
        changes.update(scores=bump(state.scores, seat, -1), on_table=state.on_table + 1)
    else:
        changes["debts"] = bump(state.debts, seat, 1)
    return _pass_turn(state, **changes)


# --- texts ---------------------------------------------------------------------------------------


def _ending(after: State) -> Message | None:
    return ending(
        after.result,
        drawn=gettext_noop("the frame is drawn"),
        won=gettext_noop("%(seat)s wins the frame"),
    )


def with_ending(text: Message, after: Any) -> Message:
    ending = _ending(after)
    return text if ending is None else join_messages([text, ending], " — ")


def with_spotted(text: Message, spotted: tuple[int, ...] | int | None) -> Message:
    """A foul's description and the balls pocketed on it, spotted: their numbers, or how
    many (where balls carry no number); ``text`` alone when the marker gave none."""
    if not spotted:
        return text
    if isinstance(spotted, int):
        note = Message(gettext_noop("pocketed on it and spotted: %(count)s"), {"count": spotted})
    else:
        note = Message(
            gettext_noop("balls pocketed on it, spotted: %(balls)s"),
            {"balls": ", ".join(str(ball) for ball in spotted)},
        )
    return join_messages([text, note], "; ")


def after_foul(text: Message, after: Any) -> Message:
    """A foul's description, then where the opponent plays from, then the frame's end."""
    if after.in_hand:
        text = join_messages(
            [
                text,
                Message(
                    gettext_noop("%(other)s plays %(from)s"),
                    {"other": player_ref(after.turn), "from": IN_HAND_LABELS[after.in_hand]},
                ),
            ],
            "; ",
        )
    return with_ending(text, after)


def family_describe(before: State, event: Event, after: State) -> Message:
    seat = before.turn
    other = 1 - seat
    params: dict[str, Any] = {
        "seat": player_ref(seat),
        "other": player_ref(other),
        "shelf": after.scores[seat],
        "left": after.on_table,
    }
    kind = event.kind
    if kind in (POT, SVOYAK):
        count = after.balls[seat] - before.balls[seat]
        params["count"] = count
        if kind == POT:
            text = Message(
                gettext_noop("%(seat)s: +%(count)s, shelf %(shelf)s (on the table: %(left)s)"),
                params,
            )
        else:
            params["from"] = IN_HAND_LABELS[after.in_hand]
            text = Message(
                gettext_noop(
                    "%(seat)s: svoyak, +%(count)s, shelf %(shelf)s (on the table: "
                    "%(left)s); plays on %(from)s"
                ),
                params,
            )
        notes = []
        returned = before.to_return - after.to_return
        if returned:
            notes.append(
                Message(
                    gettext_noop("%(count)s returned to the table (handicap)"), {"count": returned}
                )
            )
        paid = before.debts[seat] - after.debts[seat]
        if paid:
            notes.append(
                Message(gettext_noop("%(count)s paid back to the table (debt)"), {"count": paid})
            )
        if notes:
            text = join_messages([text, *notes], "; ")
        return with_ending(text, after)
    if kind == STROKE:
        return Message(gettext_noop("%(seat)s: nothing pocketed; %(other)s to play"), params)
    params["fouls"] = join_messages([before.family.foul_labels[c] for c in event.fouls], ", ")
    if after.penalty_balls[other] > before.penalty_balls[other]:
        params["penalty"] = after.scores[other]
        text = gettext_noop(
            "%(seat)s: foul (%(fouls)s) — %(other)s takes a penalty ball, shelf %(penalty)s"
        )
    elif after.debts[seat] > before.debts[seat]:
        params["debt"] = after.debts[seat]
        text = gettext_noop("%(seat)s: foul (%(fouls)s) — no ball to return, owes %(debt)s")
    elif after.scores[seat] < before.scores[seat]:
        text = gettext_noop(
            "%(seat)s: foul (%(fouls)s) — returns a ball to the table, shelf %(shelf)s"
        )
    else:
        text = gettext_noop("%(seat)s: foul (%(fouls)s)")
    message = with_spotted(Message(text, params), event.count)
    return after_foul(message, after)


def family_seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return per_seat(
        state.seats,
        shelf=state.scores,
        balls=state.balls,
        svoyaki=state.svoyaki,
        fouls=state.fouls,
        best_run=state.best_run,
        penalty_balls=state.penalty_balls,
        debt=state.debts,
    )


def family_variant(family: Family) -> Variant:
    """The Variant of one game of the free-pyramid family."""

    def initial_state(settings: Settings) -> State:
        return family_initial_state(family, settings)

    return Variant(
        key=family.key,
        name=family.name,
        settings_from_dict=settings_from_dict,
        settings_fields=FAMILY_FIELDS,
        foul_labels=family.foul_labels,
        initial_state=initial_state,
        legal_actions=family_legal_actions,
        apply=family_apply,
        describe=family_describe,
        seat_stats=family_seat_stats,
        decisions=family.decisions,
        rating_family=PYRAMID,
        source_title=family.source_title,
        source_points=(*family.source_points, HANDICAP_SOURCE),
        fouls_from_source=True,
        handicap_advice=ADVICE_HEAD_START_BALLS,
    )


# --- decisions shown on the rules page -------------------------------------------------------

FOUL_SOURCE = Message(
    gettext_noop(
        "A foul: the balls pocketed on it are spotted, and the opponent takes a penalty ball "
        "from the table onto his shelf (in the old rules the offender returns a ball from his "
        "shelf instead). Fouls: a miss, the cue ball off the table, a ball touched, a double "
        "hit or push, no foot on the floor, playing before the balls stop or out of turn."
    )
)
HANDICAP_SOURCE = Message(
    gettext_noop(
        "Handicap: before the break the weaker player takes balls from the table onto his "
        "shelf (“8–7” is one ball; in the classic game, points), or the stronger player's "
        "first pots are spotted back."
    )
)
HANDICAP_DECISION = Message(
    gettext_noop(
        "Handicap: the stronger player's returned pots are spotted one by one as he pockets "
        "them; he plays on as after any legal pot. When one stroke pockets more balls than are "
        "still to go back, which go back the rules leave open: in the classic game the marker "
        "names the balls spotted, and without his word the called ball goes back first, then "
        "the others in number order (where balls carry no number or fall one at a time there "
        "is nothing to choose). A ball won by the opponent's foul is not a pot and is never "
        "returned."
    )
)
SPOTTED_DECISION = Message(
    gettext_noop(
        "A foul may carry the balls pocketed on it, as the marker gives them (their numbers, "
        "or how many where balls carry none): they are spotted, and only the log keeps them."
    )
)
WINNING_FOUL_DECISION = Message(
    gettext_noop(
        "A foul on the stroke that wins the frame does not change the result: the marker "
        "records the winning pot."
    )
)
FAMILY_DECISIONS: tuple[Message, ...] = (
    Message(
        gettext_noop(
            "Legacy foul rule: a debt is paid from the offender's next pots: those balls go "
            "back to the table instead of onto his shelf."
        )
    ),
    HANDICAP_DECISION,
    WINNING_FOUL_DECISION,
    SPOTTED_DECISION,
)
