"""Reads of the players roster."""

from players.models import Player, search_key

ACTIVE = "active"
INACTIVE = "inactive"
ALL = "all"


def search_players(query="", status=ACTIVE):
    """Players whose name, nickname, phone or e-mail contain every word of ``query``."""
    players = Player.objects.all()
    if status == ACTIVE:
        players = players.filter(is_active=True)
    elif status == INACTIVE:
        players = players.filter(is_active=False)
    for word in search_key(query).split():
        players = players.filter(search_text__contains=word)
    return players


def find_by_names(keys, chunk=500):
    """The players CSV rows name: {name key: player} for the keys (``name_key_for``) that
    name one — the active player, else the most recently changed inactive one. A query per
    ``chunk`` keys, not one per row."""
    keys = list(dict.fromkeys(keys))
    found = {}
    for start in range(0, len(keys), chunk):
        players = Player.objects.filter(name_key__in=keys[start : start + chunk]).order_by(
            "-is_active", "-updated_at", "-pk"
        )
        for player in players:
            found.setdefault(player.name_key, player)  # the first in that order
    return found
