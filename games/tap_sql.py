"""The stroke's write path in plain SQL: what a marker's tap costs the server, written out.

``services.record_event`` runs on every tap. The ORM spent more of it compiling its three
statements (the locked game with its table and seats, the event, the game's new
``last_seq``) than the database spent running them, so these are compiled once per process
and mapped back to model instances here — with the fields' own converters, so an instance is
what the ORM would have made. Nothing else in the project needs this; nothing else should.

- ``lock_with_seats(pk)``: the game row, locked until the end of the transaction (``FOR
  UPDATE OF`` the game only, where the database has row locks), its table, and its seats in
  playing order with their players: one statement. ``None`` when the game has no seat.
- ``append_event(game, seq, event, user, replay_cache, recent_devices)``: the event inserted
  and the game's ``last_seq``, cached replay and recent devices stored.
"""

from functools import cache

from django.db import connection
from django.utils import timezone

from games.models import Event, Game, Seat
from players.models import Player
from tables.models import Table

_JOINED = ((Game, "g"), (Table, "t"), (Seat, "s"), (Player, "p"))


@cache
def _fields(model, alias):
    """(field, column expression, converters) for each concrete field of ``model``."""
    fields = []
    for field in model._meta.concrete_fields:
        column = field.get_col(alias)
        converters = [
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ]
        fields.append((field, column, converters))
    return fields


@cache
def _lock_sql(vendor):
    quote = connection.ops.quote_name
    columns = ", ".join(
        f"{alias}.{quote(field.column)}"
        for model, alias in _JOINED
        for field, _column, _converters in _fields(model, alias)
    )
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""

    def column(model, name):
        return quote(model._meta.get_field(name).column)

    def pk(model):
        return quote(model._meta.pk.column)

    return (
        f"SELECT {columns} FROM {quote(Seat._meta.db_table)} s"
        f" JOIN {quote(Game._meta.db_table)} g ON g.{pk(Game)} = s.{column(Seat, 'game')}"
        f" JOIN {quote(Table._meta.db_table)} t ON t.{pk(Table)} = g.{column(Game, 'table')}"
        f" LEFT JOIN {quote(Player._meta.db_table)} p"
        f" ON p.{pk(Player)} = s.{column(Seat, 'player')}"
        f" WHERE s.{column(Seat, 'game')} = %s ORDER BY s.{column(Seat, 'position')}{lock}"
    )


def _instance(model, alias, values):
    """A model instance from its columns' raw values, as the ORM's ``from_db`` makes it."""
    names, converted = [], []
    for (field, column, converters), value in zip(_fields(model, alias), values, strict=True):
        for convert in converters:
            value = convert(value, column, connection)
        names.append(field.attname)
        converted.append(value)
    return model.from_db(connection.alias, names, converted)


def lock_with_seats(pk):
    """(game, seats) read in one statement, the game row locked; None if it has no seat."""
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(connection.vendor), [pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    widths = [len(_fields(model, alias)) for model, alias in _JOINED]
    bounds = [sum(widths[:i]) for i in range(len(widths) + 1)]

    def part(row, index):
        return row[bounds[index] : bounds[index + 1]]

    game = _instance(Game, "g", part(rows[0], 0))
    Game.table.field.set_cached_value(game, _instance(Table, "t", part(rows[0], 1)))
    seats = []
    for row in rows:
        seat = _instance(Seat, "s", part(row, 2))
        Seat.game.field.set_cached_value(seat, game)
        player_values = part(row, 3)
        player = None if player_values[0] is None else _instance(Player, "p", player_values)
        Seat.player.field.set_cached_value(seat, player)
        seats.append(seat)
    return game, seats


@cache
def _append_sql(vendor):
    quote = connection.ops.quote_name
    names = ("game_id", "seq", "kind", "payload", "recorded_by_id", "recorded_at")
    columns = ", ".join(quote(Event._meta.get_field(name).column) for name in names)
    insert = (
        f"INSERT INTO {quote(Event._meta.db_table)} ({columns})"
        f" VALUES ({', '.join(['%s'] * len(names))})"
    )
    last_seq, replay_cache, devices = (
        quote(Game._meta.get_field(name).column)
        for name in ("last_seq", "replay_cache", "recent_devices")
    )
    update = (
        f"UPDATE {quote(Game._meta.db_table)} SET {last_seq} = %s, {replay_cache} = %s,"
        f" {devices} = %s WHERE {quote(Game._meta.pk.column)} = %s"
    )
    return insert, update


def append_event(*, game, seq, kind, payload, user_id, replay_cache, recent_devices):
    """Inserts event ``seq`` of ``game`` and stores ``last_seq = seq``, the cached replay and
    the devices that recorded lately.

    An (game, seq) already taken raises ``IntegrityError`` as the ORM's insert would."""
    field = Event._meta.get_field
    event_values = [
        game.pk,
        seq,
        kind,
        field("payload").get_db_prep_save(payload, connection),
        user_id,
        field("recorded_at").get_db_prep_save(timezone.now(), connection),
    ]
    game_values = [
        seq,
        Game._meta.get_field("replay_cache").get_db_prep_save(replay_cache, connection),
        Game._meta.get_field("recent_devices").get_db_prep_save(recent_devices, connection),
        game.pk,
    ]
    insert, update = _append_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(insert, event_values)
        cursor.execute(update, game_values)
