"""The network's page (``/network/``): every club of the network by city, each with its
address, the link to its own site and its tables, those with a game in progress showing
who plays and the score.

Read across the walls on purpose (``all_clubs``): the clubs, every club's active tables with
their status (``tables.selectors.tables_with_status``) and the games in progress with their
seats (``games.selectors.games_in_progress``) — four queries however many clubs, tables and
games; the scores come from each game's cached replay on its row. Nothing of money, staff or
phones is read.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.urls import reverse

from clubs.models import Club
from clubs.scoping import all_clubs
from games import rules
from games.selectors import game_state, games_in_progress
from tables.selectors import tables_with_status


@dataclass
class ClubOfNetwork:
    club: Club
    url: str  # its home page at its first host name ("/" for a club without host names)
    here: bool  # the club of the request
    # its active tables, each with .game (in progress, or None), .seats and .board_url
    tables: list = field(default_factory=list)

    @property
    def live(self):
        """How many of its tables have a game in progress."""
        return sum(1 for table in self.tables if table.game is not None)


def seats_and_scores(game):
    """[(display name, score), …] in the seats' order; the scores None when the game's replay
    fails (a game of settings the engine no longer takes: the names alone)."""
    seats = [seat.name for seat in game.seats.all()]
    try:
        scores = list(game_state(game).scores)
    except (rules.RuleViolation, rules.SettingsError):
        scores = []
    if len(scores) != len(seats):
        scores = [None] * len(seats)
    return list(zip(seats, scores, strict=True))


def network_by_city(request):
    """[(city, [ClubOfNetwork, …]), …]: the cities in alphabetical order (the clubs without a
    city last), the clubs of each by name. Links keep the request's scheme and port."""
    here = getattr(request, "club", None)
    clubs = [
        ClubOfNetwork(club=club, url=club.home_url(request), here=here is not None and here == club)
        for club in Club.objects.order_by("city", "name", "pk")
    ]
    by_pk = {entry.club.pk: entry for entry in clubs}
    with all_clubs():
        tables = tables_with_status()
        # the replay cached on the row gives the score (games_in_progress leaves it out)
        playing = {game.table_id: game for game in games_in_progress().defer(None)}
    for table in tables:
        entry = by_pk.get(table.club_id)
        if entry is None:
            continue
        table.game = playing.get(table.pk)
        table.seats = seats_and_scores(table.game) if table.game is not None else []
        table.board_url = entry.url.rstrip("/") + reverse("games:board", args=[table.number])
        entry.tables.append(table)
    cities = defaultdict(list)
    for entry in clubs:
        cities[entry.club.city.strip()].append(entry)
    return sorted(cities.items(), key=lambda item: (item[0] == "", item[0].casefold()))
