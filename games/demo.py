"""Plausible games for the demo club, played through the real services and rules engine.

Each stroke is drawn from ``legal_actions`` with weights that make pots and scoring strokes
likelier than fouls, so the demo looks like billiards rather than noise. Seeded: the same
demo every time.
"""

import dataclasses
import random
from datetime import timedelta

from django.utils import timezone

from games import rules, selectors, services
from games.models import Event, Game

# How likely the marker taps each kind of button (unlisted kinds: 1).
WEIGHTS = {
    "pot": 8,
    "score": 2,
    "stroke": 3,
    "break": 10,
    "nominate": 10,
    "order_error": 0,
    "stop": 0,
    "penalty": 0.3,
}


def next_event(state, variant, rng):
    actions = [a for a in variant.legal_actions(state) if WEIGHTS.get(a.kind, 1) > 0]
    action = rng.choices(actions, weights=[WEIGHTS.get(a.kind, 1) for a in actions])[0]
    if rng.random() < 0.9:
        return action.event()  # the designated pocket, a single foul, one ball
    event = action.pick(rng.randrange)
    if event.count and event.count > 3:  # a stroke pockets a ball or two, rarely more
        event = dataclasses.replace(event, count=1 + rng.randrange(3))
    return event


def play(*, table, variant, settings, players, marker, rng, strokes=None, undo_every=None):
    """Starts a game and records strokes until it is over (or ``strokes`` were recorded).

    ``undo_every``: after every n-th stroke the marker undoes it (the log shows undone strokes).
    A game stopped after ``strokes`` stays in progress even when the rules say it is over.
    """
    game = services.start_game(
        table=table, variant=variant, settings=settings, seats=players, marker=marker
    )
    rules_variant = selectors.variant_of(game)
    recorded = 0
    while strokes is None or recorded < strokes:
        state = selectors.game_state(game)
        if state.finished:
            return game if strokes else services.finish_game(game=game, user=marker)
        event = next_event(state, rules_variant, rng)
        game = services.record_event(
            game=game, expected_seq=game.last_seq, event=event, user=marker
        )
        recorded += 1
        if undo_every and recorded % undo_every == 0:
            game = services.undo_last(game=game, expected_seq=game.last_seq, user=marker)
    return game


# (variant, settings, seat indexes into the roster) of the finished demo games.
HISTORY = [
    ("cork", {}, [0, 1, 2, 3]),
    ("clockwise", {}, [1, 4]),
    ("cue_run", {}, [0, 5]),
    ("cue_vs_hand", {}, [10, 6]),
    ("cork", {"target": 60}, [4, 5, 6]),
    ("clockwise", {"points_per_ball": "one"}, [2, 3]),
    ("cue_run", {"handicap": "extra_strokes", "handicap_strokes": 2, "strong_seat": 0}, [1, 9]),
    ("cork", {}, [7, 8, 9, 10, 11]),
    ("cue_vs_hand", {}, [0, 7]),
    ("clockwise", {}, [8, 11]),
    # the everyday pyramid games, with the club's handicaps now and then
    ("pyramid_combined", {"weaker_seat": 1, "head_start": 1}, [0, 9]),
    ("pyramid_dynamic", {}, [1, 2]),
    ("in_order", {}, [3, 4]),
    ("pyramid_free", {"foul_model": "legacy", "weaker_seat": 1, "returned_pots": 2}, [5, 8]),
    ("pyramid_dynamic", {"weaker_seat": 0, "head_start": 2}, [10, 11]),
    ("in_order", {"points_per_ball": "one"}, [6, 7]),
    ("pyramid_combined", {}, [2, 3]),
    ("pyramid_classic", {"target": 51, "weaker_seat": 1, "head_start": 10}, [4, 5]),
]

# Club evenings: the six regulars (the first six on the roster) all play the cork game
# together, then every two-player game in three pairs, so that each of them has enough games
# of every kind for the leaderboards and a rating chart.
REGULARS = 6
EVENINGS = 3


def evening(week):
    regulars = [(week + i) % REGULARS for i in range(REGULARS)]
    pairs = [regulars[i : i + 2] for i in range(0, REGULARS, 2)]
    games = [("cork", {}, regulars)]
    for variant in rules.VARIANTS:
        if variant == "cork":
            continue
        games += [(variant, {}, pair) for pair in pairs]
        pairs = [[a, d] for (a, _), (_, d) in zip(pairs, pairs[1:] + pairs[:1], strict=True)]
    return games


STROKE_TIME = timedelta(seconds=40)  # between two taps of the demo's marker

# Every game of the rules' registry is shown in each state a page has to render (the crawl
# test checks it): finished, abandoned, with strokes undone, with a handicap (where the game
# has one: the settings of a handicapped game here) and in progress on a table of its own.
HANDICAPS = {
    "cue_run": {"handicap": "mixed", "handicap_strokes": 2, "strong_seat": 1},
    "cue_vs_hand": {"cue_seat": 1, "target": 6},
    "in_order": {"weaker_seat": 1, "head_start": 2},
    "pyramid_free": {"weaker_seat": 1, "returned_pots": 1},
    "pyramid_combined": {"weaker_seat": 0, "head_start": 2},
    "pyramid_dynamic": {"weaker_seat": 1, "head_start": 1, "returned_pots": 1},
    "pyramid_classic": {"weaker_seat": 1, "head_start": 10},
}
ABANDONED_AFTER = 6  # strokes
UNDO_EVERY = 4  # strokes


def showcase(key, index, roster):
    """(variant, settings, seats, how) of the finished and abandoned showcase games of a game;
    ``how`` is "undo" (strokes undone along the way), "abandon" or None."""
    variant = rules.get_variant(key)
    seats = [(3 * index + i) % roster for i in range(variant.min_seats)]
    others = [i for i in dict.fromkeys(seats + list(range(roster))) if i != roster - 1]
    longest = [roster - 1] + others[: variant.min_seats - 1]  # the last has the longest name
    games = [(key, {}, longest, "undo"), (key, {}, seats[::-1], "abandon")]
    if key in HANDICAPS:
        games.append((key, HANDICAPS[key], seats, None))
    return games


# The game left in progress at each game's table: seat indexes into the roster (players
# already at another table are replaced by guests) and strokes recorded so far. A game not
# listed is played by two guests (the rest of the roster stays free for the demo tournaments),
# a dozen strokes.
IN_PROGRESS = {
    "cork": ([12, 1, 3, 5, 10, 6], 9),  # six players, the longest names: the wall's big tile
    "clockwise": ([0, 2], 7),
    "cue_run": ([4, 9], 12),
}
IN_PROGRESS_SETTINGS = {"cue_run": HANDICAPS["cue_run"]}  # the board's adjusted totals
# Guests of the evening, by the names a marker types for them (none is on the roster).
GUESTS = [
    "Виктор Зайцев", "Игорь Белов", "Роман Орлов", "Тимур Сафин", "Олег Громов", "Вадим Котов",
    "Юрий Ершов", "Глеб Титов", "Антон Жуков", "Илья Быстров", "Кирилл Носов", "Марат Юсупов",
    "Степан Греков", "Фёдор Исаев", "Руслан Ким", "Борис Лавров",
]  # fmt: skip


def in_progress_seats(key, players, busy, guests):
    """The players of a game left in progress, none of them already at another table (guests
    from the iterator ``guests`` stand in)."""
    variant = rules.get_variant(key)
    if key not in IN_PROGRESS:
        return [next(guests) for _ in range(variant.min_seats)], 12
    indexes, strokes = IN_PROGRESS[key]
    seats = []
    for index in indexes:
        free = [p for p in players[index:] + players[:index] if p.pk not in busy]
        seats.append(free[0] if free else next(guests))
        busy.update(seat.pk for seat in seats[-1:] if not isinstance(seat, str))
    return seats, strokes


def backdate(game, started):
    """Moves a demo game just played into the past: a stroke every ``STROKE_TIME``."""
    events = list(Event.objects.filter(game=game))
    for event in events:
        event.recorded_at = started + event.seq * STROKE_TIME
    Event.objects.bulk_update(events, ["recorded_at"])  # Event.save() refuses any change
    finished = started + (game.last_seq + 1) * STROKE_TIME
    Game.objects.filter(pk=game.pk).update(started_at=started, finished_at=finished)


def load_demo_games(*, tables, players, marker, seed=2026):
    """Plays the demo history (spread over the past weeks) and leaves a game of each kind
    running, one per table; the tables beyond them stay free.

    Returns the number of games created; does nothing when the club already has games (the
    frames of the demo tournaments, loaded first, aside).
    """
    if Game.objects.filter(match_frame=None).exists():
        return 0
    rng = random.Random(seed)
    now = timezone.now()
    history = [(*game, None) for game in HISTORY]
    history += [(*game, None) for week in range(EVENINGS) for game in evening(week)]
    for index, key in enumerate(rules.VARIANTS):
        history += showcase(key, index, len(players))
    for number, (variant, settings, seats, how) in enumerate(history):
        game = play(
            table=tables[number % len(tables)],
            variant=variant,
            settings=settings,
            players=[players[i] for i in seats],
            marker=marker,
            rng=rng,
            strokes=ABANDONED_AFTER if how == "abandon" else None,
            undo_every=UNDO_EVERY if how == "undo" else None,
        )
        if how == "abandon":
            game = services.abandon_game(game=game, user=marker)
        started = now - timedelta(hours=20 * (len(history) - number) + rng.randint(0, 5))
        backdate(game, started)
    rng = random.Random(seed)  # the running games do not depend on the history's length
    busy, guests = set(), iter(GUESTS)
    for table, key in zip(tables, rules.VARIANTS, strict=False):
        seats, strokes = in_progress_seats(key, players, busy, guests)
        play(
            table=table,
            variant=key,
            settings=IN_PROGRESS_SETTINGS.get(key, {}),
            players=seats,
            marker=marker,
            rng=rng,
            strokes=strokes,
            undo_every=UNDO_EVERY,
        )
    return len(history) + min(len(tables), len(rules.VARIANTS))
