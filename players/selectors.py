"""Reads of the players roster."""

from players.models import Player, name_key_for, search_key

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


def find_by_name(full_name, nickname):
    """The player a CSV row names: the active one, else the most recently changed inactive one."""
    return (
        Player.objects.filter(name_key=name_key_for(full_name, nickname))
        .order_by("-is_active", "-updated_at", "-pk")
        .first()
    )
