"""backup_club / restore_club round-trip the whole demo club into an empty database."""

import gzip
import json
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command

from billing.models import Tariff
from clubsite.management.commands.restore_club import club_rows
from games import rules, selectors
from games.models import Event, Game, Seat
from players.models import Player
from tables.models import Table
from tests.factories import PlayerFactory, TableFactory, ev, record, start

pytestmark = pytest.mark.django_db(transaction=True)


def rows_of(model):
    """The model's rows; a reference to a user by his username and to a group (a staff
    role's) by its name, since the backup keeps users and groups by their natural keys (a
    restored one may get another id: the roles' groups are made again by ``migrate``)."""
    names = {
        User: dict(User.objects.values_list("pk", "username")),
        Group: dict(Group.objects.values_list("pk", "name")),
    }
    named_columns = {
        field.attname: names[field.related_model]
        for field in model._meta.concrete_fields
        if field.is_relation and field.related_model in names
    }
    rows = list(model.objects.order_by("pk").values())
    for row in rows:
        if model is User:
            del row["id"]
        for column, by_pk in named_columns.items():
            row[column] = by_pk.get(row[column], row[column])
    return rows


PLAYER_FIELDS = [f.attname for f in Player._meta.concrete_fields]


def snapshot():
    """Everything a club would miss, each game with the state its stored events replay to."""
    games = {}
    for game in Game.objects.order_by("pk"):
        state = rules.replay(
            selectors.variant_of(game), selectors.settings_of(game), selectors.rules_events(game)
        )
        seats = list(
            Seat.objects.filter(game=game)
            .order_by("position")
            .values_list("player__full_name", "guest_name", "outcome", "score", "stats")
        )
        games[game.pk] = (
            game.variant,
            game.status,
            game.table.number,
            game.settings,
            game.result,
            game.last_seq,
            game.started_at,
            game.finished_at,
            seats,
            state,
        )
    return {
        "games": games,
        # Every row of every model of the club's own apps (billing, tournaments… included).
        "rows": {
            model._meta.label: rows_of(model)
            for model in (m for label, _ in club_rows() for m in [apps.get_model(label)])
        },
        "events": list(Event.objects.order_by("game_id", "seq").values_list("kind", "payload")),
        # A player's account by its username: users come back with new ids (natural keys).
        "players": [
            {key: value for key, value in row.items() if key != "user_id"}
            for row in Player.objects.order_by("pk").values("user__username", *PLAYER_FIELDS)
        ],
        "tables": list(Table.objects.order_by("pk").values()),
        "tariffs": list(Tariff.objects.order_by("pk").values()),
        "users": [
            (u.username, u.password, u.is_staff, sorted(g.name for g in u.groups.all()))
            for u in User.objects.order_by("username")
        ],
        "groups": {
            g.name: sorted(p.codename for p in g.permissions.all()) for g in Group.objects.all()
        },
    }


def test_the_demo_club_survives_a_backup_and_a_restore_into_an_empty_database(
    tmp_path, demo_club_rows
):
    demo_club_rows.restore()  # what load_demo_club leaves (loaded once for the run)
    before = snapshot()
    assert len(before["games"]) >= 3 and before["events"]
    assert {"billing.Tariff", "players.Player", "games.Event"} <= set(before["rows"])

    backup = tmp_path / "club.json.gz"
    out = StringIO()
    call_command("backup_club", str(backup), stdout=out)
    assert f"Backed up the club to {backup}" in out.getvalue()
    dumped = json.loads(gzip.decompress(backup.read_bytes()))
    assert {"players.player", "games.event", "auth.user"} <= {row["model"] for row in dumped}
    roles = [row["fields"] for row in dumped if row["model"] == "clubs.staffrole"]
    assert roles and all(isinstance(role["group"], list) for role in roles)  # by its name
    assert list(tmp_path.iterdir()) == [backup]  # no partial file left behind

    call_command("flush", interactive=False)
    assert not Game.objects.exists() and not Player.objects.exists()

    out = StringIO()
    call_command("restore_club", str(backup), stdout=out)
    assert "Restored" in out.getvalue()
    after = snapshot()
    for pk, game in before["games"].items():
        for n, (was, now) in enumerate(zip(game, after["games"][pk], strict=True)):
            assert now == was, (pk, n)
    assert after == before

    # The restored database goes on: a new player gets a fresh id (sequences follow the data).
    newcomer = Player.objects.create(full_name="Новый После Восстановления")
    assert newcomer.pk > max(player["id"] for player in before["players"])


def test_restore_refuses_a_database_with_club_data(tmp_path, marker_user):
    # A small club (a table, two players, a game under way): any club data is refused.
    game = start(TableFactory(number=1), "cork", [PlayerFactory(), PlayerFactory()], marker_user)
    record(game, marker_user, ev("stroke"))
    assert club_rows()
    backup = tmp_path / "club.json.gz"
    call_command("backup_club", str(backup), stdout=StringIO())
    Player.objects.create(full_name="Новенький После Копии")
    with pytest.raises(CommandError, match="already holds club data"):
        call_command("restore_club", str(backup), stdout=StringIO())
    assert Player.objects.filter(full_name="Новенький После Копии").exists()


def test_backup_names_must_be_compressed_json(tmp_path):
    with pytest.raises(CommandError, match=r"\.json\.gz"):
        call_command("backup_club", str(tmp_path / "club.sql"), stdout=StringIO())
