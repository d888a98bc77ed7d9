"""What the marker's console shows of a game: seats and scores, the game's own figures (from
its presentation, ``games.presentation``), one button (or picker) per action the rules allow
now, and the newest events.

``console_context(game)`` is the whole console's template context; ``games.views.console``
renders it after every tap.
"""

import ast
import time
from functools import cache, lru_cache
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import offline_bundle, rules, selectors, services
from games.i18n import render_message
from games.models import GameStatus
from games.presentation import presentation_of
from games.rules import offline

# The table seen from above, home at the bottom: how the pocket buttons are laid out.
POCKET_GRID = [
    rules.Pocket.FAR_LEFT,
    rules.Pocket.FAR_RIGHT,
    rules.Pocket.LEFT_MIDDLE,
    rules.Pocket.RIGHT_MIDDLE,
    rules.Pocket.NEAR_LEFT,
    rules.Pocket.NEAR_RIGHT,
]


def device_of(request):
    """Which browser this is, for ``Game.recent_devices``: a hash of its session's key (two
    phones, or two browsers, are two sessions; the key itself is never stored). "" without
    a session."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if not key:
        return ""
    return salted_hmac("games.device", key, algorithm="sha256").hexdigest()[:16]


def shown_version(game):
    """What a console shows of ``game``: it is out of date once this changes."""
    return f"{game.last_seq}-{game.status}"


def console_context(game, *, confirm=None, device="", csrf_field=""):
    """What the console shows: seats and scores, the variant's figures, the buttons, the log;
    ``other_device``: another browser than ``device`` recorded on this game lately;
    ``csrf_field``: the request's hidden CSRF input, in every form."""
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
    disputed = replayed.disputed if in_progress else None  # the stroke being checked
    playing = in_progress and not state.finished and disputed is None
    actions = variant.legal_actions(state) if playing else ()
    undoable = replayed.undoable if in_progress else None
    # The log, newest first, each line in words (rendered here, once per tap: cheaper than a
    # filter per line in the template; the strip shows the first again).
    recent = [
        {"seq": entry.seq, "undone": entry.undone, "text": render_message(entry.description, names)}
        for entry in reversed(replayed.recent)
    ]
    for entry in recent:
        entry["html"] = _log_line_html(entry)
    outcome = None if disputed else _outcome(shown.result(state), state, seats)
    # The player to play is marked while the game goes on (not once it is over).
    marked = in_progress and not (outcome and outcome["final"])
    for row in rows:
        row["html"] = _score_row_html(row, row["turn"] and marked)
    seq = str(game.last_seq)  # in every form: plain digits, never localised
    urls = console_urls(game.pk, game.table.number)
    buttons = actions_html(variant, shown, actions, names, urls["record"], seq, csrf_field)
    return {
        "game": game,
        "variant": variant,
        "state": state,
        "rows": rows,
        "turn_name": seats[state.turn].name if seats and not state.finished else "",
        "in_progress": in_progress,
        "actions_html": buttons,
        "actions": []
        if buttons
        else [ActionView(action, variant, shown, state, names) for action in actions],
        "seat_names": names,  # the log and the labels name the players, not "Player 2"
        "recent": recent,
        "undoable": undoable,
        "confirm": confirm if (confirm != "undo" or undoable) and in_progress else None,
        "outcome": outcome,
        "disputed": disputed,
        "pocket_map": shown.pocket_map(state),
        "figures": shown.console_named_figures(state, names),
        "strip": _strip(shown, state, rows, recent, in_progress),
        "shown": shown_version(game),
        "seq": seq,
        "urls": urls,
        "csrf_field": csrf_field,
        "other_device": in_progress and services.other_devices(game, device, time.time()),
        "poll_seconds": settings.CONSOLE_POLL_SECONDS,
    }


def console_urls(pk, table_number):
    """The addresses a console links and posts to (reversed once per game, not per tap)."""
    return _console_urls(get_script_prefix(), pk, table_number)


@lru_cache(maxsize=256)
def _console_urls(script_prefix, pk, table_number):
    names = ("console", "console_stream", "record", "undo", "abandon", "finish", "dispute")
    names += ("confirm_stroke", "result", "detail")
    urls = {name: reverse(f"games:{name}", args=[pk]) for name in names}
    urls["table"] = reverse("games:table", args=[table_number])
    return urls


# The buttons and pickers of the actions the rules offer are the same at every tap that offers
# the same actions (a stroke, a score, the fouls…) but for the game's address, the seq and the
# CSRF token in their forms, and they were a third of the console's rendering: each set is
# rendered once per process (per language, variant, actions and players' names) with slots
# for those three, which every tap fills in. Actions drawn by a game's own template show the
# state: rendered anew.
ACTIONS = "games/console/console.html#actions"
# Private-use characters: no text of the page has them, escaping leaves them as they are.
_URL_SLOT, _SEQ_SLOT, _CSRF_SLOT = "\ue000url\ue000", "\ue000seq\ue000", "\ue000csrf\ue000"
_ACTIONS_KEPT = 512
_actions_slotted = {}


def actions_html(variant, shown, actions, names, record_url, seq, csrf_field):
    """The HTML of the ``actions`` offered (``rules.Action``s) as the console shows them, its
    forms posting to ``record_url`` with ``seq`` and ``csrf_field``; None when there is none,
    or when one is drawn by the game's own template."""
    if not actions or any(action.kind in shown.action_templates for action in actions):
        return None
    key = (get_language(), variant.key, repr(tuple(actions)), tuple(names))
    slotted = _actions_slotted.get(key)
    if slotted is None:
        views = [ActionView(action, variant, shown, None, names) for action in actions]
        context = {
            "actions": views,
            "urls": {"record": _URL_SLOT},
            "seq": _SEQ_SLOT,
            "csrf_field": mark_safe(_CSRF_SLOT),
        }
        slotted = render_to_string(ACTIONS, context)
        if len(_actions_slotted) >= _ACTIONS_KEPT:
            _actions_slotted.clear()
        _actions_slotted[key] = slotted
    filled = slotted.replace(_URL_SLOT, conditional_escape(record_url))
    filled = filled.replace(_SEQ_SLOT, conditional_escape(seq))
    return mark_safe(filled.replace(_CSRF_SLOT, conditional_escape(csrf_field)))


# A seat's line of the scoreboard and a line of the log, as the console's template renders
# them (its partials ``score_row`` and ``log_line``): the same at every tap that shows the
# same (a score that did not change, a line of the log already shown), so each is rendered
# once per process and kept (a few thousand lines: what the consoles of a club show).
SCORE_ROW = "games/console/console.html#score_row"
LOG_LINE = "games/console/console.html#log_line"
_LINES_KEPT = 4096
_lines = {}


def _score_row_html(row, turn):
    """A seat's ``<li>`` of the scoreboard (``turn``: marked as the player to play)."""
    seat = row["seat"]
    extras = tuple(row["extras"] or ())
    key = (
        SCORE_ROW,
        get_language(),
        seat.position,
        seat.name,
        bool(seat.player_id),
        row["score"],
        bool(turn),
        extras,
    )
    return _kept(key, lambda: {"seat": seat, "score": row["score"], "turn": turn, "extras": extras})


def _log_line_html(entry):
    """A line of the log (``entry``: its seq, whether it was undone, its text)."""
    key = (LOG_LINE, get_language(), entry["seq"], entry["undone"], entry["text"])
    return _kept(key, lambda: {"entry": entry})


def _kept(key, context):
    html = _lines.get(key)
    if html is None:
        html = render_to_string(key[0], context())
        if len(_lines) >= _LINES_KEPT:
            _lines.clear()
        _lines[key] = html
    return html


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
        # The shape of its buttons, as the offline console lays it out too.
        layout = offline.action_layout(action)
        self.spot_balls = layout["spot_balls"]
        self.spot_count = layout["spot_count"]
        self.max_count = layout["max_count"]
        self.returns = action.returns
        self.simple = layout["shape"] == "simple"  # one tap records it: nothing to choose
        # Only one thing to choose: a button per choice, one tap records it.
        self.fouls_only = layout["shape"] == "fouls"
        self.pockets_only = layout["shape"] == "pockets"
        self.count_only = layout["shape"] == "counts"
        self.counts = layout["counts"]
        self.more_counts = layout["more_counts"]


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
        "last": recent[0] if recent else None,  # newest first
    }


def _outcome(result, state, seats):
    """The result once the game is over, or once it is decided (before the end)."""
    if result is None:
        return None
    names = [seats[i].name for i in result.winners if i < len(seats)]
    return {"winners": names, "draw": result.draw, "final": state.finished}


# --- the console without the network (games/rules/offline.py, static/js/outbox.js) --------


def offline_state(game, user):
    """What the offline console starts from: the game's facts and its stored events, each
    with its log line (rendered here: the browser shows the other device's strokes of a
    conflict in these words) and whether this user recorded it."""
    variant = selectors.variant_of(game)
    names = [seat.name for seat in selectors.seats_of(game)]
    log = selectors.game_log(game)
    return {
        "game": game.pk,
        "seq": game.last_seq,
        "status": game.status,
        "variant": variant.key,
        "settings": game.settings,
        "names": names,
        "events": [
            {
                "seq": seq,
                "kind": kind,
                "payload": payload,
                "mine": recorded_by == user.pk,
                "text": render_message(step.description, names),
            }
            for (seq, kind, payload, recorded_by), step in zip(
                selectors.offline_events(game), log, strict=True
            )
        ],
    }


def offline_config(game):
    """The console page's settings of its outbox (``static/js/outbox.js``): where the engine
    (Brython in it) is, the URLs it posts to, the engine's texts in the active language."""
    return {
        "game": game.pk,
        "record_url": reverse("games:record", args=[game.pk]),
        "undo_url": reverse("games:undo", args=[game.pk]),
        "console_url": reverse("games:console", args=[game.pk]),
        "state_url": reverse("games:offline_state", args=[game.pk]),
        "worker_url": reverse("games:engine_worker"),
        "engine_url": offline_engine_url(),
        "sw_url": reverse("games:service_worker"),
        "catalog": engine_catalog(get_language()),
        "texts": _offline_texts(),
        "shapes": presentation_of(game.variant).offline_shapes,
    }


def _offline_texts():
    """The words of the console drawn offline (static/js/outbox.js), in the active language."""
    return {
        "queued": _("Not sent yet (%(n)s)"),
        "sending": _("Sending…"),
        "offline": _("No connection: strokes are kept on this device."),
        "engine_loading": _("Kept (%(n)s): shown once the rules have loaded"),
        "signed_out": _("Sign in again: %(n)s strokes wait on this device."),
        "conflict_status": _("Not sent yet (%(n)s): choose below."),
        "conflict_title": _("Another device recorded on this game meanwhile"),
        "conflict_theirs": _("Recorded there:"),
        "conflict_mine": _("Kept on this device, not sent:"),
        "keep_theirs": _("Keep theirs (drop mine)"),
        "add_mine": _("Add mine after theirs"),
        "drop_mine": _("Drop the strokes kept on this device"),
        "closed": _("This game is no longer in progress."),
        "refused_unknown": _("The server refused a stroke kept on this device."),
        "refused_http": _("The server refused a stroke kept on this device (error %(status)s)."),
        "finish_later": _("Finish the game once the connection is back."),
        "game_over": _("Game over"),
        "decided": _("The result is decided"),
        "winner": _("Winner"),
        "draw": _("Draw"),
        "nothing_yet": _("Nothing recorded yet."),
        "last_events": _("Last events"),
        "undo": _("Undo the last event…"),
        "undo_question": _("Undo this event?"),
        "undo_yes": _("Yes, undo it"),
        "no": _("Cancel"),
        "several": _("Several fouls in one stroke"),
        "record_fouls": _("Record these fouls (penalised once)"),
        "ball": _("Ball"),
        "pocket": _("Pocket"),
        "how_many": _("How many"),
        "other_balls": _("Other balls fell too"),
        "several_spotted": _("Several fouls, or balls pocketed on the foul"),
        "spotted": _("Balls pocketed on the foul (they are spotted)"),
        "called_ball": _("Called ball"),
        "called_pocket": _("Called pocket"),
        "pocketed_as_called": _("Pocketed as called"),
        "returned": _("Which balls go back (handicap)?"),
    }


def offline_engine_url():
    return f"{reverse('games:offline_engine')}?v={offline_bundle.fingerprint()[:16]}"


@cache
def _engine_strings():
    """Every string constant of the rules engine's source: its messages among them."""
    strings = set()
    for path in sorted(Path(rules.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
    return sorted(strings)


@cache
def engine_catalog(language):
    """msgid → text in ``language`` for every message of the engine that has a translation."""
    with translation.override(language):
        return {text: _(text) for text in _engine_strings() if text and _(text) != text}
