import time

import pytest

from players.models import Player
from tables.models import Table
from tournaments import services
from tournaments.models import Tournament


@pytest.fixture
def demo_tournament(db, marker_user):
    """A started four-player knockout with both semi-finals in play: U1.1 at table 5, then
    U1.2 at table 6 (started last). Returns (tournament, first match, second match)."""
    tournament = Tournament.objects.create(
        name="Кубок Лузы", date="2026-12-03", format="single", variant="pyramid_free"
    )
    for name in ("Сокол", "Лёха", "Профессор", "Дед"):
        services.add_entrant(tournament=tournament, player=Player.objects.create(full_name=name))
    services.start_tournament(tournament=tournament, method="rating")
    tables = [Table.objects.create(number=n) for n in (5, 6)]
    first = services.start_tournament_match(
        tournament=tournament, key="U1.1", table=tables[0], marker=marker_user
    )
    time.sleep(0.01)  # a later start
    second = services.start_tournament_match(
        tournament=tournament, key="U1.2", table=tables[1], marker=marker_user
    )
    tournament.refresh_from_db()
    return tournament, first, second
