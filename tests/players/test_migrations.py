"""The migration that made player names unique regardless of case keeps every player."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("players", "0002_player_search_text")]
AFTER = [("players", "0003_player_name_key")]


@pytest.mark.django_db(transaction=True)
def test_players_whose_names_differ_only_in_case_all_survive_the_migration():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("players", "Player")
    first = old.objects.create(full_name="Иван Петров", nickname="")
    second = old.objects.create(full_name="иван петров", nickname="")  # allowed before
    retired = old.objects.create(full_name="ИВАН ПЕТРОВ", nickname="", is_active=False)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("players", "Player")
    keys = dict(new.objects.values_list("pk", "name_key"))
    assert keys == {
        first.pk: "иван петров|",
        second.pk: f"иван петров||{second.pk}",  # kept, and told apart from the first
        retired.pk: "иван петров|",  # inactive players may share a name
    }
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
