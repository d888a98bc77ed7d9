"""``manage.py restore_club PATH``: a ``backup_club`` file back into an empty database.

Creates the tables first (``migrate``), refuses a database that already holds club data
(nothing is ever merged or overwritten), then loads the whole file in one transaction: either
all of the club is back or nothing changed.

A backup made before the network of clubs (issue 32) is one club's: its rows get the club it
holds (or the one ``migrate`` made) and its staff's roles, then Django groups, become their
roles at that club — the same steps the migrations take with a database of that time.
"""

import gzip
import json
import sys
import tempfile
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.current import forget_clubs
from clubs.scoping import ClubOwned
from clubs.staff import roles_from_groups


def club_rows():
    """(label, count) of every model of the club's own apps with rows, and of the users.

    Groups are not counted: ``migrate`` creates the roles; the backup's groups are matched to
    them by name. Nor is the one club ``migrate`` creates (``clubs`` 0002, from the settings):
    a backup that has its club puts it in that club's place, an older one keeps it.
    """
    installed = Path(sys.prefix).resolve()  # the virtualenv may lie inside the project
    own = [
        config
        for config in apps.get_app_configs()
        if Path(config.path).resolve().is_relative_to(settings.BASE_DIR)
        and not Path(config.path).resolve().is_relative_to(installed)
    ]
    models = [model for config in own for model in config.get_models()]
    models.append(get_user_model())
    # Every club's rows (the base manager: ``clubs.scoping`` walls none of them here).
    counts = [(m._meta.label, m._base_manager.count()) for m in models if m._base_manager.exists()]
    return [(label, count) for label, count in counts if (label, count) != ("clubs.Club", 1)]


class Command(BaseCommand):
    help = "Restore a backup_club file into an empty database."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the .json.gz file backup_club wrote")

    def handle(self, *args, path, **options):
        source = Path(path)
        if not source.is_file():
            raise CommandError(f"No such file: {source}")
        call_command("migrate", interactive=False, verbosity=0)
        occupied = club_rows()
        if occupied:
            found = ", ".join(f"{label}: {count}" for label, count in occupied)
            raise CommandError(
                "This database already holds club data "
                f"({found}); restore into an empty database (a new one, or after "
                "`manage.py flush`)."
            )
        club_model = apps.get_model("clubs", "Club")
        rows = json.loads(gzip.decompress(source.read_bytes()))
        with transaction.atomic(), tempfile.TemporaryDirectory() as folder:
            # A backup that has its club (any since the network, ``backup_club --club``)
            # brings it under its own id and short name: it takes the place of the one
            # ``migrate`` made (no club data: refused above otherwise), which goes first,
            # since the two may share a short name under other ids.
            if any(row["model"] == "clubs.club" for row in rows):
                club_model.objects.all().delete()
            call_command("loaddata", str(walled(source, rows, Path(folder))), verbosity=0)
            roles_from_groups(club_model.objects.order_by("pk").first())
        forget_clubs()
        games = apps.get_model("games", "Game")._base_manager.count()
        players = apps.get_model("players", "Player")._base_manager.count()
        self.stdout.write(f"Restored {source}: {players} players, {games} games.")


def walled(source, rows, folder):
    """``source`` (whose ``rows`` these are), or where it is older than the clubs' walls, a
    copy of it in ``folder`` whose rows of a club name their club (the one it holds, else
    the one migrate made)."""
    owned = {model._meta.label_lower for model in apps.get_models() if issubclass(model, ClubOwned)}
    older = [row for row in rows if row["model"] in owned and "club" not in row["fields"]]
    if not older:
        return source
    clubs = [row["pk"] for row in rows if row["model"] == "clubs.club"]
    club = clubs[0] if clubs else apps.get_model("clubs", "Club").objects.order_by("pk").first().pk
    for row in older:
        row["fields"]["club"] = club
    copy = folder / source.name
    copy.write_bytes(gzip.compress(json.dumps(rows, ensure_ascii=False).encode()))
    return copy
