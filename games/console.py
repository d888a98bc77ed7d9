"""What the marker's console shows of a game: seats and scores, the variant's figures, one
button (or picker) per action the rules allow now, and the newest events.

``console_context(game)`` is the whole console's template context; ``games.views.console``
renders it after every tap.
"""

from django.conf import settings
from django.utils.translation import gettext as _

from games import rules, selectors
from games.i18n import MINUS, render_message
from games.models import GameStatus

QUICK_COUNTS = 6  # "balls pocketed": one button each for 1 … 6

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
            "extras": seat_figures(game.variant, state, seat.position),
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
        "actions": [ActionView(action, variant, names) for action in actions],
        "seat_names": names,  # the log and the labels name the players, not "Player 2"
        "recent": list(reversed(replayed.recent)),
        "undoable": undoable,
        "confirm": confirm if (confirm != "undo" or undoable) and in_progress else None,
        "outcome": _outcome(state, seats),
        "pocket_map": _pocket_map(state),
        "figures": game_figures(game.variant, state, names),
        "strip": _strip(game.variant, state, rows, replayed.recent, names, in_progress),
        "shown": shown_version(game),
        "poll_seconds": settings.CONSOLE_POLL_SECONDS,
    }


class ActionView:
    """One ``rules.Action`` as buttons and pickers."""

    def __init__(self, action, variant, names=None):
        self.kind = action.kind
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
        self.max_count = action.max_count
        details = [bool(self.fouls), bool(self.balls), bool(self.pockets), bool(self.max_count)]
        # One tap records it: nothing to choose.
        self.simple = not any(details)
        # Only one thing to choose: a button per choice, one tap records it.
        self.fouls_only = details == [True, False, False, False]
        self.pockets_only = details == [False, False, True, False] and not action.default_pocket
        self.count_only = details == [False, False, False, True]
        self.counts = list(range(1, min(self.max_count or 0, QUICK_COUNTS) + 1))


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


def _strip(variant_key, state, rows, recent, names, in_progress):
    """The sticky strip at the top of the console: whose turn, his score, the variant's key
    figure and the last event — in sight wherever the marker has scrolled to."""
    turn = next((row for row in rows if row["turn"]), None)
    last = next((entry for entry in reversed(recent)), None)
    return {
        "name": turn["seat"].name if turn and in_progress and not state.finished else "",
        "score": turn["score"] if turn else None,
        "figure": key_figure(variant_key, state),
        "last": last,
        "names": names,
    }


def key_figure(variant_key, state):
    """The one figure of the variant the marker needs at every stroke, as (label, value)."""
    if variant_key == "cork":
        return (_("Bank"), state.bank)
    if variant_key == "clockwise":
        if state.awaiting_nomination:
            return (_("Ball on"), _("1 (the opponent nominates its pocket)"))
        if state.ball_on is None:
            return (_("Ball on"), "—")
        pocket = state.pocket_map.get(state.ball_on)
        value = f"{state.ball_on} → {render_message(pocket.label)}" if pocket else state.ball_on
        return (_("Ball on"), value)
    if variant_key == "cue_run":
        return (_("Strokes"), state.strokes[state.turn])
    if variant_key == "cue_vs_hand":
        return (_("On the table"), state.balls_on_table)
    return None


def game_figures(variant_key, state, names=()):
    """The variant's own figures for the whole game, as (label, value) pairs."""
    settings = state.settings
    if variant_key == "cork":
        return [
            (_("Bank"), state.bank),
            (_("Target"), settings.target),
        ]
    if variant_key == "clockwise":
        figures = [(_("Ball on"), state.ball_on or "—")]
        if state.awaiting_nomination:
            figures.append((_("Pocket for ball 1"), _("nominated by the opponent")))
        elif state.ball_on in state.pocket_map:
            figures.append((_("Its pocket"), render_message(state.pocket_map[state.ball_on].label)))
        figures.append((_("Balls on the table"), len(state.balls_left)))
        return figures
    if variant_key == "cue_run":
        figures = []
        if state.to_beat is not None:
            figures.append((_("Strokes to beat"), state.to_beat))
        if settings.handicap != "none":
            figures.append((_("Handicap"), _handicap_text(settings, state, names)))
        return figures
    if variant_key == "cue_vs_hand":
        return [(_("Balls to win"), getattr(settings, "target", "—"))]
    return []


def _handicap_text(settings, state, names):
    """The handicap in one line: who starts, or whose total moves by how many strokes."""

    def name(seat):
        return names[seat] if seat < len(names) else str(seat + 1)

    if settings.handicap == "start":
        return _("%(name)s starts") % {"name": name(settings.strong_seat)}
    return ", ".join(
        f"{name(seat)} {'+' if delta > 0 else MINUS}{abs(delta)}"
        for seat, delta in enumerate(state.deltas)
        if delta
    )


def seat_figures(variant_key, state, seat):
    """The variant's own figures for one seat, as (label, value) pairs."""
    if variant_key == "clockwise":
        return [(_("balls"), len(state.pocketed[seat]))]
    if variant_key == "cue_run":
        figures = [
            (_("strokes"), state.strokes[seat]),
            (_("penalties"), state.penalties[seat]),
            (_("balls down"), state.balls_down[seat]),
        ]
        if state.adjusted[seat] is not None:
            figures.append((_("total"), state.adjusted[seat]))
        return figures
    if variant_key == "cue_vs_hand":
        role = _("cue") if seat == state.cue_seat else _("hand")
        return [(_("plays with"), role)]
    return []


def _outcome(state, seats):
    """The result once the game is over, or once it is decided (cue_run: ``declared``)."""
    result = state.result or getattr(state, "declared", None)
    if result is None:
        return None
    names = [seats[i].name for i in result.winners if i < len(seats)]
    return {"winners": names, "draw": result.draw, "final": state.finished}


def _pocket_map(state):
    mapping = getattr(state, "pocket_map", None) or {}
    return [(ball, render_message(pocket.label)) for ball, pocket in sorted(mapping.items())]
