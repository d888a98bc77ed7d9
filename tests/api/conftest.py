import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubsite.management.commands.load_demo_club import PLAYERS, demo_tables
from games.demo import load_demo_games
from players.models import Player
from tables.models import Table
from toolbox.roles import ensure_roles
from tournaments.demo import load_demo_tournaments


@pytest.fixture(scope="package")
def demo_club(django_db_setup, django_db_blocker):
    """The demo club's tables, players, tournaments and games (every game in every state),
    loaded once for the package's modules and emptied after them (its loading was a minute of
    the suite, three times over): the schema fuzz reads it thousands of times and changes
    nothing, nor does any test of the package once it is loaded (they all run on one worker
    of a parallel run: ``SHARED_WORKER`` in tests/conftest.py)."""
    with django_db_blocker.unblock():
        ensure_roles()
        tables = [
            Table.objects.create(number=n, name=name, kind=kind) for n, name, kind in demo_tables()
        ]
        players = [
            Player.objects.create(full_name=full, nickname=nick, skill_class=skill)
            for full, nick, skill in PLAYERS
        ]
        marker = get_user_model().objects.create_user("demo-marker")
        load_demo_tournaments(players=players, marker=marker)
        load_demo_games(tables=tables, players=players, marker=marker)
        yield
        call_command("flush", interactive=False, verbosity=0)
