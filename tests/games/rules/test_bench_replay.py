"""The replay benchmark's smoke mode runs every game of the engine (the figures themselves are
measured by running the script, not in a timed test)."""

from games.rules import VARIANTS
from tests.bench.helpers import run_bench


def test_the_replay_benchmark_runs_every_game_in_smoke_mode():
    done = run_bench("rules_replay.py", "--quick", timeout=120)
    rows = [line.split()[0] for line in done.stdout.splitlines()[2:-1]]
    assert sorted(rows) == sorted(VARIANTS)
    assert "smoke run" in done.stdout.splitlines()[-1]
