"""The streams' reads run in a few threads of their own that keep their database connection,
as a request's thread does: a change reaches the screens without a new connection first."""

import pytest
from django.db import connection
from django.db.backends.signals import connection_created

from live import streams
from tables.models import Table
from tests.helpers import run_async


@pytest.mark.django_db(transaction=True)
def test_the_reader_threads_keep_their_database_connection_between_changes():
    """Without a pool a reader thread keeps its connection; with PostgreSQL's pool each read
    borrows one of the pool's open connections: either way no read opens a new one."""
    created, backends = [], set()

    def count(sender, connection, **kwargs):
        created.append(connection)

    def backend():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backends.add(cursor.fetchone()[0])
        return Table.objects.count()

    pooled = bool(connection.settings_dict["OPTIONS"].get("pool"))

    async def reads():
        for _ in range(12):  # more reads than the pool has connections
            assert await streams.read(backend if pooled else Table.objects.count) == 0

    connection_created.connect(count)
    try:
        run_async(reads())
    finally:
        connection_created.disconnect(count)
    if pooled:  # the same few server processes of PostgreSQL answer every read
        assert 1 <= len(backends) <= connection.settings_dict["OPTIONS"]["pool"]["max_size"]
    else:
        assert 1 <= len(created) <= streams.READER_THREADS  # not one per read
