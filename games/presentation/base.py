"""What every game shows, and the defaults a game's presentation module overrides.

A ``Presentation`` answers, for one game (one ``rules.Variant``), what the marker's console,
the boards, the game page and the records show of its state: figures as (label, value)
pairs, the panel and tile partials of the boards, the figures of the player page and the
leaderboards. The defaults suit a game that has scores and nothing else, so a new game
overrides only what it has more of. Labels are translated when called (in a request).
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Avg, FloatField, IntegerField, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from games.i18n import minus

EVERYTHING = Q()


def stat_int(*path: str):
    """An integer from ``Seat.stats`` (``stat_int("fouls", "miss")`` is stats.fouls.miss)."""
    return Cast(KT("__".join(("stats",) + path)), IntegerField())


def stat_float(*path: str):
    return Cast(KT("__".join(("stats",) + path)), FloatField())


@dataclass(frozen=True)
class Figure:
    """One aggregate over a player's seats: ``aggregate(source, filter=only & the scope)``.

    ``fmt``: "int" or "dec" (one decimal). ``lower_is_better`` sets the default sort order.
    The seats' ``stats`` are what the game's ``rules.Variant.seat_stats`` wrote.
    """

    key: str
    label: object  # a lazy translation
    aggregate: Callable
    source: object = "id"
    only: Q = EVERYTHING
    fmt: str = "int"
    lower_is_better: bool = False

    def expression(self, scope: Q = EVERYTHING):
        if self.aggregate is Avg:
            return self.aggregate(self.source, filter=scope & self.only, output_field=FloatField())
        return self.aggregate(self.source, filter=scope & self.only)


class Presentation:
    """The defaults; one subclass per game, registered in ``games.presentation``."""

    key = ""  # the rules.Variant's key

    # --- the marker's console (games/templates/games/console/console.html) ---------------

    def console_figures(self, state) -> list:
        """The game's own figures for the whole game, as (label, value) pairs."""
        return []

    def console_named_figures(self, state, names) -> list:
        """``console_figures`` where a figure names a player (``names``: the seats' names in
        playing order); a game whose figures name players overrides this one."""
        return self.console_figures(state)

    def console_key_figure(self, state):
        """The one figure the marker needs at every stroke, as (label, value), for the strip
        at the top of the console (bank, ball on and its pocket, strokes…); None if none."""
        return None

    def console_seat_figures(self, state, seat) -> list:
        """The game's own figures of one seat, as (label, value) pairs."""
        return []

    def pocket_map(self, state) -> list:
        """(ball, pocket label) for every ball that has its own pocket, else []."""
        return []

    # A template partial ("<template>#<partial>") per action kind that the console draws in
    # its own way instead of the generic buttons; it reads ``action`` (with
    # ``action.extra``: what ``action_context`` returns) and ``game``.
    action_templates: dict = {}
    # The same actions drawn offline (static/js/outbox.js), by kind: "called_pot" (classic
    # pyramid's call, with the stroke's button beside it) or "hidden" (drawn with another).
    offline_shapes: dict = {}

    def action_context(self, state, action) -> dict:
        """What an action's own template needs besides the action."""
        return {}

    def result(self, state):
        """The result once it is known: at the end, or earlier when the game decides it."""
        return state.result

    # --- the boards (boards/templates/boards/) --------------------------------------------

    # A template with the partials "panel" (beside the seats on the table board) and "tile"
    # (one line on the wall's tile), both reading ``board.panel``; "" for none.
    board_template = ""
    score_caption = _("points")  # under each seat's big number
    normal_draw = _("Draw")  # the banner of a draw (``Result.draw`` "normal")

    def board_score(self, state, seat):
        """The big number of a seat."""
        return state.scores[seat]

    def board_score_caption(self, state) -> str:
        """What the big numbers are (under each of them)."""
        return str(self.score_caption)

    def board_seat_figures(self, state, seat) -> list:
        return []

    def board_role(self, state, seat) -> str:
        """What the seat plays with, when players have different roles; else ""."""
        return ""

    def board_panel(self, state, names) -> dict:
        """What the board's panel partial reads as ``board.panel``."""
        return {}

    def target(self, settings):
        """The score that wins, when the game has one (the boards show "to N")."""
        return None

    def handicap_line(self, state, names) -> str:
        """The handicap in force in one line, naming the players (``names``: the seats'
        names in playing order), for a stream's overlay and the API; "" for none."""
        return ""

    # --- the game page (records/templates/records/game_detail.html) ----------------------

    def page_seat_text(self, state, seat) -> str:
        """A seat's figure in the log, after each event (a negative score with U+2212)."""
        return str(minus(state.scores[seat]))

    def page_figures(self, state) -> list:
        """The game's own figures in the log, after each event, as (label, text) pairs."""
        return []

    # --- the records: player page, leaderboards, CSV exports ---------------------------

    record_figures: tuple[Figure, ...] = ()

    def detailed_record_figures(self) -> tuple[Figure, ...]:
        """The player page's figures: ``record_figures`` and any the leaderboard leaves out."""
        return self.record_figures
