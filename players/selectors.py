"""Reads of the players roster."""

from players.models import Membership, Player, search_key

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
    """The people CSV rows name: {name key: player} for the keys (``name_key_for``) that
    name one in the network — the active player, else the most recently changed inactive
    one. A query per ``chunk`` keys, not one per row."""
    keys = list(dict.fromkeys(keys))
    found = {}
    for start in range(0, len(keys), chunk):
        # The network's people: a name another club's roster holds is the same person (the
        # unique active name is the network's), linked to this club rather than made again.
        players = Player.everywhere.filter(name_key__in=keys[start : start + chunk]).order_by(
            "-is_active", "-updated_at", "-pk"
        )
        for player in players:
            found.setdefault(player.name_key, player)  # the first in that order
    return found


def phone_digits(phone):
    """A phone as numbers are compared: its last ten digits (+7 912… and 8 912… alike)."""
    digits = "".join(char for char in phone or "" if char.isdigit())
    return digits[-10:]


def find_by_phones(phones):
    """The network's people with these phones (written any way): {digits: person}, for the
    phones of at least seven digits; one query."""
    wanted = {phone_digits(phone) for phone in phones} - {""}
    wanted = {digits for digits in wanted if len(digits) >= 7}
    if not wanted:
        return {}
    found = {}
    rows = Player.everywhere.exclude(phone="").order_by("-is_active", "-updated_at", "-pk")
    for player in rows.only("pk", "full_name", "nickname", "phone", "skill_class"):
        digits = phone_digits(player.phone)
        if digits in wanted:
            found.setdefault(digits, player)
    return found


def members_among(players):
    """The ids of those of ``players`` on the roster of the club in scope."""
    ids = [player.pk for player in players if player.pk]
    return set(Membership.objects.filter(player__in=ids).values_list("player", flat=True))


def clubs_of(players):
    """{person id: the names of the clubs whose rosters hold him}, for the network's likely
    duplicates (names only: another club's member's contacts stay his club's)."""
    ids = [player.pk for player in players if player.pk]
    found = {}
    rows = Membership.everywhere.filter(player__in=ids).select_related("club")
    for membership in rows.order_by("club__name"):
        found.setdefault(membership.player_id, []).append(membership.club.name)
    return found


def player_of(user):
    """The signed-in account's player (a person of the network), or None."""
    if not user.is_authenticated:
        return None
    return Player.everywhere.filter(user=user).first()
