"""Классическая пирамида («71 очко») as the console, the boards, the game page and the records
show it. The console records a pot with its own form: the called ball (only balls on the
table, each with what it scores), the called pocket, the other balls that fell, and the points
of the stroke before it is recorded (``stroke_points`` of the rules; the figures the preview
script adds up are the engine's own)."""

from django.db.models import Avg
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.i18n import render_message
from games.presentation.base import Figure, Presentation, stat_float
from games.presentation.pyramid import (
    BALLS_PER_GAME,
    BEST_RUN,
    FOULS_PER_GAME,
    NamedHandicap,
    handicap_figures,
    handicap_text,
)
from games.rules import classic_pyramid
from games.rules.classic_pyramid import LAST_BALL_BONUS, stroke_points, value


def numbered(balls, table=()):
    """Balls as the pages draw them: number, points, the ace and the last ball marked."""
    last = len(table) == 1
    return [
        {
            "number": ball,
            "points": value(ball),
            "ace": ball == classic_pyramid.ACE,
            "last": last and ball in table,
        }
        for ball in balls
    ]


class ClassicPresentation(NamedHandicap, Presentation):
    key = classic_pyramid.VARIANT.key

    # --- the console

    def console_key_figure(self, state):
        return (_("Points on the table"), state.points_on_table)

    def console_figures(self, state, names=None):
        figures = [
            (_("First to"), state.settings.target),
            (_("Points on the table"), state.points_on_table),
            (_("Balls on the table"), len(state.table)),
        ]
        if state.in_hand and not state.finished:
            figures.append((_("Next stroke"), _("from hand from home")))
        return figures + handicap_figures(state, unit="points", names=names)

    def console_seat_figures(self, state, seat):
        return [(_("balls"), len(state.shelves[seat])), (_("fouls"), state.fouls[seat])]

    # «Заказ не выполнен» is the pot form's second button: the call the marker gave goes with it.
    action_templates = {
        classic_pyramid.POT: "games/presentation/classic_pyramid.html#pot",
        classic_pyramid.STROKE: "games/presentation/classic_pyramid.html#stroke",
    }
    offline_shapes = {classic_pyramid.POT: "called_pot", classic_pyramid.STROKE: "hidden"}

    def action_context(self, state, action):
        """What the pot form shows: each ball's points, and what the preview adds up."""
        if action.kind != classic_pyramid.POT:
            return {}
        stroke = next(a for a in classic_pyramid.legal_actions(state) if a.kind == "stroke")
        return {
            "balls": numbered(action.balls, state.table),
            "returns": action.returns,
            "stroke_label": render_message(stroke.label),
            "table_count": len(state.table),
            "bonus": LAST_BALL_BONUS,
            "last_ball": stroke_points(state, state.table[0]).points
            if len(state.table) == 1
            else None,
        }

    # --- the boards

    board_template = "games/presentation/classic_pyramid.html"

    def board_seat_figures(self, state, seat):
        return [(_("balls"), len(state.shelves[seat]))]

    def handicap_line(self, state, names):
        return handicap_text(state.settings, names, unit="points")

    def board_panel(self, state, names):
        return {
            "points_left": state.points_on_table,
            "table": numbered(state.table, state.table),
            "bonus": LAST_BALL_BONUS if state.table else 0,
            "shelves": [
                {"name": names[seat], "balls": numbered(state.shelves[seat])}
                for seat in range(state.seats)
            ],
            "handicap": handicap_text(state.settings, names, unit="points"),
        }

    def target(self, settings):
        return settings.target

    # --- the game page

    def page_figures(self, state):
        return [
            (_("Points on the table"), str(state.points_on_table)),
            (_("On the table"), " ".join(str(b) for b in state.table) or "—"),
        ]

    record_figures = (
        Figure(
            "points_per_game",
            gettext_lazy("Points per frame"),
            Avg,
            stat_float("points"),
            fmt="dec",
        ),
        BALLS_PER_GAME,
        BEST_RUN,
        FOULS_PER_GAME,
    )


PRESENTATION = ClassicPresentation()
