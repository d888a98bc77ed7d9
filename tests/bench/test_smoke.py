"""Benchmarks cannot rot: every script under bench/ runs in its smoke mode (seconds, no
verdict), so a change that breaks one fails the suite. The figures themselves are measured by
running the scripts in full on a quiet machine (docs/benchmarks.md).

The scripts get the suite's database server: with PostgreSQL (DATABASE_URL, as in CI) a
database of their own beside the suite's (``<name>_bench``; those that make a throwaway
``test_…`` one make ``test_<name>_bench``, never the suite's own); with SQLite a file here.
"""

import pytest

from tests.bench.helpers import ROOT, bench_database_url, run_bench

# Scripts whose smoke run a test of their own makes, checking what it prints: not twice.
OWN_TESTS = {
    "billing.py": "tests/billing/test_bench.py",
    "tournament.py": "tests/tournaments/test_bench.py",
}
SCRIPTS = sorted(path.name for path in (ROOT / "bench").glob("*.py") if path.name not in OWN_TESTS)


def test_there_are_benchmarks():
    expected = {"board_load.py", "board_push.py", "csv_import.py", "player_stats.py", "fiscal.py"}
    assert expected | {"record_stroke.py", "rating_backtest.py"} <= set(SCRIPTS)
    assert set(OWN_TESTS).isdisjoint(SCRIPTS)


@pytest.mark.parametrize("script", sorted(OWN_TESTS))
def test_the_others_have_a_smoke_test_of_their_own(script):
    assert (ROOT / "bench" / script).exists()
    assert f'run_bench("{script}", "--smoke"' in (ROOT / OWN_TESTS[script]).read_text()


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_benchmark_runs_in_smoke_mode(script, tmp_path):
    url = bench_database_url(tmp_path)
    args = ["--database-url", url] if script == "board_load.py" else []
    done = run_bench(script, "--smoke", *args, database_url=url)
    assert "smoke run" in done.stdout  # it says its figures are no verdict
