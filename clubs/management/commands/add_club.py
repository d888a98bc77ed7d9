from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from clubs.services import add_club, messages_of


class Command(BaseCommand):
    help = "Adds a club answering the given host names (a network of clubs on one site)."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="the club's name")
        parser.add_argument(
            "--host",
            action="append",
            required=True,
            dest="hosts",
            help="a host name it answers to (repeat for several); ALLOWED_HOSTS must allow it",
        )
        parser.add_argument(
            "--time-zone",
            default=settings.TIME_ZONE,
            help="e.g. Europe/Moscow (default: the setting TIME_ZONE)",
        )
        parser.add_argument("--city", default="")
        parser.add_argument("--address", default="")

    def handle(self, *args, **options):
        try:
            club = add_club(
                options["name"],
                options["hosts"],
                options["time_zone"],
                city=options["city"],
                address=options["address"],
            )
        except ValidationError as error:
            raise CommandError(messages_of(error)) from None
        hosts = ", ".join(club.hosts)
        self.stdout.write(f"Club {club.name!r} added ({club.slug}), answering {hosts}.")
        self.stdout.write("ALLOWED_HOSTS must allow these host names too (docs/operations.md).")
