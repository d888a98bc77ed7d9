"""Benchmarks cannot rot: every script under bench/ runs in its smoke mode (seconds, no
verdict), so a change that breaks one fails the suite. The figures themselves are measured by
running the scripts in full on a quiet machine (README, "Benchmarks").

The scripts get the suite's database server: with PostgreSQL (DATABASE_URL, as in CI) a
database of their own beside the suite's (``<name>_bench``; those that make a throwaway
``test_…`` one make ``test_<name>_bench``, never the suite's own); with SQLite a file here.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(path.name for path in (ROOT / "bench").glob("*.py"))


def bench_database_url(tmp_path):
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        base, _slash, name = url.rpartition("/")
        return f"{base}/{name.split('?')[0] or 'luza'}_bench"
    return f"sqlite:///{tmp_path / 'bench.sqlite3'}"


def test_there_are_benchmarks():
    expected = {"board_load.py", "board_push.py", "csv_import.py", "player_stats.py"}
    assert expected | {"record_stroke.py"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_benchmark_runs_in_smoke_mode(script, tmp_path):
    url = bench_database_url(tmp_path)
    env = dict(os.environ, DATABASE_URL=url)
    env.pop("DJANGO_SETTINGS_MODULE", None)  # the script sets its own
    command = [sys.executable, f"bench/{script}", "--smoke"]
    if script == "board_load.py":
        command += ["--database-url", url]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert "smoke run" in done.stdout  # it says its figures are no verdict
