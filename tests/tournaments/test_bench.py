"""The tournament benchmark's smoke mode: a whole double elimination of 8 on 2 tables, every
stroke through the services (the figures are measured by running the script, not here)."""

from tests.bench.helpers import bench_database_url, run_bench


def test_the_tournament_benchmark_runs_in_smoke_mode(tmp_path):
    # Its own database, never the suite's (the script makes a throwaway test_<name> one).
    done = run_bench("tournament.py", "--smoke", database_url=bench_database_url(tmp_path))
    lines = done.stdout.splitlines()
    results = [line for line in lines if line.startswith("result ")]
    assert len(results) in (14, 15)
    assert all("bracket" in line for line in results)
    assert any("board render" in line for line in results)
    assert "8 entrants, 2 tables" in done.stdout
    assert lines[-1].startswith("smoke run")
