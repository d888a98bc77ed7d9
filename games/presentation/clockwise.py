"""«Кладка шаров по часовой стрелке» as the console, the boards, the game page and the
records show it."""

from dataclasses import dataclass

from django.db.models import Avg, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.i18n import render_message
from games.presentation.base import Figure, Presentation, stat_float, stat_int
from games.rules import Pocket, clockwise


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


# Where each pocket sits on the board's SVG table (viewBox 0 0 320 272, home at the bottom)
# and where its label goes: (pocket x, pocket y, label x, label y, text-anchor).
POCKET_GEOMETRY = {
    Pocket.FAR_LEFT: (110, 35, 96, 31, "end"),
    Pocket.FAR_RIGHT: (210, 35, 224, 31, "start"),
    Pocket.RIGHT_MIDDLE: (210, 135, 226, 140, "start"),
    Pocket.NEAR_RIGHT: (210, 235, 224, 247, "start"),
    Pocket.NEAR_LEFT: (110, 235, 96, 247, "end"),
    Pocket.LEFT_MIDDLE: (110, 135, 94, 140, "end"),
}


def clockwise_pockets(state):
    """The six pockets with the balls still to go into each, and the ball on's pocket."""
    groups = {pocket: [] for pocket in Pocket}
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


def _ball_on_pocket(state):
    """The pocket the ball on must go into, or None (no ball on, or not nominated yet)."""
    return state.pocket_map.get(state.ball_on) if state.ball_on is not None else None


class ClockwisePresentation(Presentation):
    key = clockwise.VARIANT.key

    def console_key_figure(self, state):
        if state.awaiting_nomination:
            return (_("Ball on"), _("1 (the opponent nominates its pocket)"))
        pocket = state.pocket_map.get(state.ball_on) if state.ball_on is not None else None
        if pocket is None:
            return (_("Ball on"), state.ball_on or "—")
        return (_("Ball on"), f"{state.ball_on} → {render_message(pocket.label)}")

    def console_figures(self, state):
        figures = [(_("Ball on"), state.ball_on or "—")]
        if state.awaiting_nomination:
            figures.append((_("Pocket for ball 1"), _("nominated by the opponent")))
        elif state.ball_on in state.pocket_map:
            figures.append((_("Its pocket"), render_message(state.pocket_map[state.ball_on].label)))
        figures.append((_("Balls on the table"), len(state.balls_left)))
        return figures

    def console_seat_figures(self, state, seat):
        return [(_("balls"), len(state.pocketed[seat]))]

    def pocket_map(self, state):
        mapping = state.pocket_map or {}
        return [(ball, render_message(pocket.label)) for ball, pocket in sorted(mapping.items())]

    board_template = "games/presentation/clockwise.html"

    board_seat_figures = console_seat_figures

    def board_panel(self, state, names):
        pocket = _ball_on_pocket(state)
        return {
            "ball_on": state.ball_on,
            "pocket": render_message(pocket.label) if pocket else "",
            "awaiting_nomination": state.awaiting_nomination,
            "pockets": clockwise_pockets(state),
            "balls_left": len(state.balls_left),
        }

    def target(self, settings):
        return settings.winning_points

    def page_figures(self, state):
        ball_on = state.ball_on
        pocket = state.pocket_map.get(ball_on) if ball_on else None
        return [
            (_("Ball on"), "—" if ball_on is None else str(ball_on)),
            (_("Its pocket"), render_message(pocket.label) if pocket else "—"),
        ]

    record_figures = (
        Figure(
            "balls_per_game", gettext_lazy("Balls per game"), Avg, stat_float("balls"), fmt="dec"
        ),
        Figure(
            "points_per_game", gettext_lazy("Points per game"), Avg, stat_float("points"), fmt="dec"
        ),
        Figure(
            "wrong_pockets",
            gettext_lazy("Wrong pockets"),
            Sum,
            stat_int("wrong_pockets"),
            lower_is_better=True,
        ),
        Figure(
            "fouls_per_game",
            gettext_lazy("Fouls per game"),
            Avg,
            stat_float("fouls"),
            fmt="dec",
            lower_is_better=True,
        ),
    )


PRESENTATION = ClockwisePresentation()
