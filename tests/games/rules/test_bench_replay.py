"""The replay benchmark's smoke mode runs every game of the engine (the figures themselves are
measured by running the script, not in a timed test)."""

import subprocess
import sys
from pathlib import Path

from games.rules import VARIANTS

ROOT = Path(__file__).resolve().parents[3]


def test_the_replay_benchmark_runs_every_game_in_smoke_mode():
    done = subprocess.run(
        [sys.executable, "bench/rules_replay.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split()[0] for line in done.stdout.splitlines()[2:-1]]
    assert sorted(rows) == sorted(VARIANTS)
    assert "smoke run" in done.stdout.splitlines()[-1]
