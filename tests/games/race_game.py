"""A small extra game that exists only in the tests: «Race», first to pot ``target`` balls.

It is written the way a new game is added (docs/architecture.md, "A new game"): one rules
module (the engine's functions and a ``VARIANT``) and one presentation entry; the fixture
``race_game`` registers both for one test. Nothing else in the code base knows of it.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Avg

from games.presentation import Figure, Presentation
from games.presentation.base import stat_float
from games.rules.base import (
    ADVICE_HEAD_START_BALLS,
    SEAT_CHOICES,
    Action,
    Event,
    Message,
    Result,
    SettingField,
    Variant,
    evolve,
    expect_details,
    game_over,
    parse_settings,
    seat_number,
    unknown_event,
)

POT, MISS = "pot", "miss"
SETTINGS_FIELDS = (
    SettingField("target", Message("Balls to win"), "int", 3, min_value=1, max_value=15),
    # The handicap its VARIANT says the records advise (a head start in balls).
    SettingField("weaker_seat", Message("Weaker player"), "choice", "1", choices=SEAT_CHOICES),
    SettingField("head_start", Message("Head start"), "int", 0, min_value=0, max_value=14),
)


@dataclass(frozen=True)
class Settings:
    players: int
    target: int
    weaker_seat: int = 1
    head_start: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "target": self.target,
            "weaker_seat": self.weaker_seat,
            "head_start": self.head_start,
        }


@dataclass(frozen=True)
class State:
    settings: Settings
    seats: int
    turn: int
    scores: tuple[int, ...]  # balls potted per seat
    misses: tuple[int, ...]
    finished: bool = False
    result: Result | None = None
    applied: int = 0


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    data = {**data, "weaker_seat": str(data.get("weaker_seat", "1"))}  # stored as an int
    clean = parse_settings(SETTINGS_FIELDS, data, min_seats=2, max_seats=3)
    weaker = int(clean["weaker_seat"])
    return Settings(clean["players"], clean["target"], weaker, clean["head_start"])


def initial_state(settings: Settings) -> State:
    """Nobody has potted yet; the weaker player has his head start (if he has a seat)."""
    zeros = (0,) * settings.players
    scores = tuple(
        settings.head_start if seat == settings.weaker_seat else 0
        for seat in range(settings.players)
    )
    return State(settings, settings.players, 0, scores, zeros)


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.finished:
        return ()
    return (Action(POT, Message("Potted")), Action(MISS, Message("Missed")))


def apply(state: State, event: Event) -> State:
    if state.finished:
        raise game_over()
    expect_details(event)
    seat = state.turn
    if event.kind == MISS:
        misses = state.misses[:seat] + (state.misses[seat] + 1,) + state.misses[seat + 1 :]
        turn = (seat + 1) % state.seats
        return evolve(state, turn=turn, misses=misses, applied=state.applied + 1)
    if event.kind != POT:
        raise unknown_event(event.kind)
    scores = state.scores[:seat] + (state.scores[seat] + 1,) + state.scores[seat + 1 :]
    won = scores[seat] >= state.settings.target
    return evolve(
        state,
        scores=scores,
        finished=won,
        result=Result((seat,), None, scores) if won else None,
        applied=state.applied + 1,
    )


def describe(before: State, event: Event, after: State) -> Message:
    what = "potted" if event.kind == POT else "missed"
    return Message("Player %(seat)s " + what, {"seat": seat_number(before.turn)})


def seat_stats(state: State) -> tuple[dict[str, Any], ...]:
    return tuple({"balls": state.scores[s], "misses": state.misses[s]} for s in range(state.seats))


VARIANT = Variant(
    key="race",
    name=Message("Race to the target"),
    settings_from_dict=settings_from_dict,
    settings_fields=SETTINGS_FIELDS,
    foul_labels={},
    initial_state=initial_state,
    legal_actions=legal_actions,
    apply=apply,
    describe=describe,
    seat_stats=seat_stats,
    max_seats=3,
    handicap_advice=ADVICE_HEAD_START_BALLS,
    decisions=(Message("A miss passes the turn."),),
    source_points=(Message("Whoever pots the target first wins."),),
)


class RacePresentation(Presentation):
    key = "race"

    def console_figures(self, state):
        return [("Balls to win", state.settings.target)]

    def console_seat_figures(self, state, seat):
        return [("misses", state.misses[seat])]

    board_seat_figures = console_seat_figures

    def target(self, settings):
        return settings.target

    def page_figures(self, state):
        return [("Misses in all", str(sum(state.misses)))]

    record_figures = (
        Figure("misses_per_game", "Misses per game", Avg, stat_float("misses"), fmt="dec"),
    )


PRESENTATION = RacePresentation()
