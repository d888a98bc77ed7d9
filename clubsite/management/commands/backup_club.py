"""``manage.py backup_club [PATH]``: the whole club in one compressed file.

The database is everything the club has (no uploaded files): players, tables, games with
their events, seats and results, tariffs, the staff accounts and their groups, the admin's
history. It is written with Django's ``dumpdata`` as gzip-compressed JSON (times to the
microsecond: ``clubsite/backup_format.py``), with natural keys
for users, groups, permissions and content types, so that ``restore_club`` can load it into
any fresh database (SQLite or PostgreSQL) whatever ids those got there. Left out: what
``migrate`` recreates (content types, permissions), sessions and the login-throttling log.

The whole file is read in ONE transaction, so that it is the club at one instant however
busy the evening: on PostgreSQL a read-only REPEATABLE READ one (one snapshot for every table:
no stretch without its session, no event past its game's ``last_seq``, while strokes and
clocks go on being written); SQLite's read transaction holds writers off meanwhile.

The file is written beside its final name and renamed when complete: a backup that fails
half-way never leaves a truncated file that looks like a good one.
"""

import os
from datetime import datetime
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

EXCLUDED = [
    "contenttypes",
    "auth.permission",
    "sessions",
    "axes",
]


class Command(BaseCommand):
    help = "Write a compressed backup of the whole club (the database) to PATH (.json.gz)."

    def add_arguments(self, parser):
        parser.add_argument(
            "path",
            nargs="?",
            help="where to write it, ending in .json.gz "
            "(default: luza-backup-YYYY-MM-DD-HHMMSS.json.gz here)",
        )

    def handle(self, *args, path=None, **options):
        if path is None:
            path = f"luza-backup-{datetime.now():%Y-%m-%d-%H%M%S}.json.gz"
        target = Path(path)
        if not target.name.endswith(".json.gz"):
            raise CommandError("The backup's name must end in .json.gz")
        if not target.parent.is_dir():
            raise CommandError(f"No such directory: {target.parent}")
        partial = target.with_name(f".{target.name}.partial.json.gz")
        try:
            with transaction.atomic():
                one_snapshot()
                call_command(
                    "dumpdata",
                    exclude=EXCLUDED,
                    format="club-json",  # Django's JSON, times to the microsecond
                    natural_foreign=True,
                    natural_primary=True,
                    output=str(partial),
                    verbosity=0,
                )
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        size = target.stat().st_size
        self.stdout.write(f"Backed up the club to {target} ({size:,} bytes).")


def one_snapshot():
    """The transaction just begun reads one snapshot of the whole database (PostgreSQL)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
