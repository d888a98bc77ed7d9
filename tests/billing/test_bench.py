"""The billing benchmark's smoke mode runs (its figures are measured by running the script,
not in a timed test)."""

from tests.bench.helpers import run_bench


def test_the_billing_benchmark_runs_in_smoke_mode(tmp_path):
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    done = run_bench("billing.py", "--smoke", database_url=url, timeout=300)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("3 tables × 2 days:")
    assert "3 tables" in lines[2] and "2 shifts" in lines[2]
    assert lines[-1] == "smoke run: no verdict"
