"""What the benchmarks share. A package, not a bench/*.py script: tests/bench/test_smoke.py
runs every script there in its smoke mode, and this is none."""

from contextlib import contextmanager


@contextmanager
def throwaway_database(*, announce=True):
    """Runs the block in a database beside the configured one (``test_<name>``; with SQLite an
    in-memory one), created and migrated as the test runner does, and dropped at the end."""
    from django.db import connection

    if announce:
        name = connection.settings_dict["NAME"]
        print(f"database: {connection.vendor} ({name} → throwaway test_…)")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def verdict(*, smoke, ok, target):
    """A benchmark's exit status: 0 on a smoke run (no verdict); else ``target`` (the line
    that says whether it was met) is printed, and 0 if ``ok``, 1 if not."""
    if smoke:
        print("smoke run: no verdict")
        return 0
    print(target)
    return 0 if ok else 1
