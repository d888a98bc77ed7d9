"""A backup taken while the club plays restores (issue 27 item 2): strokes are recorded and
table clocks started and stopped in another thread while ``backup_club`` runs; each backup,
restored into an empty database, has every foreign key in place, no event past its game's
``last_seq``, and every game replays and accepts its next stroke."""

import os
import subprocess
import sys
import threading
import time
from io import StringIO

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection, connections

from billing.services import sessions
from games import rules, services
from games.models import Game
from tests.bench.helpers import ROOT, bench_database_url, migrated_template
from tests.factories import TableFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's snapshots"),
]

# Run in the restored database by a fresh process: what a club restored at night must hold.
CHECK = """
from django.db import connection
from games import rules, selectors, services
from games.models import Event, Game
from django.db.models import Max

with connection.cursor() as cursor:  # every foreign key holds (loaddata checked them too)
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
late = [
    g.pk for g in Game.objects.annotate(top=Max("events__seq")) if (g.top or 0) != g.last_seq
]
assert not late, f"events past last_seq in games {late}"
stroked = 0
for game in Game.objects.filter(status="in_progress"):
    state = selectors.game_state(game)  # replays its stored events
    action = selectors.variant_of(game).legal_actions(state)[0]
    services.record_event(
        game=game, expected_seq=game.last_seq, event=rules.Event(action.kind), user=None
    )
    stroked += 1
print(f"restored: {Game.objects.count()} games replayed, {stroked} took their next stroke")
"""


class Evening(threading.Thread):
    """Strokes on every game in progress and clocks started and stopped, until stopped."""

    def __init__(self, games, tables, user):
        super().__init__(daemon=True)
        self.games, self.tables, self.user = games, tables, user
        self.stopped, self.strokes, self.clocks, self.error = threading.Event(), 0, 0, None

    def run(self):
        try:
            while not self.stopped.is_set():
                for pk in self.games:
                    game = Game.objects.get(pk=pk)
                    event = rules.Event("foul", fouls=("miss",))
                    services.record_event(
                        game=game, expected_seq=game.last_seq, event=event, user=self.user
                    )
                    self.strokes += 1
                for table in self.tables:
                    session = sessions.start_session(table=table, user=self.user)
                    sessions.stop_session(session=session, user=self.user)
                    self.clocks += 1
        except Exception as error:  # noqa: BLE001 - reported by the test
            self.error = error
        finally:
            connections.close_all()


def restore_and_check(backup, name, template):
    """Restores ``backup`` into a new database ``name`` (a copy of ``template``, migrated as
    ``restore_club``'s own ``migrate`` would leave it, in a second instead of ten) and runs
    CHECK there: its output."""
    admin = connection.settings_dict.copy()
    url = f"postgres://{admin['USER']}@{admin['HOST'] or '127.0.0.1'}:{admin['PORT'] or 5432}"
    with psycopg.connect(f"{url}/postgres", autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}"')
        server.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    env = dict(os.environ, DATABASE_URL=f"{url}/{name}", DB_POOL_SIZE="0")
    manage = [sys.executable, "manage.py"]
    try:
        subprocess.run(
            [*manage, "restore_club", str(backup)], cwd=ROOT, env=env, check=True, timeout=120
        )
        done = subprocess.run(
            [*manage, "shell", "-c", CHECK],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout
    finally:
        with psycopg.connect(f"{url}/postgres", autocommit=True) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_backup_taken_during_play_restores_and_plays_on(tmp_path, marker_user, players):
    tables = [TableFactory(number=number) for number in (71, 72, 73)]
    games = [
        services.start_game(
            table=table, variant="cork", settings={}, seats=seats, marker=marker_user
        ).pk
        for table, seats in zip(tables[:2], (players[:3], players[3:]), strict=False)
    ]
    evening = Evening(games, tables[2:], marker_user)
    evening.start()
    backups = []
    try:
        time.sleep(0.3)
        for n in range(3):
            backup = tmp_path / f"during-{n}.json.gz"
            call_command("backup_club", str(backup), stdout=StringIO())
            backups.append(backup)
    finally:
        evening.stopped.set()
        evening.join(timeout=30)
    assert evening.error is None, evening.error
    assert evening.strokes > 20 and evening.clocks > 5  # the club was busy meanwhile
    template = migrated_template(bench_database_url(tmp_path))
    for n, backup in enumerate(backups):
        name = f"{connection.settings_dict['NAME']}_restored_{n}"
        output = restore_and_check(backup, name, template)
        assert "2 took their next stroke" in output, output
