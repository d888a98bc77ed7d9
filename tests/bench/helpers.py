"""Running a script under bench/ as the tests do: from the repository's root, in a process of
its own, against a database of its own."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench_database_url(tmp_path):
    """PostgreSQL: ``<name>_bench`` beside the suite's database, one per worker of a parallel
    run (``<name>_bench_gw1``: two benchmarks at once never share one); SQLite: a file here."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        base, _slash, name = url.rpartition("/")
        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        return f"{base}/{name.split('?')[0] or 'luza'}_bench{'_' + worker if worker else ''}"
    return f"sqlite:///{tmp_path / 'bench.sqlite3'}"


def run_bench(script, *args, database_url=None, timeout=600):
    """Runs ``bench/<script>`` with ``args``; with ``database_url``, on that database (the
    script then sets its own settings). It must exit 0 (else its output's tail is shown);
    returns the finished process, its output as text."""
    env = None
    if database_url is not None:
        env = dict(os.environ, DATABASE_URL=database_url)
        env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, f"bench/{script}", *args]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done
