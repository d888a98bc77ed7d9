"""Live boards: a change is pushed to the screens that show it the moment it commits.

``live.brokers`` carries "topic changed" across the server's processes (and machines) through
an existing broker: Redis pub/sub when ``REDIS_URL`` is set, PostgreSQL ``LISTEN/NOTIFY``
when the database is PostgreSQL, else an in-process broker (SQLite, one process).
``live.hub`` is the one listener per server process that fans a notification out to the
screens' streams in memory; ``live.streams`` is the Server-Sent Events response a screen
holds. Writers call ``publish_on_commit`` with the topics their change touched (a table's
board, the wall, a game's console, see ``live.topics``) — or, for a write that is one SQL
statement, put ``publish_clause`` in it (``games.tap_sql``); the message carries only the topics:
each process renders what changed once per topic and language and sends that to its screens.

This package imports nothing of the project: ``games``, ``boards`` and the others use it.
"""

from live.publishing import publish_clause, publish_on_commit

__all__ = ["publish_clause", "publish_on_commit"]
