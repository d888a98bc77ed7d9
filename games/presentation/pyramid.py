"""What the pyramid games show: the handicap line they share, and the presentation of the
free-pyramid family (Свободная, Комбинированная, Динамичная: one class, one instance per game
in its own module)."""

from django.db.models import Avg, Max, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.i18n import render_message
from games.presentation.base import Figure, Presentation, stat_float, stat_int
from games.rules import pyramid


def handicap_text(settings, names=None, unit="balls"):
    """The handicap in force in one line ("" for none): the head start in the club's
    notation ("8–7", or "+10 points") and the stronger's returned pots, with names when
    ``names`` are given."""
    handicap = settings.handicap
    if not handicap.active:
        return ""
    weaker = _player(handicap.weaker_seat, names)
    stronger = _player(handicap.stronger_seat, names)
    parts = []
    if handicap.head_start:
        if unit == "balls":
            parts.append(
                _("%(shorthand)s: %(weaker)s starts with %(n)s on the shelf")
                % {
                    "shorthand": handicap.shorthand(pyramid.TARGET),
                    "weaker": weaker,
                    "n": handicap.head_start,
                }
            )
        else:
            parts.append(
                ngettext(
                    "%(weaker)s starts with %(n)s point",
                    "%(weaker)s starts with %(n)s points",
                    handicap.head_start,
                )
                % {"weaker": weaker, "n": handicap.head_start}
            )
    if handicap.returned_pots == 1:  # («первый шар»: Russian's first plural form is 21's too)
        parts.append(_("%(stronger)s's first ball goes back") % {"stronger": stronger})
    elif handicap.returned_pots:
        parts.append(
            ngettext(
                "%(stronger)s's first %(n)s ball goes back",
                "%(stronger)s's first %(n)s balls go back",
                handicap.returned_pots,
            )
            % {"stronger": stronger, "n": handicap.returned_pots}
        )
    return "; ".join(parts)


def handicap_figures(state, unit="balls", names=None):
    """The console's short handicap figures: the head start ("8–7 · Сокол", or "+10 · Сокол"
    in points) and the stronger's pots still to return ("2 of 3 · Лёха"); without the seats'
    ``names``, "player 2"."""
    handicap = state.settings.handicap
    figures = []
    if handicap.head_start:
        start = handicap.shorthand(pyramid.TARGET) if unit == "balls" else f"+{handicap.head_start}"
        figures.append((_("Handicap"), f"{start} · " + _player(handicap.weaker_seat, names)))
    if handicap.returned_pots and state.to_return:
        left = _("%(left)s of %(total)s") % {
            "left": state.to_return,
            "total": handicap.returned_pots,
        }
        figures.append((_("Returned pots"), f"{left} · " + _player(handicap.stronger_seat, names)))
    return figures


def _player(seat, names=None):
    """The player at ``seat`` in a handicap text: his name, or "player 2" without names."""
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return _("player %(n)s") % {"n": seat + 1}


class NamedHandicap:
    """The pyramid games' console names the players in its handicap figures: their
    ``console_figures`` take the seats' names."""

    def console_named_figures(self, state, names):
        return self.console_figures(state, names)


def returns_left(state):
    """ "2 of 3 left" while the stronger's pots are still being returned, else ""."""
    total = state.settings.returned_pots
    if not total or not state.to_return:
        return ""
    return _("%(left)s of %(total)s still to return") % {"left": state.to_return, "total": total}


def shelf(count, head_start=0):
    """A shelf drawn as balls: ``count`` balls, the first ``head_start`` the handicap's."""
    return [{"handicap": i < head_start} for i in range(max(count, 0))]


BEST_RUN = Figure("best_run", gettext_lazy("Best run (balls)"), Max, stat_int("best_run"))
BALLS_PER_GAME = Figure(
    "balls_per_game", gettext_lazy("Balls per frame"), Avg, stat_float("balls"), fmt="dec"
)
FOULS_PER_GAME = Figure(
    "fouls_per_game",
    gettext_lazy("Fouls per frame"),
    Avg,
    stat_float("fouls"),
    fmt="dec",
    lower_is_better=True,
)


class FamilyPresentation(NamedHandicap, Presentation):
    """Свободная, Комбинированная, Динамичная: shelves of balls, the first to 8."""

    def __init__(self, family):
        """``family``: the game's ``pyramid.Family`` (its facts: whether a свояк counts…)."""
        self.key = family.key
        self.svoyak = family.svoyak_from is not None
        figures = [BALLS_PER_GAME]
        if self.svoyak:
            figures.append(
                Figure("svoyaki", gettext_lazy("Svoyaki"), Sum, stat_int("svoyaki")),
            )
        self.record_figures = (*figures, BEST_RUN, FOULS_PER_GAME)

    # --- the console

    def console_key_figure(self, state):
        return (_("Balls on the table"), state.on_table)

    def console_figures(self, state, names=None):
        figures = [
            (_("First to"), pyramid.TARGET),
            (_("Balls on the table"), state.on_table),
        ]
        if state.in_hand and not state.finished:
            figures.append(
                (_("Next stroke"), render_message(pyramid.IN_HAND_LABELS[state.in_hand]))
            )
        if state.premium and not state.finished:
            figures.append((_("Premium stroke"), _("object balls only, no svoyak")))
        return figures + handicap_figures(state, names=names)

    def console_seat_figures(self, state, seat):
        """The board's figures, and the fouls."""
        return [*self.board_seat_figures(state, seat), (_("fouls"), state.fouls[seat])]

    # --- the boards

    board_template = "games/presentation/pyramid.html"
    score_caption = gettext_lazy("balls on the shelf")

    def board_seat_figures(self, state, seat):
        figures = []
        if self.svoyak:
            figures.append((_("svoyaki"), state.svoyaki[seat]))
        if state.debts[seat]:
            figures.append((_("owes"), state.debts[seat]))
        return figures

    def handicap_line(self, state, names):
        return handicap_text(state.settings, names)

    def board_panel(self, state, names):
        handicap = state.settings.handicap
        return {
            "shelves": [
                {
                    "name": names[seat],
                    "balls": shelf(
                        state.scores[seat],
                        handicap.head_start if seat == handicap.weaker_seat else 0,
                    ),
                }
                for seat in range(state.seats)
            ],
            "on_table": state.on_table,
            "table_balls": shelf(state.on_table),
            "handicap": handicap_text(state.settings, names),
            "returns_left": returns_left(state),
            "in_hand": render_message(pyramid.IN_HAND_LABELS[state.in_hand])
            if state.in_hand and not state.finished
            else "",
            "premium": state.premium and not state.finished,
        }

    def target(self, settings):
        return pyramid.TARGET

    # --- the game page

    def page_figures(self, state):
        return [(_("On the table"), str(state.on_table))]
