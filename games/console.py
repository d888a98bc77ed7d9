"""What the marker's console shows of a game: seats and scores, the game's own figures (from
its presentation, ``games.presentation``), one button (or picker) per action the rules allow
now, and the newest events.

``console_context(game)`` is the whole console's template context; ``games.views.console``
renders it after every tap.
"""

from django.conf import settings
from django.utils.translation import gettext as _

from games import rules, selectors
from games.i18n import render_message
from games.models import GameStatus
from games.presentation import presentation_of

QUICK_COUNTS = 6  # "balls pocketed": one big button each for 1 … 6, the rest behind "more"

# The table seen from above, home at the bottom: how the pocket buttons are laid out.
POCKET_GRID = [
    rules.Pocket.FAR_LEFT,
    rules.Pocket.FAR_RIGHT,
    rules.Pocket.LEFT_MIDDLE,
    rules.Pocket.RIGHT_MIDDLE,
    rules.Pocket.NEAR_LEFT,
    rules.Pocket.NEAR_RIGHT,
]


def shown_version(game):
    """What a console shows of ``game``: it is out of date once this changes."""
    return f"{game.last_seq}-{game.status}"


def console_context(game, *, confirm=None):
    """What the console shows: seats and scores, the variant's figures, the buttons, the log."""
    variant = selectors.variant_of(game)
    shown = presentation_of(variant.key)
    replayed = selectors.replayed(game)
    state = replayed.state
    in_progress = game.status == GameStatus.IN_PROGRESS
    seats = selectors.seats_of(game)
    names = [seat.name for seat in seats]
    rows = [
        {
            "seat": seat,
            "score": state.scores[seat.position],
            "turn": seat.position == state.turn,
            "extras": shown.console_seat_figures(state, seat.position),
        }
        for seat in seats
    ]
    actions = variant.legal_actions(state) if in_progress and not state.finished else ()
    undoable = replayed.undoable if in_progress else None
    return {
        "game": game,
        "variant": variant,
        "state": state,
        "rows": rows,
        "turn_name": seats[state.turn].name if seats and not state.finished else "",
        "in_progress": in_progress,
        "actions": [ActionView(action, variant, shown, state, names) for action in actions],
        "seat_names": names,  # the log and the labels name the players, not "Player 2"
        "recent": list(reversed(replayed.recent)),
        "undoable": undoable,
        "confirm": confirm if (confirm != "undo" or undoable) and in_progress else None,
        "outcome": _outcome(shown.result(state), state, seats),
        "pocket_map": shown.pocket_map(state),
        "figures": shown.console_named_figures(state, names),
        "strip": _strip(shown, state, rows, replayed.recent, in_progress),
        "shown": shown_version(game),
        "poll_seconds": settings.CONSOLE_POLL_SECONDS,
    }


class ActionView:
    """One ``rules.Action`` as buttons and pickers (or as the game's own template)."""

    def __init__(self, action, variant, shown, state, names=None):
        self.kind = action.kind
        self.template = shown.action_templates.get(action.kind, "")
        self.extra = shown.action_context(state, action) if self.template else {}
        self.label = render_message(action.label, names)
        self.fouls = [
            (code, render_message(variant.foul_labels.get(code, rules.Message(code))))
            for code in action.fouls
        ]
        self.balls = list(action.balls)
        self.default_ball = self.balls[0] if len(self.balls) == 1 else None
        offered = set(action.pockets)
        self.pockets = (
            [
                {
                    "value": pocket.value,
                    "label": render_message(pocket.label),
                    "offered": pocket in offered,
                    "default": pocket == action.default_pocket,
                    # What the big button says once this pocket is chosen (console.js).
                    "button_label": _pocket_button_label(action, pocket, self.label),
                    "wrong": action.default_pocket is not None and pocket != action.default_pocket,
                }
                for pocket in POCKET_GRID
            ]
            if action.pockets
            else []
        )
        optional = set(action.optional)
        # A foul's optional detail: the balls pocketed on it, spotted (their numbers, or how
        # many), chosen in its "several fouls" form; the one-tap foul buttons leave it out.
        self.spot_balls = list(action.extra_balls) if action.fouls else []
        self.spot_count = action.max_count if action.fouls and "count" in optional else None
        self.max_count = None if "count" in optional else action.max_count
        self.returns = action.returns
        details = [
            bool(self.fouls),
            bool(self.balls) and "ball" not in optional,
            bool(self.pockets) and "pocket" not in optional,
            bool(self.max_count),
        ]
        # One tap records it: nothing to choose.
        self.simple = not any(details)
        # Only one thing to choose: a button per choice, one tap records it.
        self.fouls_only = details == [True, False, False, False]
        self.pockets_only = details == [False, False, True, False] and not action.default_pocket
        self.count_only = details == [False, False, False, True]
        self.counts = list(range(1, min(self.max_count or 0, QUICK_COUNTS) + 1))
        self.more_counts = list(range(QUICK_COUNTS + 1, (self.max_count or 0) + 1))


def _pocket_button_label(action, pocket, default_label):
    """The big button's text when ``pocket`` is chosen: the action's own label for the
    designated pocket (or when none is designated); for a ball into another pocket, what the
    rules make of it — it does not count and goes back on the table."""
    if action.default_pocket is None or pocket == action.default_pocket:
        return default_label
    return _("Ball %(ball)s pocketed (%(pocket)s) — wrong pocket: the ball goes back") % {
        "ball": action.balls[0] if len(action.balls) == 1 else "",
        "pocket": render_message(pocket.label),
    }


def _strip(shown, state, rows, recent, in_progress):
    """The sticky strip at the top of the console: whose turn, his score, the game's key
    figure and the last event — in sight wherever the marker has scrolled to."""
    turn = next((row for row in rows if row["turn"]), None)
    return {
        "name": turn["seat"].name if turn and in_progress and not state.finished else "",
        "score": turn["score"] if turn else None,
        "figure": shown.console_key_figure(state),
        "last": recent[-1] if recent else None,
    }


def _outcome(result, state, seats):
    """The result once the game is over, or once it is decided (before the end)."""
    if result is None:
        return None
    names = [seats[i].name for i in result.winners if i < len(seats)]
    return {"winners": names, "draw": result.draw, "final": state.finished}
