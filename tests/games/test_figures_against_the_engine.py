"""Every figure a game's presentation shows — the marker's console (its figures, the strip's
key figure, each seat's figures), the table board (each seat's big number and figures, the
game's panel, the wall's tile line) and the game page (the log's figures) — is read in
Russian and in English and recomputed from the engine's state (issue 22 item 2).

A figure is checked by what its label *says*, in each language: ``SAYS`` maps every label
text to its meaning, and ``facts(key)`` computes each meaning from the state independently of the
presentation (the balls on the table from the balls, the bank from the fouls and awards, what
wins a run of «Кладка шаров кием» by finishing the run in the engine). A label the tables do
not know fails the test, so a new figure gets its meaning here. «Ударов, чтобы выиграть: 17»
where 17 only draws is the mistake this catches: the Russian label said "wins".

The states are mid-game states of every game of ``games.rules.VARIANTS``, with and without
its handicaps, played by the demo club's random marker (``games.demo.next_event``).
"""

import functools
import random
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import demo, rules
from games.i18n import MINUS
from games.presentation import presentation_of
from games.rules import cue_run

NAMES = ["Константин Преображенский", "Лена", "Сокол"]

# The settings each game is played with here: the defaults, the demo's handicaps, and more.
SETTINGS = {
    "cork": [{"players": 3}, {"players": 2, "target": 60}],
    "clockwise": [{}, {"points_per_ball": "one"}],
    "cue_run": [
        {},
        {"players": 3},
        {"handicap": "start", "strong_seat": 1},
        {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 0},
        {"handicap": "mixed", "handicap_strokes": 2, "strong_seat": 1},
    ],
    "cue_vs_hand": [{}, demo.HANDICAPS["cue_vs_hand"]],
    "in_order": [{}, demo.HANDICAPS["in_order"], {"returned_pots": 2, "weaker_seat": 0}],
    "pyramid_free": [{"foul_model": "legacy"}, demo.HANDICAPS["pyramid_free"]],
    "pyramid_combined": [{}, demo.HANDICAPS["pyramid_combined"]],
    "pyramid_dynamic": [{}, demo.HANDICAPS["pyramid_dynamic"]],
    "pyramid_classic": [{}, demo.HANDICAPS["pyramid_classic"], {"returned_pots": 2}],
}


# Strokes a game opens with before the random marker takes over (a debt to the table in the
# legacy foul rule needs a foul before any pot).
OPENINGS = {("pyramid_free", 0): [rules.Event("foul", fouls=("miss",))] * 2}


def states(key):
    """Every state of a few random games of ``key`` (seeded), from the break to the end."""
    variant = rules.VARIANTS[key]
    found = []
    for number, settings in enumerate(SETTINGS[key]):
        settings = {"players": 2, **settings}
        state = variant.initial_state(variant.settings_from_dict(settings))
        for event in OPENINGS.get((key, number), []):
            found.append(state)
            state = variant.apply(state, event)
        rng = random.Random(f"{key}-{number}")
        for _ in range(400):
            found.append(state)
            if state.finished:
                break
            state = variant.apply(state, demo.next_event(state, variant, rng))
    return found


# --- what the labels say, in each language --------------------------------------------------

SAYS = {
    "ru": {
        "Банк": "bank",
        "Цель": "target",
        "Следующий штраф": "foul_cost",
        "Очередной шар": "ball_on",
        "Его луза": "ball_on_pocket",
        "Луза для «единицы»": "ball_1_pocket",
        "Шаров на столе": "balls_on_table",
        "На столе": "on_table",
        "шаров": "seat_balls",
        "очков": "score",
        "Удары": "runner_strokes",
        "ударов": "seat_strokes",
        "штрафы": "seat_penalties",
        "шаров положено": "seat_balls_down",
        "итог": "seat_total",
        "ударов с форой": "seat_total_so_far",
        "Для победы: ударов не больше": "to_win",
        "Ничья: ударов": "to_draw",
        "Ударов, чтобы выиграть": "to_win",  # (the label of before: 17 where 17 drew)
        "Уложиться в": "to_draw_with_handicap",  # (of before: «не больше», so a draw too)
        "Для победы": "to_win_with_handicap",
        "Для победы, не больше": "to_win_with_handicap",
        "Фора": "handicap",
        "Шаров для победы": "target",
        "играет": "seat_role",
        "Игра до": "target",
        "Очков на столе": "points_on_table",
        "Следующий удар": "next_stroke",
        "Премиальный удар": "premium",
        "Возврат шаров": "returns_left",
        "ошибок": "seat_fouls",
        "свояков": "seat_svoyaki",
        "долг": "seat_debt",
        "шаров на полке": "score",
        "на столе": "on_table",
    },
    "en": {
        "Bank": "bank",
        "Target": "target",
        "Next foul costs": "foul_cost",
        "Ball on": "ball_on",
        "Its pocket": "ball_on_pocket",
        "Pocket for ball 1": "ball_1_pocket",
        "Balls on the table": "balls_on_table",
        "On the table": "on_table",
        "balls": "seat_balls",
        "points": "score",
        "Strokes": "runner_strokes",
        "strokes": "seat_strokes",
        "penalties": "seat_penalties",
        "balls down": "seat_balls_down",
        "total": "seat_total",
        "strokes with handicap": "seat_total_so_far",
        "To win: strokes at most": "to_win",
        "A draw: strokes": "to_draw",
        "Strokes to beat": "to_draw",  # (of before: the total to get under)
        "To beat": "to_draw_with_handicap",
        "To win": "to_win_with_handicap",
        "To win, at most": "to_win_with_handicap",
        "Handicap": "handicap",
        "Balls to win": "target",
        "plays with": "seat_role",
        "First to": "target",
        "Points on the table": "points_on_table",
        "Next stroke": "next_stroke",
        "Premium stroke": "premium",
        "Returned pots": "returns_left",
        "fouls": "seat_fouls",
        "svoyaki": "seat_svoyaki",
        "owes": "seat_debt",
        "balls on the shelf": "score",
        "on the table": "on_table",
    },
}
# Figures written inside a phrase (the board's notes): pattern → meaning.
PHRASES = {
    "ru": [(r"Ничья при (\d+)", "to_draw_with_handicap")],
    "en": [(r"A draw at (\d+)", "to_draw_with_handicap")],
}
# Words the figures use as values, in each language.
WORDS = {
    "ru": {
        "nominated": "назначает соперник",
        "cue": "кий",
        "hand": "рука",
        "home": "с руки из дома",
        "anywhere": "с руки с любого места",
        "premium": "только прицельные шары, без свояка",
        "of": "из",
        "player": "игрок",
    },
    "en": {
        "nominated": "nominated by the opponent",
        "cue": "cue",
        "hand": "hand",
        "home": "from hand from home",
        "anywhere": "from hand from anywhere",
        "premium": "object balls only, no svoyak",
        "of": "of",
        "player": "player",
    },
}
POCKETS = {
    "ru": {
        "far_left": "дальняя левая угловая",
        "far_right": "дальняя правая угловая",
        "right_middle": "правая средняя",
        "near_right": "правая угловая со стороны «дома»",
        "near_left": "левая угловая со стороны «дома»",
        "left_middle": "левая средняя",
    },
    "en": {
        "far_left": "far left corner",
        "far_right": "far right corner",
        "right_middle": "right middle",
        "near_right": "near right corner (home side)",
        "near_left": "near left corner (home side)",
        "left_middle": "left middle",
    },
}


# --- the facts, from the state ------------------------------------------------------------


def number(value):
    """A figure's number as the pages write it (a negative one with U+2212)."""
    return str(value).replace("-", MINUS) if isinstance(value, int) else str(value)


def balls_in_game(state):
    """The balls of a game: 16 in Свободная (any may be struck), else the 15 object balls."""
    return 16 if state.family.key == "pyramid_free" else 15


def classic_points(balls):
    return sum(11 if ball == 1 else ball for ball in balls) + (10 if balls else 0)


def finish_run(state, strokes):
    """The state once the runner of «Кладка шаров кием» has finished his run in exactly
    ``strokes`` strokes (misses first, then a ball a stroke): the engine's own answer."""
    variant = rules.VARIANTS["cue_run"]
    runner = state.turn
    misses = strokes - state.strokes[runner] - (cue_run.BALLS - state.balls_down[runner])
    assert misses >= 0
    for _ in range(misses):
        state = variant.apply(state, rules.Event("stroke"))
    while state.balls_down[runner] < cue_run.BALLS:
        state = variant.apply(state, rules.Event("pot"))
    return state


def run_outcome(state, strokes):
    """ "win", "draw" or "loss" (so far) for the runner finishing with ``strokes``."""
    runner = state.turn
    after = finish_run(state, strokes)
    result = after.result or after.declared
    if result is not None and after.runs_done[runner]:
        if runner in result.winners:
            return "draw" if result.draw else "win"
        return "loss"
    # Runs still to come: his total against the best complete one before him.
    if after.adjusted[runner] < state.best:
        return "win"
    return "draw" if after.adjusted[runner] == state.best else "loss"


@functools.cache
def most_that_wins(state):
    """The most strokes the runner may finish with and win, found by finishing his run."""
    if state.best is None or state.finished:
        return None  # nothing to win against yet, or nothing left to play
    least = state.strokes[state.turn] + cue_run.BALLS - state.balls_down[state.turn]
    found = None
    for strokes in range(least, max(least, state.best + 8) + 1):
        if run_outcome(state, strokes) == "win":
            found = strokes
    return found


@functools.cache
def what_draws(state):
    """The strokes with which the runner's run ends level with the best: the first finish
    after the winning ones (a run of 16 in 16 aside, which may draw below them)."""
    if state.best is None or state.finished:
        return None
    least = state.strokes[state.turn] + cue_run.BALLS - state.balls_down[state.turn]
    finishes = range(least, max(least, state.best + 8) + 1)
    draws = [strokes for strokes in finishes if run_outcome(state, strokes) == "draw"]
    return max(draws) if draws else None


def seat_delta(state, seat):
    """What the handicap adds to a seat's strokes: the weaker's extra strokes come off his
    total, the mixed handicap's strokes onto the stronger's."""
    settings = state.settings
    strong = settings.strong_seat
    if settings.handicap == "extra_strokes" and seat != strong:
        return -settings.handicap_strokes
    if settings.handicap == "mixed" and seat == strong:
        return settings.handicap_strokes
    return 0


def runner_delta(state):
    return seat_delta(state, state.turn)


def total_so_far(state, seat):
    """A seat's strokes with its handicap; a stopped run counts the balls it left too."""
    left = cue_run.BALLS - state.balls_down[seat] if state.stopped[seat] else 0
    return state.strokes[seat] + left + seat_delta(state, seat)


def dash(value, delta=0):
    return "—" if value is None else str(value + delta)


def pyramid_handicap(state, names, lang, unit):
    handicap = state.settings.handicap
    weaker = names[handicap.weaker_seat]
    if unit == "balls":
        return f"8–{8 - handicap.head_start} · {weaker}"
    return f"+{handicap.head_start} · {weaker}"


def returns_left(state, names, lang):
    settings = state.settings
    stronger = names[1 - settings.weaker_seat]
    left = WORDS[lang]["of"]
    return f"{state.to_return} {left} {settings.returned_pots} · {stronger}"


def cue_run_handicap(state, names, lang):
    settings = state.settings
    if settings.handicap == "start":
        starts = {"ru": "%s начинает", "en": "%s starts"}[lang]
        return starts % names[settings.strong_seat]
    seat = settings.strong_seat if settings.handicap == "mixed" else 1 - settings.strong_seat
    sign = "+" if settings.handicap == "mixed" else MINUS
    return f"{names[seat]} {sign}{settings.handicap_strokes}"


def in_hand(state, lang):
    return WORDS[lang]["home" if state.in_hand == "home" else "anywhere"]


def facts(key):
    """meaning → fact(state, seat, names, lang) for the game ``key``."""
    common = {
        "score": lambda st, seat, names, lang: number(st.scores[seat]),
        "page_seat": lambda st, seat, names, lang: number(st.scores[seat]),
    }
    if key == "cork":
        return common | {
            "bank": lambda st, *_: number(st.seats * 2 ** (st.fouls_committed + st.awards)),
            "foul_cost": lambda st, *_: (
                MINUS + str(st.seats * 2 ** (st.fouls_committed + st.awards))
            ),
            "target": lambda st, *_: number(st.settings.target),
        }
    if key == "clockwise":

        def pocket_of(st, ball, lang):
            steps = ball - st.anchor_ball
            return POCKETS[lang][st.anchor_pocket.next_clockwise(steps).value]

        def ball_on(st, seat, names, lang, key_figure=False):
            if not st.balls_left or st.finished:
                return "—"
            on = st.balls_left[0]
            if not key_figure:
                return str(on)
            if st.anchor_pocket is None:
                return {
                    "ru": "1 (лузу назначает соперник)",
                    "en": "1 (the opponent nominates its pocket)",
                }[lang]
            return f"{on} → {pocket_of(st, on, lang)}"

        return common | {
            "ball_on": ball_on,
            "key:ball_on": lambda st, seat, names, lang: ball_on(st, seat, names, lang, True),
            "ball_on_pocket": lambda st, seat, names, lang: (
                pocket_of(st, st.balls_left[0], lang)
                if st.anchor_pocket is not None and st.balls_left and not st.finished
                else "—"
            ),
            "ball_1_pocket": lambda st, seat, names, lang: WORDS[lang]["nominated"],
            "balls_on_table": lambda st, *_: str(len(st.balls_left)),
            "seat_balls": lambda st, seat, *_: str(len(st.pocketed[seat])),
        }
    if key == "cue_run":
        return common | {
            "runner_strokes": lambda st, *_: str(st.strokes[st.turn]),
            "page_seat": lambda st, seat, names, lang: (
                {
                    "ru": "%s уд., %s ш.",
                    "en": "%s strokes, %s balls",
                }[lang]
                % (st.strokes[seat], st.balls_down[seat])
            ),
            "seat_strokes": lambda st, seat, *_: str(st.strokes[seat]),
            "seat_penalties": lambda st, seat, *_: str(st.penalties[seat]),
            "seat_balls_down": lambda st, seat, *_: str(st.balls_down[seat]),
            "seat_balls": lambda st, seat, *_: f"{st.balls_down[seat]}/16",
            "seat_total": lambda st, seat, *_: str(st.adjusted[seat]),
            "seat_total_so_far": lambda st, seat, *_: number(total_so_far(st, seat)),
            "to_win": lambda st, *_: dash(most_that_wins(st)),
            "to_draw": lambda st, *_: dash(what_draws(st)),
            "to_win_with_handicap": lambda st, *_: dash(most_that_wins(st), runner_delta(st)),
            "to_draw_with_handicap": lambda st, *_: dash(what_draws(st), runner_delta(st)),
            "handicap": lambda st, seat, names, lang: cue_run_handicap(st, names, lang),
            "panel:handicap": lambda st, *_: f"+{st.settings.handicap_strokes}",
            "tile:handicap": lambda st, *_: f"+{st.settings.handicap_strokes}",
            # The big number without a handicap in strokes: the strokes.
            "board-score:seat_strokes": lambda st, seat, *_: number(total_so_far(st, seat)),
        }
    if key == "cue_vs_hand":
        return common | {
            "target": lambda st, *_: str(st.settings.target),
            "on_table": lambda st, *_: str(15 - sum(st.scores)),
            "board-score:seat_balls": lambda st, seat, *_: str(st.scores[seat]),
            "seat_role": lambda st, seat, names, lang: WORDS[lang][
                "cue" if seat == st.settings.cue_seat else "hand"
            ],
        }
    if key == "in_order":
        return common | {
            "ball_on": lambda st, *_: (
                str(st.balls_left[0]) if st.balls_left and not st.finished else "—"
            ),
            "balls_on_table": lambda st, *_: str(len(st.balls_left)),
            "seat_balls": lambda st, seat, *_: str(len(st.pocketed[seat])),
            "handicap": lambda st, seat, names, lang: pyramid_handicap(st, names, lang, "points"),
            "returns_left": lambda st, seat, names, lang: returns_left(st, names, lang),
            "seat_fouls": lambda st, seat, *_: str(st.fouls[seat]),
        }
    if key == "pyramid_classic":
        return common | {
            "target": lambda st, *_: str(st.settings.target),
            "points_on_table": lambda st, *_: str(classic_points(st.table)),
            "balls_on_table": lambda st, *_: str(len(st.table)),
            "on_table": lambda st, *_: " ".join(map(str, st.table)) or "—",
            "tile:on_table": lambda st, *_: str(classic_points(st.table)),
            "next_stroke": lambda st, seat, names, lang: in_hand(st, lang),
            "handicap": lambda st, seat, names, lang: pyramid_handicap(st, names, lang, "points"),
            "returns_left": lambda st, seat, names, lang: returns_left(st, names, lang),
            "seat_balls": lambda st, seat, *_: str(len(st.shelves[seat])),
            "seat_fouls": lambda st, seat, *_: str(st.fouls[seat]),
        }
    assert key in ("pyramid_free", "pyramid_combined", "pyramid_dynamic"), f"facts of {key}?"
    return common | {
        "target": lambda st, *_: "8",
        "balls_on_table": lambda st, *_: str(balls_in_game(st) - sum(st.scores)),
        "on_table": lambda st, *_: str(balls_in_game(st) - sum(st.scores)),
        "next_stroke": lambda st, seat, names, lang: in_hand(st, lang),
        "premium": lambda st, seat, names, lang: WORDS[lang]["premium"],
        "handicap": lambda st, seat, names, lang: pyramid_handicap(st, names, lang, "balls"),
        "returns_left": lambda st, seat, names, lang: returns_left(st, names, lang),
        "seat_fouls": lambda st, seat, *_: str(st.fouls[seat]),
        "seat_svoyaki": lambda st, seat, *_: str(st.svoyaki[seat]),
        "seat_debt": lambda st, seat, *_: str(st.debts[seat]),
    }


# --- what the presentation shows -------------------------------------------------------------


def shown_figures(key, state, names):
    """(where, seat, label, value) of every labelled figure shown of ``state``."""
    shown = presentation_of(key)
    found = [
        ("console", None, label, value)
        for label, value in shown.console_named_figures(state, names)
    ]
    key_figure = shown.console_key_figure(state)
    if key_figure is not None:
        found.append(("key", None, *key_figure))
    found += [("page", None, label, value) for label, value in shown.page_figures(state)]
    for seat in range(state.seats):
        found += [
            ("seat", seat, label, value) for label, value in shown.console_seat_figures(state, seat)
        ]
        found += [
            ("board-seat", seat, label, value)
            for label, value in shown.board_seat_figures(state, seat)
        ]
        # The game page's figure of a seat after each event (no label: the seat's column).
        found.append(("page-seat", seat, "", shown.page_seat_text(state, seat)))
        # The big number, labelled by its caption.
        found.append(
            ("board-score", seat, shown.board_score_caption(state), shown.board_score(state, seat))
        )
    return found


PANEL_PAIR = re.compile(
    r'<p class="figure-label">([^<:]+)</p>\s*<p class="(?:figure-value|ball)[^"]*"[^>]*>([^<]+)</p>'
)
INLINE_PAIR = re.compile(r"([^<>:·]+?):? <b[^>]*>([^<]+)</b>")


def panel_figures(key, state, names, finished=False):
    """The (label, value) pairs the board's panel and the wall's tile line show."""
    shown = presentation_of(key)
    if not shown.board_template:
        return []  # (every game has one now)
    board = SimpleNamespace(
        panel=shown.board_panel(state, names),
        target=shown.target(state.settings),
        finished=finished or state.finished,
    )
    panel = render_to_string(f"{shown.board_template}#panel", {"board": board})
    tile = render_to_string(f"{shown.board_template}#tile", {"board": board})
    pairs = [("panel", label.strip(), value.strip()) for label, value in PANEL_PAIR.findall(panel)]
    pairs += [
        ("panel", label.strip(), value.strip()) for label, value in INLINE_PAIR.findall(panel)
    ]
    pairs += [("tile", label.strip(), value.strip()) for label, value in INLINE_PAIR.findall(tile)]
    lang = translation.get_language()
    for pattern, meaning in PHRASES[lang]:
        pairs += [("phrase", meaning, value) for value in re.findall(pattern, panel + tile)]
    return pairs


# What each game shows at some point of the games played here (so that a figure the
# presentation stops showing, or a state the random games never reach, is noticed).
EVERY = {
    "cork": {"bank", "target", "foul_cost", "score"},
    "clockwise": {"ball_on", "ball_on_pocket", "ball_1_pocket", "balls_on_table", "seat_balls"},
    "cue_run": {
        "runner_strokes", "seat_strokes", "seat_penalties", "seat_balls_down", "seat_balls",
        "seat_total", "seat_total_so_far", "to_win", "to_draw", "to_win_with_handicap",
        "to_draw_with_handicap", "handicap",
    },
    "cue_vs_hand": {"target", "on_table", "seat_role", "seat_balls"},
    "in_order": {"ball_on", "balls_on_table", "seat_balls", "handicap", "returns_left", "score"},
    "pyramid_classic": {
        "target", "points_on_table", "balls_on_table", "on_table", "next_stroke", "handicap",
        "returns_left", "seat_balls", "seat_fouls", "score",
    },
    "pyramid_free": {
        "target", "balls_on_table", "on_table", "next_stroke", "returns_left", "seat_fouls",
        "seat_debt", "score",
    },
    "pyramid_combined": {
        "target", "balls_on_table", "on_table", "next_stroke", "handicap", "seat_fouls",
        "seat_svoyaki", "score",
    },
    "pyramid_dynamic": {
        "target", "balls_on_table", "on_table", "next_stroke", "premium", "handicap",
        "returns_left", "seat_fouls", "seat_svoyaki", "score",
    },
}  # fmt: skip


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("key", list(rules.VARIANTS))
def test_every_figure_says_what_the_engine_says(key, lang):
    known = facts(key)
    checked = set()
    with translation.override(lang):
        for index, state in enumerate(states(key)):
            names = NAMES[: state.seats] + [str(i) for i in range(3, state.seats + 1)]
            figures = shown_figures(key, state, names)
            if index % 3 == 0:
                pairs = panel_figures(key, state, names)
                figures += [(where, state.turn, label, value) for where, label, value in pairs]
            for where, seat, label, value in figures:
                label = str(label)
                meaning = SAYS[lang].get(label)
                if where in ("phrase", "page-seat"):
                    meaning = label or "page_seat"
                assert meaning is not None, f"{key}: what does «{label}» ({where}) say?"
                fact = known.get(f"{where}:{meaning}") or known.get(meaning)
                assert fact is not None, f"{key}: «{label}» ({where}) says {meaning}: no such fact"
                expected = fact(state, seat if seat is not None else state.turn, names, lang)
                assert number(value) == expected, (
                    f"{key} ({lang}), {where}: «{label}» shows {value}, the state says {expected}"
                    f" (settings {state.settings}, after {state.applied} events)"
                )
                checked.add(meaning)
    assert EVERY[key] <= checked, f"{key}: never shown: {EVERY[key] - checked}"
