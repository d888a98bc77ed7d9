"""The second wall between clubs (issue 32): PostgreSQL's row-level security on the money
tables, keyed by the club in scope — so that a query which bypasses the managers of
``clubs.scoping`` (raw SQL, a manager without the wall, a bug) still reads and writes the rows
of the club it works for only.

The tables' policies (``clubs.migration_ops.club_wall``, one migration per app) let a row
through when its club is the session setting ``luza.club``, and every row when that setting
is empty or unset (the network's processes, migrations, commands outside a club). PostgreSQL
never applies a policy to a superuser nor to a role with BYPASSRLS: a connection as such a
user (CI, the demo: ``postgres``) works within a club as the role ``luza_club_wall``
(``SET ROLE``: no login, no bypass, granted the tables' privileges by the migration), to
which the policies apply. A user that does not bypass them (production's owner of the tables:
FORCE ROW LEVEL SECURITY) needs no other role.

This is the one place that sets them, and it does so lazily: the club in scope is what
``clubs.current.using_club`` and ``clubs.scoping.all_clubs`` keep in their context variables
(entered and left without a query), and before each query on the connection this wrapper
compares it with what the connection was last told; when they differ (a request of another
club, a block of ``all_clubs()``, the end of a club's block) it says so in one round trip
of statements without parameters — none when they agree, none off PostgreSQL. So a
connection reused by the next request (``CONN_MAX_AGE``, the pool) never serves it with the
last request's club: its first query sets its own, or empties it.

What the connection was told is only trusted while it holds: a SET made within a transaction
is undone by its rollback (or its savepoint's), so one made in an atomic block is marked by
an ``on_commit`` callback of its own, which Django drops with the transaction or savepoint
rolled back — then the next query says it again. A connection made anew (or taken from the
pool, which may hand back one this process left within a club) has been told nothing known.
"""

import logging

from django.conf import settings
from django.db.backends.signals import connection_created

from clubs import current, scoping

logger = logging.getLogger(__name__)

ROLE = "luza_club_wall"
SETTING = "luza.club"


class _Unknown:
    club = object()  # equal to no club: the next query says it

    def holds(self, connection):
        return False


UNKNOWN = _Unknown()


class _Marker:
    """An ``on_commit`` callback that only marks: Django drops it when the transaction (or the
    savepoint) it was made in is rolled back, and calls it after the commit."""

    committed = False

    def __init__(self, connection):
        self.connection = connection

    def __call__(self):
        # A test's captured callbacks are called within the test's transaction, which is
        # rolled back: only a real commit, outside any atomic block, makes the SET last.
        if not self.connection.in_atomic_block:
            self.committed = True


class _Told:
    """What the connection was told: the club's id, or None (every row)."""

    def __init__(self, club, connection=None):
        self.club = club
        self.marker = None
        if connection is None:  # a new connection: nothing said, nothing to undo
            return
        if connection.in_atomic_block:
            self.marker = _Marker(connection)
            # Its place in the list: the callbacks before it are of the same transaction and
            # savepoints no deeper, so none of them is dropped while it stays (read in O(1)).
            self.place = len(connection.run_on_commit)
            connection.on_commit(self.marker)
        elif not connection.get_autocommit():  # a transaction managed by hand: not trusted
            self.marker = False

    def holds(self, connection):
        marker = self.marker
        if marker is None:
            return True
        if marker is False:
            return False
        if marker.committed:
            return True
        callbacks = connection.run_on_commit
        return self.place < len(callbacks) and callbacks[self.place][1] is marker


def wanted():
    """The club the database should wall the connection in: the club in scope's id, or None
    (no club chosen, or ``all_clubs()``: every row)."""
    if scoping.walls_down():
        return None
    club = current.current_club()
    if club is None or club.pk is None:
        return None
    return int(club.pk)


def enabled():
    return getattr(settings, "CLUB_DB_WALL", True)


def statements(club, role, outer_role=None):
    """The statements that wall the connection in ``club`` (an int; None: every row), the
    role switched to when ``role`` (the connection's user bypasses the policies)."""
    if club is None:
        value = "''"
        if not role:
            return f"SET {SETTING} = {value}"
        back = f"SET ROLE {quote(outer_role)}" if outer_role else "RESET ROLE"
        return f"{back}; SET {SETTING} = {value}"
    value = f"'{int(club)}'"
    if not role:
        return f"SET {SETTING} = {value}"
    return f"SET {SETTING} = {value}; SET ROLE {ROLE}"


def quote(name):
    return '"' + name.replace('"', '""') + '"'


# Per database alias, read once in the process: whether its user bypasses the policies (and
# so works within a club as ROLE).
_switches_role = {}


def _outer_role(connection):
    return connection.settings_dict.get("OPTIONS", {}).get("assume_role")


def switches_role(connection, cursor):
    alias = connection.alias
    if alias not in _switches_role:
        outer = _outer_role(connection)
        cursor.execute(
            "SELECT r.rolsuper OR r.rolbypassrls, "
            "EXISTS (SELECT 1 FROM pg_roles WHERE rolname = %s) "
            "FROM pg_roles r WHERE r.rolname = COALESCE(%s, session_user)",
            (ROLE, outer),
        )
        row = cursor.fetchone()
        bypasses, role_exists = (bool(row[0]), bool(row[1])) if row else (False, False)
        if bypasses and not role_exists:
            logger.warning(
                "The database's user bypasses row-level security and the role %s is missing "
                "(run migrate as a user that may create roles): the money tables' second wall "
                "does not hold for this connection.",
                ROLE,
            )
        _switches_role[alias] = bypasses and role_exists
    return _switches_role[alias]


def tell(connection, club):
    """Say ``club`` to the connection now, in one round trip (outside Django's query log)."""
    with connection.connection.cursor() as cursor:
        role = switches_role(connection, cursor)
        cursor.execute(statements(club, role, _outer_role(connection)))
    connection._club_wall = _Told(club, connection)


def told_now(connection):
    """Tell the connection the club in scope if it was not told it yet (what ``wall`` does
    before each query): for a statement sent past Django's cursor (``games.tap_sql``)."""
    told = getattr(connection, "_club_wall", UNKNOWN)
    if enabled():
        club = wanted()
        if club != told.club or not told.holds(connection):
            tell(connection, club)
    elif told is not UNKNOWN and (told.club is not None or not told.holds(connection)):
        tell(connection, None)  # turned off within the process: the walls told come down


def wall(execute, sql, params, many, context):
    """The execute wrapper of every PostgreSQL connection: the club in scope told first."""
    told_now(context["connection"])
    return execute(sql, params, many, context)


def on_connection_created(sender, connection, **kwargs):
    if connection.vendor != "postgresql":
        return
    if wall not in connection.execute_wrappers:
        # The innermost: a wrapper added for a block (``connection.execute_wrapper``) is
        # removed by ``pop()`` and runs around this one.
        connection.execute_wrappers.insert(0, wall)
    pooled = "pool" in connection.settings_dict.get("OPTIONS", {})
    # A new connection was told nothing; one from the pool may have been, by this process.
    connection._club_wall = UNKNOWN if pooled else _Told(None)


def install():
    connection_created.connect(on_connection_created, dispatch_uid="clubs-db-wall")
