"""The tournament benchmark's smoke mode: a whole double elimination of 8 on 2 tables, every
stroke through the services (the figures are measured by running the script, not here)."""

import os
import subprocess
import sys
from pathlib import Path

from tests.bench.test_smoke import bench_database_url

ROOT = Path(__file__).resolve().parents[2]


def test_the_tournament_benchmark_runs_in_smoke_mode(tmp_path):
    # Its own database, never the suite's (the script makes a throwaway test_<name> one).
    env = dict(os.environ, DATABASE_URL=bench_database_url(tmp_path))
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "bench/tournament.py", "--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    results = [line for line in lines if line.startswith("result ")]
    assert len(results) in (14, 15)
    assert all("bracket" in line for line in results)
    assert any("board render" in line for line in results)
    assert "8 entrants, 2 tables" in done.stdout
    assert lines[-1].startswith("smoke run")
