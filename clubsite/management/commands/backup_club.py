"""``manage.py backup_club [PATH]``: the whole club in one compressed file.

The database is everything the club has (no uploaded files): players, tables, games with
their events, seats and results, tariffs, the staff accounts and their groups, the admin's
history. It is written with Django's ``dumpdata`` as gzip-compressed JSON (times to the
microsecond: ``clubsite/backup_format.py``), with natural keys
for users, groups, permissions and content types, so that ``restore_club`` can load it into
any fresh database (SQLite or PostgreSQL) whatever ids those got there. Left out: what
``migrate`` recreates (content types, permissions), sessions and the login-throttling log.

The whole file is read in ONE transaction, so that it is the club at one instant however
busy the evening: on PostgreSQL a read-only REPEATABLE READ one (one snapshot for every table:
no stretch without its session, no event past its game's ``last_seq``, while strokes and
clocks go on being written); SQLite's read transaction holds writers off meanwhile.

The file is written beside its final name and renamed when complete: a backup that fails
half-way never leaves a truncated file that looks like a good one.

A site of several clubs is backed up whole (every club's rows); ``--club <host>`` backs up
one club: its own rows (``clubs.scoping``), its club row, its staff and the network's people
(players, their accounts), but no other club's rows nor its staff. Restored into an empty
database it is a site of that one club.
"""

import gzip
import os
from datetime import datetime
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Q

from clubs.current import club_for_host, using_club
from clubs.models import Club
from clubs.scoping import ClubManager
from clubs.staff import staff_elsewhere
from players.models import Player

EXCLUDED = [
    "contenttypes",
    "auth.permission",
    "sessions",
    "axes",
]


class Command(BaseCommand):
    help = "Write a compressed backup of the whole club (the database) to PATH (.json.gz)."

    def add_arguments(self, parser):
        parser.add_argument(
            "path",
            nargs="?",
            help="where to write it, ending in .json.gz "
            "(default: luza-backup-YYYY-MM-DD-HHMMSS.json.gz here)",
        )
        parser.add_argument(
            "--club", help="one club only: its host name or short name (its people with it)"
        )

    def handle(self, *args, path=None, club=None, **options):
        club = self.club(club) if club else None
        if path is None:
            path = f"luza-backup-{datetime.now():%Y-%m-%d-%H%M%S}.json.gz"
        target = Path(path)
        if not target.name.endswith(".json.gz"):
            raise CommandError("The backup's name must end in .json.gz")
        if not target.parent.is_dir():
            raise CommandError(f"No such directory: {target.parent}")
        partial = target.with_name(f".{target.name}.partial.json.gz")
        try:
            with transaction.atomic():
                one_snapshot()
                if club is not None:
                    write_club(club, partial)
                else:
                    call_command(
                        "dumpdata",
                        exclude=EXCLUDED,
                        format="club-json",  # Django's JSON, times to the microsecond
                        natural_foreign=True,
                        natural_primary=True,
                        use_base_manager=True,  # every club's rows (clubs.scoping)
                        output=str(partial),
                        verbosity=0,
                    )
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        size = target.stat().st_size
        what = f"the club {club.name!r}" if club else "the club"
        self.stdout.write(f"Backed up {what} to {target} ({size:,} bytes).")

    def club(self, name):
        club = Club.objects.filter(slug=name).first() or club_for_host(name)
        if club is None:
            raise CommandError(f"No club {name!r} (its host name or short name).")
        return club


def write_club(club, path):
    """One club's rows, its club row, its staff and the network's people, to ``path``."""
    # Within the club, the serializer too: a row's many-to-many (a series' wildcards) is read
    # through the related model's managers, walled like any read.
    with using_club(club), gzip.open(path, "wt", encoding="utf-8") as stream:
        serializers.serialize(
            "club-json",
            list(club_objects(club)),
            stream=stream,
            use_natural_foreign_keys=True,
            use_natural_primary_keys=True,
        )


def club_objects(club):
    """What a club's backup holds, parents before children (as ``dumpdata`` orders them)."""
    app_list = [(config, None) for config in apps.get_app_configs() if config.models_module]
    people = people_of_the_club()
    kept = {}  # a model of no club's walls whose rows were kept as the club's: their ids
    for model in serializers.sort_dependencies(app_list, allow_cycles=True):
        label = model._meta.label_lower
        if model._meta.proxy or label.split(".")[0] in EXCLUDED or label in EXCLUDED:
            continue
        if model is Club:
            yield club
            continue
        rows = model._default_manager.all()  # the club's own rows (clubs.scoping)
        if model is get_user_model():
            rows = rows.exclude(pk__in=staff_elsewhere())
        elif model is Player:  # its members, and whoever else its rows name (a guest)
            rows = Player.everywhere.filter(pk__in=people)
        elif not walled(model):  # a row of no club naming people (a rating): of its people
            rows, owned = of_the_club(model, rows, club, kept)
            for field in fields(model):
                if field.related_model is Player:
                    rows = rows.filter(Q(**{f"{field.name}__in": people}) | Q(**{field.name: None}))
            if owned:
                kept[model] = set(rows.values_list("pk", flat=True))
        yield from rows.order_by(model._meta.pk.name).iterator()


def of_the_club(model, rows, club, kept):
    """A model outside the walls that may name a club (a series, a league: a club's, or the
    network's with no club) keeps the club's rows only, and its children (a series' stages, a
    league's seasons, teams, match days) those of the rows kept: another club's or the
    network's would name what the backup does not hold. A link that may be empty (a match
    day's forfeit) keeps the rows without it. Returns the rows and whether they were chosen
    so."""
    owned = False
    for field in fields(model):
        if field.many_to_one and field.related_model is Club:
            rows, owned = rows.filter(**{field.name: club}), True
        elif field.many_to_one and field.related_model in kept:
            chosen = Q(**{f"{field.name}__in": kept[field.related_model]})
            if field.null:
                chosen |= Q(**{field.name: None})
            rows, owned = rows.filter(chosen), True
    return rows, owned


def walled(model):
    return isinstance(model._default_manager, ClubManager)


def fields(model):
    return [field for field in model._meta.get_fields() if field.concrete and field.is_relation]


def people_of_the_club():
    """The ids of the people on the club's roster or named by one of its rows (a seat, an
    entrant, a bill's payer…), read through each model's walls."""
    ids = set(Player.objects.values_list("pk", flat=True))
    for relation in Player._meta.related_objects:
        related = relation.related_model
        if relation.many_to_many or not walled(related):
            continue  # a row of no club (a derived rating): not what names his club's people
        field = relation.field.attname
        ids |= set(related._default_manager.exclude(**{field: None}).values_list(field, flat=True))
    return ids


def one_snapshot():
    """The transaction just begun reads one snapshot of the whole database (PostgreSQL)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
