"""«Снимание шаров рукой» as the console, the boards, the game page and the records show it."""

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Outcome
from games.presentation.base import Figure, Presentation
from games.rules import cue_vs_hand


def role_figures(role, games_label, wins_label):
    """The games a player played in ``role`` (cue or hand), and those he won."""
    return (
        Figure(f"{role}_games", games_label, Count, only=Q(stats__role=role)),
        Figure(f"{role}_wins", wins_label, Count, only=Q(stats__role=role, outcome=Outcome.WIN)),
    )


class CueVsHandPresentation(Presentation):
    key = cue_vs_hand.VARIANT.key

    def console_figures(self, state):
        return [(_("Balls to win"), state.settings.target)]

    def console_key_figure(self, state):
        return (_("On the table"), state.balls_on_table)

    def console_seat_figures(self, state, seat):
        role = _("cue") if seat == state.cue_seat else _("hand")
        return [(_("plays with"), role)]

    board_template = "games/presentation/cue_vs_hand.html"
    score_caption = gettext_lazy("balls")

    def board_role(self, state, seat):
        return _("cue") if seat == state.cue_seat else _("hand") if seat == state.hand_seat else ""

    def board_panel(self, state, names):
        return {"broken": state.broken}

    def target(self, settings):
        return settings.target

    record_figures = (
        *role_figures("cue", gettext_lazy("Games with the cue"), gettext_lazy("Won with the cue")),
        *role_figures("hand", gettext_lazy("Games by hand"), gettext_lazy("Won by hand")),
    )


PRESENTATION = CueVsHandPresentation()
