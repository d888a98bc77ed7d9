"""«Пробка» as the console, the boards, the game page and the records show it."""

from django.db.models import Avg, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.i18n import lazy_message
from games.presentation.base import Figure, Presentation, stat_float, stat_int
from games.rules import cork


class CorkPresentation(Presentation):
    key = cork.VARIANT.key

    def console_figures(self, state):
        return [(_("Bank"), state.bank), (_("Target"), state.settings.target)]

    def console_key_figure(self, state):
        return (_("Bank"), state.bank)

    board_template = "games/presentation/cork.html"

    def board_panel(self, state, names):
        return {"bank": state.bank, "fouls": state.fouls_committed}

    def target(self, settings):
        return settings.target

    def page_figures(self, state):
        return [(_("Bank"), str(state.bank))]

    record_figures = (
        Figure("points_won", gettext_lazy("Points won"), Sum, stat_int("points_won")),
        Figure(
            "points_won_per_game",
            gettext_lazy("Points won per game"),
            Avg,
            stat_float("points_won"),
            fmt="dec",
        ),
        Figure(
            "scoring_strokes", gettext_lazy("Scoring strokes"), Sum, stat_int("scoring_strokes")
        ),
        Figure(
            "fouls_per_game",
            gettext_lazy("Fouls per game"),
            Avg,
            stat_float("fouls_total"),
            fmt="dec",
            lower_is_better=True,
        ),
    )

    def detailed_record_figures(self):
        """With the fouls per game by kind of foul (the player page)."""
        return self.record_figures + tuple(
            Figure(
                f"foul_{code}",
                lazy_message(label),
                Avg,
                Coalesce(stat_float("fouls", code), 0.0),
                fmt="dec",
                lower_is_better=True,
            )
            for code, label in cork.VARIANT.foul_labels.items()
        )


PRESENTATION = CorkPresentation()
