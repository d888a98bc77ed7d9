"""«Кладка шаров по порядку номеров» as the console, the boards, the game page and the
records show it: the ball on, the balls left, each player's balls."""

from django.db.models import Avg
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.presentation.base import Figure, Presentation, stat_float
from games.presentation.pyramid import (
    BALLS_PER_GAME,
    BEST_RUN,
    FOULS_PER_GAME,
    NamedHandicap,
    handicap_figures,
    handicap_text,
)
from games.rules import in_order


class InOrderPresentation(NamedHandicap, Presentation):
    key = in_order.VARIANT.key

    def console_key_figure(self, state):
        return (_("Ball on"), state.ball_on or "—")

    def console_figures(self, state, names=None):
        figures = [
            (_("Ball on"), state.ball_on or "—"),
            (_("Balls on the table"), len(state.balls_left)),
        ]
        return figures + handicap_figures(state, unit="points", names=names)

    def console_seat_figures(self, state, seat):
        return [(_("balls"), len(state.pocketed[seat]))]

    board_template = "games/presentation/in_order.html"
    board_seat_figures = console_seat_figures

    def handicap_line(self, state, names):
        return handicap_text(state.settings, names, unit="points")

    def board_panel(self, state, names):
        return {
            "ball_on": state.ball_on,
            "balls_left": [{"number": b} for b in state.balls_left],
            "shelves": [
                {"name": names[seat], "balls": [{"number": b} for b in state.pocketed[seat]]}
                for seat in range(state.seats)
            ],
            "handicap": handicap_text(state.settings, names, unit="points"),
        }

    def target(self, settings):
        return settings.winning_points

    def page_figures(self, state):
        return [(_("Ball on"), "—" if state.ball_on is None else str(state.ball_on))]

    record_figures = (
        BALLS_PER_GAME,
        Figure(
            "points_per_game", gettext_lazy("Points per game"), Avg, stat_float("points"), fmt="dec"
        ),
        BEST_RUN,
        FOULS_PER_GAME,
    )


PRESENTATION = InOrderPresentation()
