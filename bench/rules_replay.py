"""Replay speed of the rules engine: microseconds per event, for each of the four games.

For each game this plays random but legal games (every event is one that ``legal_actions``
offers, with an undo now and then), deterministically from a fixed seed, chaining games
until 10,000 events are recorded; then it times ``replay`` (the state, what every page
needs) and ``replay_log`` (states plus a description per event, what recording a stroke
and the game's log need) over all of them. Target: under 20 µs per event.

Run from the repository root:  .venv/bin/python bench/rules_replay.py
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
            stack.append(variant.apply(stack[-1], event))
            events.append(event)
        games.append((settings, events))
        recorded += len(events)
    return games


def best_time(function, games, variant) -> float:
    """The best of REPEATS runs, in CPU seconds of this process (so that other work on a
    busy machine does not count; on an idle machine it equals the wall-clock time)."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        for settings, events in games:
            function(variant, settings, events)
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    print(f"rules replay: {EVENTS:,} events per game kind, best of {REPEATS} runs")
    header = ("game", "games", "events", "replay CPU µs/event", "log CPU µs/event")
    print(f"{header[0]:<12} {header[1]:>6} {header[2]:>7} {header[3]:>20} {header[4]:>17}")
    worst = 0.0
    for key, variant in VARIANTS.items():
        games = random_games(variant, random.Random(SEED), EVENTS)
        count = sum(len(events) for _, events in games)
        per_event = best_time(replay, games, variant) / count * 1e6
        per_event_log = best_time(replay_log, games, variant) / count * 1e6
        worst = max(worst, per_event)
        print(f"{key:<12} {len(games):>6} {count:>7} {per_event:>20.2f} {per_event_log:>17.2f}")
    verdict = "OK" if worst < TARGET_US else "TOO SLOW"
    print(f"worst replay: {worst:.2f} µs/event (target < {TARGET_US:.0f} µs): {verdict}")
    return 0 if worst < TARGET_US else 1


if __name__ == "__main__":
    sys.exit(main())
