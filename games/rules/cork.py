"""«Пробка» — the cork game: 2–10 players, a doubling bank (docs/rules/cork.md).

[source] Every player starts with 1 point; the bank (the sum of all players' points) starts at
N, the number of players. A foul costs the fouling player the bank, and the bank doubles
(6 players: −5 and bank 12, then −11 and 24, then −23 and 48; 10 players: fouls cost 10,
20, 40). A scoring stroke (the cork knocked down by an object ball off a cushion) earns the
bank. The first player to reach the target (100) wins. The six fouls a–f are the source's.

Decisions (docs/rules/cork.md marks them; listed in ``VARIANT.decisions`` for the rules page):
- The bank doubles after an award too (it is "the sum of points received by all players").
- The players play in the order they were seated: 1, 2, … N, 1, …. A stroke with neither a
  foul nor the cork down passes the turn; after a scoring stroke the same player continues;
  after a foul the turn passes.
- Several fouls in one stroke are penalised once; the log keeps every foul ticked.
- A stroke with a foul never scores, even if the cork went down: the marker records the foul.
- Only a scoring stroke can end the game (fouls only lower a score).

Events: ``stroke`` (neither foul nor cork), ``score`` (the cork knocked down legally),
``foul`` (with one or more foul codes).

State invariant: ``bank == players · 2^k`` where k is the number of fouls and awards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .base import Action
from .base import Event
from .base import Message
from .base import RatingFamily
from .base import Result
from .base import SettingField
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
from .base import parse_settings
from .base import per_seat
from .base import player_ref
from .base import unknown_event

MIN_PLAYERS = 2
MAX_PLAYERS = 10

STROKE = "stroke"
SCORE = "score"
FOUL = "foul"

# The source's fouls a–f, in the source's order.
FOUL_LABELS: dict[str, Message] = {
    "cork_by_cue_ball": Message(gettext_noop("Cue ball played or touched the cork")),
    "cork_direct": Message(gettext_noop("Cork hit by an object ball directly, not off a cushion")),
    "miss": Message(gettext_noop("Miss")),
    "cue_ball_pocketed": Message(gettext_noop("Cue ball pocketed")),
    "touched": Message(gettext_noop("Cue ball or object ball touched by hand or clothing")),
    "cue_ball_off_table": Message(gettext_noop("Cue ball off the table (over-hard stroke)")),
}
FOUL_CODES: tuple[str, ...] = tuple(FOUL_LABELS)

SETTINGS_FIELDS: tuple[SettingField, ...] = (
    SettingField(
        name="target",
        label=Message(gettext_noop("Target")),
        kind="int",
        default=100,
        help=Message(gettext_noop("The first player to reach this score wins (the source: 100).")),
        min_value=2,
        max_value=1_000_000_000,
    ),
)


@dataclass(frozen=True)
class Settings:
    players: int
    target: int = 100

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "target": self.target}


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    return Settings(
        **parse_settings(SETTINGS_FIELDS, data, min_seats=MIN_PLAYERS, max_seats=MAX_PLAYERS)
    )


@dataclass(frozen=True)
class State:
    settings: Settings
    seats: int
    turn: int
    scores: tuple[int, ...]
    bank: int  # the next foul's cost and the next award
    fouls_committed: int = 0
    awards: int = 0
    finished: bool = False
    result: Result | None = None
    applied: int = 0
    # Per seat, for seat_stats: counts per foul code (in FOUL_CODES order), penalised
    # strokes, scoring strokes, points won and lost.
    foul_counts: tuple[tuple[int, ...], ...] = ()
    foul_strokes: tuple[int, ...] = ()
    scoring_strokes: tuple[int, ...] = ()
    points_won: tuple[int, ...] = ()
    points_lost: tuple[int, ...] = ()


def initial_state(settings: Settings) -> State:
    n = settings.players
    zeros = (0,) * n
    return State(
        settings=settings,
        seats=n,
        turn=0,
        scores=(1,) * n,
        bank=n,
        foul_counts=((0,) * len(FOUL_CODES),) * n,
        foul_strokes=zeros,
        scoring_strokes=zeros,
        points_won=zeros,
        points_lost=zeros,
    )


_ACTIONS = (
    Action(SCORE, Message(gettext_noop("Cork knocked down"))),
    Action(STROKE, Message(gettext_noop("No score"))),
    Action(FOUL, Message(gettext_noop("Foul")), fouls=FOUL_CODES),
)


def legal_actions(state: State) -> tuple[Action, ...]:
    return () if state.finished else _ACTIONS


def apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    kind = event.kind
    seat = state.turn
    bank = state.bank
    if kind == STROKE:
        expect_details(event)
        return evolve(state, turn=(seat + 1) % state.seats, applied=state.applied + 1)
    if kind == FOUL:
        expect_details(event, fouls=True)
        check_fouls(event, FOUL_LABELS)
        return evolve(
            state,
            turn=(seat + 1) % state.seats,
            scores=bump(state.scores, seat, -bank),
            bank=bank * 2,
            fouls_committed=state.fouls_committed + 1,
            applied=state.applied + 1,
            foul_counts=count_fouls(state.foul_counts, seat, FOUL_CODES, event.fouls),
            foul_strokes=bump(state.foul_strokes, seat, 1),
            points_lost=bump(state.points_lost, seat, bank),
        )
    if kind == SCORE:
        expect_details(event)
        scores = bump(state.scores, seat, bank)
        won = scores[seat] >= state.settings.target
        return evolve(
            state,
            scores=scores,
            bank=bank * 2,
            awards=state.awards + 1,
            finished=won,
            result=Result((seat,), None, scores) if won else None,
            applied=state.applied + 1,
            scoring_strokes=bump(state.scoring_strokes, seat, 1),
            points_won=bump(state.points_won, seat, bank),
        )
    raise unknown_event(kind)


def describe(before: State, event: Event, after: State) -> Message:
    seat = before.turn
    player = player_ref(seat)
    if event.kind == FOUL:
        return Message(
            gettext_noop("%(seat)s: %(fouls)s — foul −%(penalty)s = %(score)s, bank %(bank)s"),
            {
                "seat": player,
                "fouls": join_messages([FOUL_LABELS[code] for code in event.fouls]),
                "penalty": before.bank,
                "score": after.scores[seat],
                "bank": after.bank,
            },
        )
    if event.kind == SCORE:
        params = {
            "seat": player,
            "award": before.bank,
            "score": after.scores[seat],
            "bank": after.bank,
        }
        if after.finished:
            return Message(
                gettext_noop("%(seat)s: cork down, +%(award)s = %(score)s — wins the game"),
                params,
            )
        return Message(
            gettext_noop("%(seat)s: cork down, +%(award)s = %(score)s, bank %(bank)s"),
            params,
        )
    return Message(
        gettext_noop("%(seat)s: no score; %(next)s to play"),
        {"seat": player, "next": player_ref(after.turn)},
    )


def seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return per_seat(
        state.seats,
        fouls=foul_tallies(FOUL_CODES, state.foul_counts),
        fouls_total=state.foul_strokes,
        scoring_strokes=state.scoring_strokes,
        points_won=state.points_won,
        points_lost=state.points_lost,
        final_score=state.scores,
    )


VARIANT = game_variant(
    globals(),
    key="cork",
    plays_matches=False,  # played by many at once: its frames stay multi-player games
    name=Message(gettext_noop("Cork (Probka)")),
    min_seats=MIN_PLAYERS,
    max_seats=MAX_PLAYERS,
    decisions=(
        Message(gettext_noop("The bank doubles after a scoring stroke as well as after a foul.")),
        Message(
            gettext_noop(
                "A stroke with neither a foul nor the cork down passes the turn to the next "
                "player; after a scoring stroke the same player continues; after a foul the "
                "turn passes."
            )
        ),
        Message(
            gettext_noop(
                "Several fouls in one stroke are penalised once; a stroke with a foul never "
                "scores, even if the cork went down."
            )
        ),
    ),
    rating_family=RatingFamily("cork", Message(gettext_noop("Cork"))),
    source_title="«Пробка»",
    source_points=(
        Message(
            gettext_noop(
                "A small wooden peg, the cork, stands on the table. Before the game every "
                "player's score is 1 point; the sum of all the players' points, the bank, is "
                "what a foul costs and a scoring stroke earns."
            )
        ),
        Message(
            gettext_noop(
                "A foul costs the fouling player the bank, and the bank doubles. With 6 "
                "players: player 2 fouls — his score is −5, the bank 12; player 4 fouls — "
                "−11, bank 24; player 6 fouls — −23, bank 48."
            )
        ),
        Message(
            gettext_noop(
                "A scoring stroke (the cork knocked down by an object ball) earns the bank: "
                "player 6 then scores 48 + (−23) = 25. With 10 players the first three fouls "
                "cost 10, 20 and 40."
            )
        ),
        Message(gettext_noop("The first player to reach 100 points wins; a new game starts.")),
    ),
    fouls_from_source=True,
)
