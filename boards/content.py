"""What a board shows of a game: seats, scores, the variant's panel, the ticker, the banner.

``game_board(game)`` replays the game's stored events once and returns a ``GameBoard`` that the
table board and the club wall's tiles render (``boards/templates/boards/``).
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games import rules, selectors
from games.i18n import render_message
from games.models import Game, GameStatus

TICKER_LENGTH = 5  # newest events shown at the bottom of the table board


@dataclass
class SeatView:
    index: int
    name: str
    score: int
    turn: bool = False
    winner: bool = False
    figures: list = field(default_factory=list)  # (label, value) pairs under the score
    role: str = ""  # cue_vs_hand: "cue" or "hand"


@dataclass
class PocketView:
    key: str
    label: str
    balls: str  # "1 · 7 · 13": the balls still on the table that belong in this pocket
    x: float
    y: float
    text_x: float
    text_y: float
    anchor: str
    designated: bool = False  # the ball on's pocket


@dataclass
class GameBoard:
    game: Game
    variant_key: str
    variant_name: str
    state: object
    seats: list
    ticker: list
    finished: bool
    banner: str = ""
    decided: bool = False  # the result is known while the game is still being played
    target: int | None = None
    panel: dict = field(default_factory=dict)


# Where each pocket sits on the SVG table (viewBox 0 0 320 272, home at the bottom) and where
# its label goes: (pocket x, pocket y, label x, label y, text-anchor).
POCKET_GEOMETRY = {
    rules.Pocket.FAR_LEFT: (110, 35, 96, 31, "end"),
    rules.Pocket.FAR_RIGHT: (210, 35, 224, 31, "start"),
    rules.Pocket.RIGHT_MIDDLE: (210, 135, 226, 140, "start"),
    rules.Pocket.NEAR_RIGHT: (210, 235, 224, 247, "start"),
    rules.Pocket.NEAR_LEFT: (110, 235, 96, 247, "end"),
    rules.Pocket.LEFT_MIDDLE: (110, 135, 94, 140, "end"),
}


def clockwise_pockets(state):
    """The six pockets with the balls still to go into each, and the ball on's pocket."""
    groups = {pocket: [] for pocket in rules.Pocket}
    for ball, pocket in sorted(state.pocket_map.items()):
        groups[pocket].append(str(ball))
    designated = state.pocket_map.get(state.ball_on) if state.ball_on is not None else None
    return [
        PocketView(
            key=pocket.value,
            label=render_message(pocket.label),
            balls=" · ".join(groups[pocket]),
            x=x,
            y=y,
            text_x=tx,
            text_y=ty,
            anchor=anchor,
            designated=pocket == designated,
        )
        for pocket, (x, y, tx, ty, anchor) in POCKET_GEOMETRY.items()
    ]


def _handicap(settings, names):
    """The handicap of «Кладка шаров кием» as the board shows it: a figure and two notes."""
    kind = getattr(settings, "handicap", "none")
    strokes = getattr(settings, "handicap_strokes", 0)
    strong_seat = getattr(settings, "strong_seat", 0)
    strong = names[strong_seat] if 0 <= strong_seat < len(names) else ""
    if kind == "none":
        return {"figure": "", "note": _("No handicap"), "strong": ""}
    note = {
        "start": _("the stronger starts"),
        "extra_strokes": _("extra strokes for the weaker"),
        "mixed": _("added to the stronger's total; the stronger starts"),
    }.get(kind, "")
    return {
        "figure": f"+{strokes}" if kind in ("extra_strokes", "mixed") else "",
        "note": note,
        "strong": _("stronger: %(name)s") % {"name": strong},
    }


def _seat_figures(key, state, index):
    if key == "clockwise":
        return [(_("balls"), len(state.pocketed[index]))]
    if key == "cue_run":
        figures = [
            (_("balls"), f"{state.balls_down[index]}/16"),
            (_("penalties"), state.penalties[index]),
        ]
        if state.adjusted[index] is not None and state.adjusted[index] != state.strokes[index]:
            figures.append((_("adjusted"), state.adjusted[index]))
        return figures
    return []


def _main_figure(key, state, index):
    """The big number of a seat: strokes for «Кладка шаров кием», the score otherwise."""
    return state.strokes[index] if key == "cue_run" else state.scores[index]


def _panel(key, state, settings, names):
    if key == "cork":
        return {"bank": state.bank, "fouls": state.fouls_committed}
    if key == "clockwise":
        ball_on = state.ball_on
        pocket = state.pocket_map.get(ball_on) if ball_on is not None else None
        return {
            "ball_on": ball_on,
            "pocket": render_message(pocket.label) if pocket else "",
            "awaiting_nomination": state.awaiting_nomination,
            "pockets": clockwise_pockets(state),
            "balls_left": len(state.balls_left),
        }
    if key == "cue_run":
        return {"handicap": _handicap(settings, names), "to_beat": state.to_beat}
    if key == "cue_vs_hand":
        return {"broken": state.broken}
    return {}


def _banner(result, names):
    if result is None:
        return ""
    winners = [names[i] for i in result.winners if 0 <= i < len(names)]
    if result.draw == "normal":
        return _("Draw (every run 16 in 16)")
    if result.draw:
        return _("Draw: %(names)s") % {"names": ", ".join(winners)}
    if len(winners) == 1:
        return _("Winner: %(name)s") % {"name": winners[0]}
    return _("Winners: %(names)s") % {"names": ", ".join(winners)}


def game_board(game):
    """Everything a board shows of ``game``: one replay of its stored events."""
    variant = selectors.variant_of(game)
    settings = selectors.settings_of(game)
    log = selectors.game_log(game)
    state = log[-1].after if log else variant.initial_state(settings)
    names = [seat.name for seat in selectors.seats_of(game)]
    names += [str(i + 1) for i in range(len(names), state.seats)]  # never index past the list
    key = variant.key
    finished = state.finished or game.status == GameStatus.FINISHED
    # «Кладка шаров кием» declares its result as soon as it is decided, before the runs end.
    result = state.result or getattr(state, "declared", None)
    winners = set(result.winners) if result else set()
    seats = [
        SeatView(
            index=i,
            name=names[i],
            score=_main_figure(key, state, i),
            turn=not finished and state.turn == i,
            winner=i in winners,
            figures=_seat_figures(key, state, i),
            role=(
                ("cue" if state.cue_seat == i else "hand" if state.hand_seat == i else "")
                if key == "cue_vs_hand"
                else ""
            ),
        )
        for i in range(state.seats)
    ]
    effective = [s for s in log if not s.undone and s.event.kind != rules.UNDO]
    ticker = [render_message(s.description) for s in reversed(effective[-TICKER_LENGTH:])]
    return GameBoard(
        game=game,
        variant_key=key,
        variant_name=render_message(variant.name),
        state=state,
        seats=seats,
        ticker=ticker,
        finished=finished,
        banner=_banner(result, names) if finished or result else "",
        decided=result is not None and not finished,
        target=getattr(settings, "target", None) or getattr(settings, "winning_points", None),
        panel=_panel(key, state, settings, names),
    )


def wall_grid(count):
    """(columns, rows) that fit ``count`` tiles on one 16:9 screen; 12 tables take 4 × 3."""
    for columns, rows in [(1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (4, 2), (3, 3), (4, 3)]:
        if count <= columns * rows:
            return columns, rows
    columns = 5 if count <= 20 else 6
    return columns, -(-count // columns)
