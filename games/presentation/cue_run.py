"""«Кладка шаров кием» as the console, the boards, the game page and the records show it."""

from django.db.models import Avg, Count, Min, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.i18n import MINUS
from games.presentation.base import Figure, Presentation, stat_float, stat_int
from games.rules import cue_run

COMPLETE_RUN = Q(stats__complete=True)


def _handicap_text(state, names):
    """The console's handicap in one line: who starts, or whose total moves by how many
    strokes («Борис −3»)."""
    settings = state.settings

    def name(seat):
        return names[seat] if seat < len(names) else str(seat + 1)

    if settings.handicap == "start":
        return _("%(name)s starts") % {"name": name(settings.strong_seat)}
    return ", ".join(
        f"{name(seat)} {'+' if delta > 0 else MINUS}{abs(delta)}"
        for seat, delta in enumerate(state.deltas)
        if delta
    )


def _board_handicap(settings, names):
    """The handicap as the board shows it: a figure and two notes."""
    kind = settings.handicap
    strong = names[settings.strong_seat] if 0 <= settings.strong_seat < len(names) else ""
    if kind == "none":
        return {"figure": "", "note": _("No handicap"), "strong": ""}
    note = {
        "start": _("the stronger starts"),
        "extra_strokes": _("extra strokes for the weaker"),
        "mixed": _("added to the stronger's total; the stronger starts"),
    }.get(kind, "")
    return {
        "figure": f"+{settings.handicap_strokes}" if kind in ("extra_strokes", "mixed") else "",
        "note": note,
        "strong": _("stronger: %(name)s") % {"name": strong},
    }


class CueRunPresentation(Presentation):
    key = cue_run.VARIANT.key

    def console_figures(self, state):
        """What the runner's run must end within: the most strokes that win, and the strokes
        that draw (a run ending at the figure to beat only draws)."""
        figures = []
        if state.to_win is not None:
            figures.append((_("To win: strokes at most"), state.to_win))
        if state.to_draw is not None:
            figures.append((_("A draw: strokes"), state.to_draw))
        return figures

    def console_named_figures(self, state, names):
        figures = self.console_figures(state)
        if state.settings.handicap != "none":
            figures.append((_("Handicap"), _handicap_text(state, names)))
        return figures

    def console_key_figure(self, state):
        return (_("Strokes"), state.strokes[state.turn])

    def console_seat_figures(self, state, seat):
        figures = [
            (_("strokes"), state.strokes[seat]),
            (_("penalties"), state.penalties[seat]),
            (_("balls down"), state.balls_down[seat]),
        ]
        if state.adjusted[seat] is not None:
            figures.append((_("total"), state.adjusted[seat]))
        return figures

    def result(self, state):
        """Declared as soon as it is decided, before the runs end."""
        return state.result or state.declared

    board_template = "games/presentation/cue_run.html"
    score_caption = gettext_lazy("strokes")
    normal_draw = gettext_lazy("Draw (every run 16 in 16)")

    def board_score(self, state, seat):
        """The strokes that decide the game: with a handicap in strokes, the adjusted total
        (strokes + the seat's handicap) as it stands; else the strokes. A finished run shows
        its total as the result counts it (a stopped run: plus the balls left)."""
        if state.adjusted[seat] is not None and any(state.deltas):
            return state.adjusted[seat]
        return state.strokes[seat] + state.deltas[seat]

    def board_score_caption(self, state):
        return _("strokes with handicap") if any(state.deltas) else str(self.score_caption)

    def board_seat_figures(self, state, seat):
        figures = [
            (_("balls"), f"{state.balls_down[seat]}/16"),
            (_("penalties"), state.penalties[seat]),
        ]
        if any(state.deltas):  # the big number is the adjusted total: the strokes beside it
            figures.append((_("strokes"), state.strokes[seat]))
        return figures

    def handicap_line(self, state, names):
        if state.settings.handicap == "none":
            return ""
        return _handicap_text(state, names)

    def board_panel(self, state, names):
        """The handicap, and the runner's figures in the big numbers' terms (with his
        handicap): the most that wins, the total that draws; ``first_run`` before any."""
        delta = state.deltas[state.turn]
        return {
            "handicap": _board_handicap(state.settings, names),
            "to_win": None if state.to_win is None else state.to_win + delta,
            "to_draw": None if state.to_draw is None else state.to_draw + delta,
            "first_run": state.to_beat is None,
            "with_handicap": any(state.deltas),
        }

    def page_seat_text(self, state, seat):
        return _("%(strokes)s strokes, %(balls)s balls") % {
            "strokes": state.strokes[seat],
            "balls": state.balls_down[seat],
        }

    def page_figures(self, state):
        return [(_("To win: strokes at most"), "—" if state.to_win is None else str(state.to_win))]

    record_figures = (
        Figure("runs", gettext_lazy("Complete runs"), Count, only=COMPLETE_RUN),
        Figure(
            "best_run",
            gettext_lazy("Best run (strokes)"),
            Min,
            stat_int("strokes"),
            only=COMPLETE_RUN,
            lower_is_better=True,
        ),
        Figure(
            "average_run",
            gettext_lazy("Average strokes per run"),
            Avg,
            stat_float("strokes"),
            only=COMPLETE_RUN,
            fmt="dec",
            lower_is_better=True,
        ),
        Figure(
            "perfect_runs",
            gettext_lazy("Perfect runs (16 in 16)"),
            Count,
            only=Q(stats__perfect=True),
        ),
    )


PRESENTATION = CueRunPresentation()
