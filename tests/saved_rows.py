"""A test database's rows saved once and put back in a second or two.

Two uses (tests/conftest.py):

- The demo club. Loading it (``load_demo_club``) takes a minute of play through the real
  services; the tests that want "a real club's data" (the backup, the crawls, the walls,
  the demo command's own checks) used to load it each. Now the first of them in a run loads
  it once (``demo_club_rows``), every row of every table is saved to a file that the run's
  workers share, and each test puts those rows back in place of its database's: the
  database then holds exactly what the command left, as if it had just run there.
- The empty database after a test that commits (a browser test, ``transaction=True``).
  Django empties every table (``flush``: PostgreSQL's TRUNCATE makes each table's files
  anew) and ``migrate``'s signals make the content types, permissions and staff roles
  again: a second or more after each such test. The first such test of a worker does
  exactly that; the rows it leaves are saved, and after every later one they are put back
  (``empty_database``), which leaves the same rows (under the same ids each time) in a
  fraction of the time.

PostgreSQL: each table's rows by ``COPY`` (its own text format, exact to the byte); the
sequences of the tables put back are set past their largest ids, as ``loaddata`` sets them.
SQLite: each table's values as stored, inserted again. Rows are put back in one transaction,
after every row of every table is deleted (the foreign keys are checked at its end, when
every table is whole again).
"""

import fcntl
import os
import pickle
from dataclasses import dataclass, field

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.management.color import no_style
from django.db import DatabaseError, connection, transaction

from clubs.current import forget_clubs

KEPT = {"django_migrations"}  # what migrate wrote: the same in every test database


@dataclass
class SavedRows:
    """Every table's rows (``tables``: table → its columns, and its rows or COPY text), and
    what the command that made them printed."""

    vendor: str
    output: str = ""
    tables: dict = field(default_factory=dict)

    def restore(self):
        """Replaces every row of the database by the saved ones; returns what was printed."""
        if connection.vendor != self.vendor:
            raise RuntimeError(f"rows saved from {self.vendor}, not {connection.vendor}")
        names = tables()
        if set(names) != set(self.tables):
            raise RuntimeError("the saved rows are of another schema: migrate, and save again")
        quote = connection.ops.quote_name
        with transaction.atomic(), connection.cursor() as cursor:
            for name in names:
                cursor.execute(f"DELETE FROM {quote(name)}")
            for name in names:
                columns, rows = self.tables[name]
                if not rows:
                    continue
                listed = f"{quote(name)} ({', '.join(quote(column) for column in columns)})"
                if self.vendor == "postgresql":
                    with cursor.cursor.copy(f"COPY {listed} FROM STDIN") as copy:
                        copy.write(rows)
                else:
                    marks = ", ".join("%s" for _ in columns)
                    cursor.executemany(f"INSERT INTO {listed} VALUES ({marks})", rows)
            filled = [
                model
                for model in apps.get_models(include_auto_created=True)
                if self.tables.get(model._meta.db_table, (None, None))[1]
            ]
            for sql in connection.ops.sequence_reset_sql(no_style(), filled):
                cursor.execute(sql)
        forget_caches()
        return self.output


def tables():
    """The database's tables whose rows are saved and put back."""
    return sorted(name for name in connection.introspection.table_names() if name not in KEPT)


def save(output=""):
    """Every row of every table of the database as it is now (in this transaction)."""
    saved = SavedRows(vendor=connection.vendor, output=output)
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for name in tables():
            cursor.execute(f"SELECT * FROM {quote(name)} LIMIT 0")
            columns = [column[0] for column in cursor.description]
            listed = ", ".join(quote(column) for column in columns)
            if saved.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {quote(name)} ({listed}) TO STDOUT") as copy:
                    rows = b"".join(bytes(block) for block in copy)
            else:
                # "+column": the value as stored, not as Django's converters read it (a
                # time, a decimal: which sqlite3 would not take back).
                raw = ", ".join(f"+{quote(column)}" for column in columns)
                cursor.execute(f"SELECT {raw} FROM {quote(name)}")
                rows = cursor.fetchall()
            saved.tables[name] = (columns, rows)
    return saved


def forget_caches():
    """What the process keeps of rows by their ids: the content types, the clubs."""
    ContentType.objects.clear_cache()
    forget_clubs()


def made_once(path, make):
    """The rows saved at ``path``, made by ``make()`` by the first process to ask (the
    others wait for it): one load for a whole parallel run."""
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            partial = path.with_name(path.name + ".partial")
            partial.write_bytes(pickle.dumps(make(), protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(partial, path)
    return pickle.loads(path.read_bytes())


class EmptyDatabase:
    """The database as Django's ``flush`` leaves it (every table emptied, then what
    ``migrate``'s signals make: content types, permissions, the staff roles), made by one
    real flush and then put back: ``empty(real_flush)``."""

    def __init__(self):
        self.rows = None

    def empty(self, real_flush):
        if self.rows is not None:
            try:
                self.rows.restore()
                return
            except (RuntimeError, DatabaseError):  # a schema a test changed: flush as Django does
                self.rows = None
        real_flush()
        self.rows = save()


empty_database = EmptyDatabase()
