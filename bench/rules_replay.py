"""Replay speed of the rules engine: microseconds per event, for each game of the engine.

For each game this plays random but legal games (every event is one that ``legal_actions``
offers, with an undo now and then), deterministically from a fixed seed, chaining games
until 10,000 events are recorded; then it times ``replay`` (the state, what every page
needs) and ``replay_log`` (states plus a description per event, what recording a stroke
and the game's log need) over all of them. Target: under 20 µs per event.

Run from the repository root:  .venv/bin/python bench/rules_replay.py
Smoke mode (what the test suite runs: a few hundred events, one run, no verdict):
    .venv/bin/python bench/rules_replay.py --smoke   (or --quick)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import UNDO, VARIANTS, Event, replay, replay_log  # noqa: E402

EVENTS = 10_000
REPEATS = 5
TARGET_US = 20.0
SEED = 2024
PLAYERS = {"cork": 6}  # the seed's six-player example; the others are two-player games


def random_games(variant, rng: random.Random, total: int):
    """Legal games of ``variant`` (settings dict, events) with ``total`` events in all."""
    games = []
    recorded = 0
    while recorded < total:
        settings = variant.settings_from_dict({"players": PLAYERS.get(variant.key, 2)})
        stack = [variant.initial_state(settings)]
        events: list[Event] = []
        while recorded + len(events) < total:
            if len(stack) > 1 and rng.random() < 0.03:
                events.append(Event(UNDO))
                stack.pop()
                continue
            actions = variant.legal_actions(stack[-1])
            if not actions:
                break  # the game is over: start the next one
            action = actions[rng.randrange(len(actions))]
            event = action.pick(rng.randrange)
            if action.default_pocket is not None and rng.random() < 0.7:
                event = Event(event.kind, event.fouls, event.ball, action.default_pocket)
            if action.max_count and rng.random() < 0.7:  # mostly a ball or two, as in play
                count = min(action.max_count, rng.randint(1, 2))
                event = Event(event.kind, event.fouls, event.ball, event.pocket, count)
            stack.append(variant.apply(stack[-1], event))
            events.append(event)
        games.append((settings, events))
        recorded += len(events)
    return games


def best_time(function, games, variant, repeats=REPEATS) -> float:
    """The best of ``repeats`` runs, in CPU seconds of this process (so that other work on a
    busy machine does not count; on an idle machine it equals the wall-clock time)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for settings, events in games:
            function(variant, settings, events)
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    quick = "--quick" in arguments or "--smoke" in arguments
    events, repeats = (300, 1) if quick else (EVENTS, REPEATS)
    print(f"rules replay: {events:,} events per game kind, best of {repeats} runs")
    header = ("game", "games", "events", "replay CPU µs/event", "log CPU µs/event")
    print(f"{header[0]:<16} {header[1]:>6} {header[2]:>7} {header[3]:>20} {header[4]:>17}")
    worst = 0.0
    for key, variant in VARIANTS.items():
        games = random_games(variant, random.Random(SEED), events)
        count = sum(len(events) for _, events in games)
        per_event = best_time(replay, games, variant, repeats) / count * 1e6
        per_event_log = best_time(replay_log, games, variant, repeats) / count * 1e6
        worst = max(worst, per_event)
        print(f"{key:<16} {len(games):>6} {count:>7} {per_event:>20.2f} {per_event_log:>17.2f}")
    if quick:
        print(f"worst replay: {worst:.2f} µs/event (smoke run: no verdict)")
        return 0
    verdict = "OK" if worst < TARGET_US else "TOO SLOW"
    print(f"worst replay: {worst:.2f} µs/event (target < {TARGET_US:.0f} µs): {verdict}")
    return 0 if worst < TARGET_US else 1


if __name__ == "__main__":
    sys.exit(main())
