"""The migration that made player names unique regardless of case keeps every player.

Its data step (``fill_name_key``) runs here on today's players table, as ``migrate`` ran it
on the table of its day (migrating the whole project back and forth for it took half a
minute); every migration itself is applied by the suite's own database creation."""

from importlib import import_module

import pytest
from django.apps import apps
from django.db.migrations.state import ProjectState

from clubs.scoping import all_clubs
from players.models import Player

migration = import_module("players.migrations.0003_player_name_key")


@pytest.mark.django_db
def test_players_whose_names_differ_only_in_case_all_survive_the_migration():
    # As the table held them before the migration: keys not made yet (placeholders here).
    first, second, retired = Player.everywhere.bulk_create(
        [
            Player(full_name="Иван Петров", nickname="", name_key="before-1"),
            Player(full_name="иван петров", nickname="", name_key="before-2"),  # allowed then
            Player(full_name="ИВАН ПЕТРОВ", nickname="", name_key="before-3", is_active=False),
        ]
    )
    historical = ProjectState.from_apps(apps).apps  # models as a migration gets them
    with all_clubs():  # every club's players, as the migration read them
        migration.fill_name_key(historical, None)
    keys = dict(Player.everywhere.values_list("pk", "name_key"))
    assert keys == {
        first.pk: "иван петров|",
        second.pk: f"иван петров||{second.pk}",  # kept, and told apart from the first
        retired.pk: "иван петров|",  # inactive players may share a name
    }
