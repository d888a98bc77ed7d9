"""tests/saved_rows.py: a database's rows saved and put back are the same rows, to the byte
(PostgreSQL) or the value (SQLite), and the database goes on from them."""

import pytest
from django.contrib.auth.models import Group

from games.models import Game
from players.models import Player
from tables.models import Table
from tests import saved_rows
from tests.factories import PlayerFactory, TableFactory, ev, record, start

pytestmark = pytest.mark.django_db


def contents(saved):
    """Each table's columns and rows, in no order (a table's rows come in the order they lie
    in its files, which putting them back may change)."""
    return {
        name: (columns, sorted(rows.split(b"\n") if isinstance(rows, bytes) else map(repr, rows)))
        for name, (columns, rows) in saved.tables.items()
    }


def test_rows_put_back_are_the_rows_saved_and_new_ones_get_fresh_ids(marker_user):
    game = start(TableFactory(number=1), "cork", [PlayerFactory(), PlayerFactory()], marker_user)
    record(game, marker_user, ev("stroke"), ev("stroke"))
    saved = saved_rows.save("what the command printed")
    last = Player.objects.order_by("pk").last().pk
    assert saved.tables["games_event"]  # rows of every kind: events, seats, users, groups…

    # Rows added, changed and removed since.
    PlayerFactory(full_name="Позже Сохранения")
    Game.objects.filter(pk=game.pk).update(settings={"target": 99})
    Table.objects.filter(pk=game.table_id).update(name="Переименован")
    Group.objects.all().delete()
    assert contents(saved_rows.save()) != contents(saved)

    assert saved.restore() == "what the command printed"
    assert contents(saved_rows.save()) == contents(saved)
    assert not Player.objects.filter(full_name="Позже Сохранения").exists()
    assert Group.objects.exists() and Game.objects.get(pk=game.pk).settings == game.settings
    assert Table.objects.get(pk=game.table_id).name == game.table.name
    assert Player.objects.create(full_name="После Восстановления").pk > last


def test_rows_of_another_database_are_refused():
    saved = saved_rows.save()
    saved.vendor = "oracle"
    with pytest.raises(RuntimeError, match="saved from oracle"):
        saved.restore()
    saved = saved_rows.save()
    saved.tables.pop(next(iter(saved.tables)))
    with pytest.raises(RuntimeError, match="another schema"):
        saved.restore()
