"""What the benchmarks share. A package, not a bench/*.py script: tests/bench/test_smoke.py
runs every script there in its smoke mode, and this is none."""

import os
from contextlib import contextmanager

# A migrated PostgreSQL database to copy instead of migrating a new one (seconds, not ten):
# the smoke runs of tests/bench/ make it once and name it here.
TEMPLATE = "LUZA_BENCH_TEMPLATE"


@contextmanager
def throwaway_database(*, announce=True):
    """Runs the block in a database beside the configured one (``test_<name>``; with SQLite an
    in-memory one), created and migrated as the test runner does, and dropped at the end."""
    from django.db import connection

    if announce:
        name = connection.settings_dict["NAME"]
        print(f"database: {connection.vendor} ({name} → throwaway test_…)")
    old_name = create_test_database()
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def create_test_database():
    """``create_test_db`` as the test runner does it (``test_<name>``, migrated), or on
    PostgreSQL a copy of the migrated database ``$LUZA_BENCH_TEMPLATE`` when it is set; the
    connection then uses it. Returns the configured name, for ``destroy_test_db``."""
    from django.conf import settings
    from django.db import connection

    template = os.environ.get(TEMPLATE)
    if not template or connection.vendor != "postgresql":
        return connection.creation.create_test_db(verbosity=0, autoclobber=True)
    old_name = connection.settings_dict["NAME"]
    name = connection.creation._get_test_db_name()
    quote = connection.ops.quote_name
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)}")
        cursor.execute(f"CREATE DATABASE {quote(name)} TEMPLATE {quote(template)}")
    connection.close()
    settings.DATABASES[connection.alias]["NAME"] = name
    connection.settings_dict["NAME"] = name
    return old_name


def verdict(*, smoke, ok, target):
    """A benchmark's exit status: 0 on a smoke run (no verdict); else ``target`` (the line
    that says whether it was met) is printed, and 0 if ``ok``, 1 if not."""
    if smoke:
        print("smoke run: no verdict")
        return 0
    print(target)
    return 0 if ok else 1
