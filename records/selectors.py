"""Reads of the network's people for the network admin's merges: each person in brief (no
phone, e-mail or notes: those are his clubs'), and the likely duplicates."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from players.models import Player, search_key
from players.selectors import clubs_of, phone_digits
from records.merges import person_links
from records.models import PersonMerge

MAX_GROUPS = 50


@dataclass
class Person:
    player: Player
    clubs: list = field(default_factory=list)
    rows: dict = field(default_factory=dict)  # {what: how many rows name him}


def person_summary(player):
    """The person, his clubs and how many rows of each kind name him (every club's)."""
    person = Person(player, clubs=clubs_of([player]).get(player.pk, []))
    for model, link in person_links():
        count = model._base_manager.filter(**{link.name: player}).count()
        if count:
            label = str(model._meta.verbose_name_plural)
            person.rows[label] = person.rows.get(label, 0) + count
    return person


def likely_duplicates(query=""):
    """Groups of the network's people who may be one: the same phone, or the same full name
    and class (a nickname told apart or not) — [(why, [Person])], the first ``MAX_GROUPS``."""
    people = Player.everywhere.only("pk", "full_name", "nickname", "skill_class", "phone")
    people = people.order_by("full_name", "pk")
    by_phone, by_name = defaultdict(list), defaultdict(list)
    for player in people:
        digits = phone_digits(player.phone)
        if len(digits) >= 7:
            by_phone[digits].append(player)
        by_name[(search_key(player.full_name), player.skill_class)].append(player)
    groups, seen = [], set()
    for why, found in [(_("same phone"), by_phone), (_("same name and class"), by_name)]:
        for players in found.values():
            ids = frozenset(player.pk for player in players)
            if len(players) < 2 or ids in seen:
                continue
            if query and not all(
                any(word in search_key(p.full_name, p.nickname) for p in players)
                for word in search_key(query).split()
            ):
                continue
            seen.add(ids)
            groups.append((why, players))
    groups = groups[:MAX_GROUPS]
    clubs = clubs_of([player for _why, players in groups for player in players])
    return [
        (why, [Person(player, clubs=clubs.get(player.pk, [])) for player in players])
        for why, players in groups
    ]


def merges(limit=50):
    """The latest merges, each with whether a later record took it back (``undone``)."""
    taken_back = PersonMerge.objects.filter(undoes=OuterRef("pk"))
    rows = PersonMerge.objects.annotate(undone=Exists(taken_back))
    return rows.select_related("source", "target", "merged_by", "undoes")[:limit]
