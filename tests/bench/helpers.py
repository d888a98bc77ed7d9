"""Running a script under bench/ as the tests do: from the repository's root, in a process of
its own, against a database of its own."""

import os
import subprocess
import sys
from pathlib import Path

import psycopg

from bench.support import TEMPLATE

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


_templates = {}  # the migrated template of each bench database, made once per process


def migrated_template(url):
    """PostgreSQL: the name of a migrated database ``<bench database>_template``, made anew
    (today's migrations) the first time it is asked for in this process, and the bench
    database ``url`` names made a copy of it; the scripts' throwaway databases are copies of
    it too (``bench.support.TEMPLATE``). None with SQLite."""
    if not url.startswith("postgres"):
        return None
    if url not in _templates:
        base, _slash, name = url.rpartition("/")
        template = f"{name}_template"
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            for database in (template, name):
                admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{template}"')
            env = dict(os.environ, DATABASE_URL=f"{base}/{template}")
            env.pop("DJANGO_SETTINGS_MODULE", None)
            migrate = [sys.executable, "manage.py", "migrate", "--verbosity", "0"]
            subprocess.run(migrate, cwd=ROOT, env=env, check=True, capture_output=True)
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        _templates[url] = template
    return _templates[url]


def run_bench(script, *args, database_url=None, timeout=600):
    """Runs ``bench/<script>`` with ``args``; with ``database_url``, on that database (the
    script then sets its own settings). It must exit 0 (else its output's tail is shown);
    returns the finished process, its output as text."""
    env = None
    if database_url is not None:
        env = dict(os.environ, DATABASE_URL=database_url)
        env.pop("DJANGO_SETTINGS_MODULE", None)
        template = migrated_template(database_url)
        if template:
            env[TEMPLATE] = template
    command = [sys.executable, f"bench/{script}", *args]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done
