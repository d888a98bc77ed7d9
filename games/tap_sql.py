"""The stroke's write path in plain SQL: what a marker's tap costs the server, written out.

``services.record_event`` runs on every tap. The ORM spent more of it compiling its
statements (the game with its table and seats, the event, the game's new ``last_seq``) than
the database spent running them, so these are compiled once per process and mapped back to
model instances here — with the fields' own converters, so an instance is what the ORM would
have made. Nothing else in the project needs this; nothing else should.

- ``read_with_seats(pk)``: the game row with its table, and its seats in playing order with
  their players: two statements, sent at once on PostgreSQL; no lock. ``None`` when the game
  has no seat.
- ``append_event(game, seq, …)``: the event inserted and the game's ``last_seq``, cached
  replay and recent devices stored — only if the game is still in progress at ``seq - 1``
  (a compare-and-set: whoever wrote first wins, the other writes nothing). On PostgreSQL
  one statement (its own transaction: no BEGIN and COMMIT to wait for); elsewhere the update
  and the insert in one transaction. With ``meanwhile``, that statement is sent and the
  process does the tap's other work (the console's rendering) while PostgreSQL runs and
  commits it; its answer is read after (``_written_meanwhile``).
"""

import select
from contextlib import nullcontext
from functools import cache

from django.db import connection, transaction
from django.utils import timezone
from psycopg import pq

from clubs import db_wall
from clubs.scoping import club_in_scope, walls_down
from games.models import Event, Game, Seat
from players.models import Player
from tables.models import Table

_JOINED = ((Game, "g"), (Table, "t"), (Seat, "s"), (Player, "p"))
# A seated player's columns read: what names him and links him. The rest (his contacts,
# notes and timestamps — a timestamp costs more to load than any other column) are deferred.
_PLAYER_FIELDS = ("id", "full_name", "nickname", "skill_class", "is_active", "user_id")


@cache
def _fields(model, alias):
    """(field, column expression, converters) for each concrete field of ``model`` read."""
    fields = []
    for field in model._meta.concrete_fields:
        if model is Player and field.attname not in _PLAYER_FIELDS:
            continue
        column = field.get_col(alias)
        converters = [
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ]
        fields.append((field, column, converters))
    return fields


def _columns(joined):
    quote = connection.ops.quote_name
    return ", ".join(
        f"{alias}.{quote(field.column)}"
        for model, alias in joined
        for field, _column, _converters in _fields(model, alias)
    )


@cache
def _read_sql(vendor):
    """(the game with its table, the seats with their players in playing order)."""
    quote = connection.ops.quote_name

    def column(model, name):
        return quote(model._meta.get_field(name).column)

    def pk(model):
        return quote(model._meta.pk.column)

    game = (
        f"SELECT {_columns(_JOINED[:2])} FROM {quote(Game._meta.db_table)} g"
        f" JOIN {quote(Table._meta.db_table)} t ON t.{pk(Table)} = g.{column(Game, 'table')}"
        f" WHERE g.{pk(Game)} = %s"
    )
    seats = (
        f"SELECT {_columns(_JOINED[2:])} FROM {quote(Seat._meta.db_table)} s"
        f" LEFT JOIN {quote(Player._meta.db_table)} p"
        f" ON p.{pk(Player)} = s.{column(Seat, 'player')}"
        f" WHERE s.{column(Seat, 'game')} = %s ORDER BY s.{column(Seat, 'position')}"
    )
    return game, seats


def _instance(model, alias, values):
    """A model instance from its columns' raw values, as the ORM's ``from_db`` makes it."""
    names, converted = [], []
    for (field, column, converters), value in zip(_fields(model, alias), values, strict=True):
        for convert in converters:
            value = convert(value, column, connection)
        names.append(field.attname)
        converted.append(value)
    return model.from_db(connection.alias, names, converted)


def _both_at_once():
    """Whether two statements can go in one round trip: psycopg's client-side binding (the
    default of Django's PostgreSQL backend) sends them as one query with two results."""
    options = connection.settings_dict.get("OPTIONS", {})
    return connection.vendor == "postgresql" and not options.get("server_side_binding")


def read_with_seats(pk):
    """(game, seats): the game with its table, and its seats in playing order with their
    players, in one round trip on PostgreSQL; None if the game has no seat or is another
    club's (the caller's ORM read then finds nothing: a 404)."""
    game_sql, seats_sql = _read_sql(connection.vendor)
    with connection.cursor() as cursor:
        if _both_at_once():
            cursor.execute(f"{game_sql}; {seats_sql}", [pk, pk])
            game_rows = cursor.fetchall()
            cursor.nextset()
        else:
            cursor.execute(game_sql, [pk])
            game_rows = cursor.fetchall()
            cursor.execute(seats_sql, [pk])
        seat_rows = cursor.fetchall()
    if not game_rows or not seat_rows:
        return None
    game_width = len(_fields(Game, "g"))
    seat_width = len(_fields(Seat, "s"))
    game = _instance(Game, "g", game_rows[0][:game_width])
    if not walls_down() and game.club_id != club_in_scope().pk:
        return None  # another club's game: not found here (clubs.scoping), as by the ORM
    Game.table.field.set_cached_value(game, _instance(Table, "t", game_rows[0][game_width:]))
    seats = []
    for row in seat_rows:
        seat = _instance(Seat, "s", row[:seat_width])
        Seat.game.field.set_cached_value(seat, game)
        player_values = row[seat_width:]
        player = None if player_values[0] is None else _instance(Player, "p", player_values)
        Seat.player.field.set_cached_value(seat, player)
        seats.append(seat)
    return game, seats


# The names of the columns written, in the order of the values ``append_event`` passes.
_EVENT_COLUMNS = (
    "game_id",
    "seq",
    "kind",
    "payload",
    "recorded_by_id",
    "recorded_at",
    "tapped_at",
)


@cache
def _append_sql(vendor, publishing):
    """(update, insert) on any database; on PostgreSQL (update, None): one statement that
    does both and, when ``publishing``, evaluates the broker's clause once it has."""
    quote = connection.ops.quote_name
    game_table, pk = quote(Game._meta.db_table), quote(Game._meta.pk.column)
    last_seq, status, replay_cache, devices = (
        quote(Game._meta.get_field(name).column)
        for name in ("last_seq", "status", "replay_cache", "recent_devices")
    )
    columns = ", ".join(quote(Event._meta.get_field(name).column) for name in _EVENT_COLUMNS)
    values = ", ".join(["%s"] * len(_EVENT_COLUMNS))
    update = (
        f"UPDATE {game_table} SET {last_seq} = %s, {replay_cache} = %s, {devices} = %s"
        f" WHERE {pk} = %s AND {last_seq} = %s AND {status} = %s"
    )
    insert = f"INSERT INTO {quote(Event._meta.db_table)} ({columns})"
    if vendor == "postgresql":  # data-modifying WITHs: the event only if the game was set
        return (
            f"WITH g AS ({update} RETURNING {pk}),"
            f" e AS ({insert} SELECT {values} FROM g RETURNING 1)"
            f" SELECT {publishing or 1} FROM e",
            None,
        )
    return update, f"{insert} VALUES ({values})"


def append_event(
    *,
    game,
    seq,
    kind,
    payload,
    user_id,
    replay_cache,
    recent_devices,
    status,
    publish=None,
    tapped_at=None,
    meanwhile=None,
):
    """Inserts event ``seq`` of ``game`` and stores ``last_seq = seq``, the cached replay and
    the devices that recorded lately — if the game's row still has ``last_seq = seq - 1`` and
    ``status``. Returns whether it did (False: another writer was first; nothing written).
    ``publish``: ``live.publish_clause(…)``, evaluated once written (None: nothing is).
    ``tapped_at``: when the marker tapped it, for a stroke sent later (None: now).

    ``meanwhile``: a function called with no argument once the statement is sent, before its
    answer is read — only where the database can run it meanwhile (``_overlappable``), else
    not at all (the caller then does that work after). Whatever it raises is raised once the
    answer is read.

    An (game, seq) already taken raises ``IntegrityError`` as the ORM's insert would."""
    field = Event._meta.get_field
    game_values = [
        seq,
        Game._meta.get_field("replay_cache").get_db_prep_save(replay_cache, connection),
        Game._meta.get_field("recent_devices").get_db_prep_save(recent_devices, connection),
        game.pk,
        seq - 1,
        status,
    ]
    event_values = [
        game.pk,
        seq,
        kind,
        field("payload").get_db_prep_save(payload, connection),
        user_id,
        field("recorded_at").get_db_prep_save(timezone.now(), connection),
        field("tapped_at").get_db_prep_save(tapped_at, connection),
    ]
    clause, clause_values = publish or (None, [])
    update, insert = _append_sql(connection.vendor, clause)
    # Inside a caller's transaction, a savepoint: a refused insert leaves that transaction
    # usable. Outside one on PostgreSQL, the one statement is its own transaction.
    if insert is None and meanwhile is not None and _overlappable():
        return _written_meanwhile(update, game_values + event_values + clause_values, meanwhile)
    atomic = insert is not None or connection.in_atomic_block
    with transaction.atomic() if atomic else nullcontext(), connection.cursor() as cursor:
        if insert is None:
            cursor.execute(update, game_values + event_values + clause_values)
            return cursor.fetchone() is not None
        cursor.execute(update, game_values)
        if cursor.rowcount != 1:
            return False
        cursor.execute(insert, event_values)
        if clause is not None:
            cursor.execute(f"SELECT {clause}", clause_values)
        return True


# --- the write sent, the console rendered while PostgreSQL runs and commits it ------------
#
# A tap's write is one statement in its own transaction: most of its time is the database's
# (running it, then flushing its commit to disk), and the console the marker gets back does
# not depend on its answer — only on whether it was written. So the statement is sent, the
# console is rendered, and then the answer is read: the two overlap. The statement, its
# parameters and its transaction are exactly those of ``cursor.execute``; what differs is
# only when this process waits for the answer.


def _overlappable():
    """Whether a write can be sent and its answer read later: PostgreSQL with client-side
    binding (the statement is one text, as psycopg's own client cursor sends it), outside
    any transaction (autocommit: the statement commits by itself), and no one watching the
    statements (the query log of DEBUG or of a test's count, ``execute_wrapper``s): they
    see the ordinary ``cursor.execute``."""
    return (
        _both_at_once()
        and not connection.in_atomic_block
        and connection.get_autocommit()
        and not connection.queries_logged
        # the database's wall between clubs is no watcher: it is told before the send
        and all(wrapper is db_wall.wall for wrapper in connection.execute_wrappers)
    )


def _written_meanwhile(sql, params, meanwhile):
    """Runs ``sql`` (one statement) as ``cursor.execute`` would and returns whether it
    answered a row; ``meanwhile()`` is called between sending it and reading its answer. A
    query made by ``meanwhile`` first waits for that answer (the connection serves one
    statement at a time), so it runs after the write, as it would have without the overlap.
    A statement the database refused is run again the ordinary way: it wrote nothing (its
    transaction was rolled back), and the ordinary way raises what it raised as Django's
    error (an ``IntegrityError`` for a taken seq) — or, this time, writes."""
    with connection.cursor() as cursor:  # connected, health-checked, in autocommit
        pg = connection.connection
        pgconn = pg.pgconn
        if pgconn.transaction_status != pq.TransactionStatus.IDLE:  # unexpected: as ever
            cursor.execute(sql, params)
            return cursor.fetchone() is not None
        query = cursor.mogrify(sql, params).encode(pg.info.encoding)
        db_wall.told_now(connection)  # as Django's cursor would before the statement
        with pg.lock:
            pgconn.send_query(query)
            while pgconn.flush():  # a non-blocking connection: what libpq still holds
                select.select([], [pgconn.socket], [])
        answer = []

        def awaited():
            if not answer:
                with pg.lock:
                    answer.append(_results(pgconn))

        def answered_first(execute, sql, params, many, context):
            awaited()
            return execute(sql, params, many, context)

        try:
            with connection.execute_wrapper(answered_first):
                meanwhile()
        finally:
            awaited()
        results = answer[0]
        if len(results) != 1 or results[0].status != pq.ExecStatus.TUPLES_OK:
            cursor.execute(sql, params)  # refused: the ordinary way says why
            return cursor.fetchone() is not None
        return results[0].ntuples > 0


def _results(pgconn):
    """Every result of the statement sent (libpq waits for each)."""
    results = []
    while (result := pgconn.get_result()) is not None:
        results.append(result)
    return results
