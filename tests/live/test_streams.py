"""The streams' reads run in a few threads of their own that keep their database connection,
as a request's thread does: a change reaches the screens without a new connection first."""

import pytest
from django.db.backends.signals import connection_created

from live import streams
from tables.models import Table
from tests.helpers import run_async


@pytest.mark.django_db(transaction=True)
def test_the_reader_threads_keep_their_database_connection_between_changes():
    created = []

    def count(sender, connection, **kwargs):
        created.append(connection)

    async def reads():
        for _ in range(6):
            assert await streams.read(Table.objects.count) == 0

    connection_created.connect(count)
    try:
        run_async(reads())
    finally:
        connection_created.disconnect(count)
    assert 1 <= len(created) <= streams.READER_THREADS  # not one per read
