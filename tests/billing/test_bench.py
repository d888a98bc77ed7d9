"""The billing benchmark's smoke mode runs (its figures are measured by running the script,
not in a timed test)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_billing_benchmark_runs_in_smoke_mode(tmp_path):
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'bench.sqlite3'}"}
    done = subprocess.run(
        [sys.executable, "bench/billing.py", "--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("3 tables × 2 days:")
    assert "3 tables" in lines[2] and "2 shifts" in lines[2]
    assert lines[-1] == "smoke run: no verdict"
