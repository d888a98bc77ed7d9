"""Only one process drives the relays, however many are started (two machines, a restart
that overlaps): the one that holds the site's lights lock.

On PostgreSQL the lock is a session advisory lock on a connection of its own (released when
the process or its connection dies); on SQLite, an exclusive lock on a file beside the
database.
"""

import fcntl
import hashlib
import tempfile
from pathlib import Path

import psycopg
from django.db import connection

LOCK_KEY = 0x4C757A61  # "Luza"


class Leadership:
    def __init__(self, club_pk=0):
        """One leader per club (``club_pk``: each club's controller holds its own lock)."""
        self._held = None
        self.key = LOCK_KEY + club_pk

    def acquire(self):
        """True when this process now holds the lock (it keeps it until ``release``)."""
        if self._held is not None:
            return True
        if connection.vendor == "postgresql":
            params = connection.get_connection_params()
            params.pop("cursor_factory", None)
            params.pop("context", None)
            conn = psycopg.connect(**params, autocommit=True)
            if conn.execute("SELECT pg_try_advisory_lock(%s)", [self.key]).fetchone()[0]:
                self._held = conn
                return True
            conn.close()
            return False
        handle = open(_lock_path(self.key), "w")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._held = handle
        return True

    def release(self):
        if self._held is not None:
            self._held.close()
            self._held = None


def _lock_path(key=LOCK_KEY):
    """Beside the SQLite file; for an in-memory database (tests), in the temporary folder."""
    name = str(connection.settings_dict["NAME"])
    if name.startswith("file:") or name == ":memory:":
        digest = hashlib.sha1(name.encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"luza-{digest}.lights{_suffix(key)}.lock"
    path = Path(name)
    return path.with_name(f".{path.name}.lights{_suffix(key)}.lock")


def _suffix(key):
    return "" if key == LOCK_KEY else f"-{key - LOCK_KEY}"
