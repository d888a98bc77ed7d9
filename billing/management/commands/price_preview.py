"""``manage.py price_preview --kind pyramid_12 --start "2026-12-04 17:20" --end "…"``:
one line per band period, then ``total: <roubles>.<kopecks>``. Times are the club's local time."""

from datetime import datetime

from django.core.management.base import BaseCommand, CommandError

from billing import selectors
from billing.labels import duration
from billing.pricing import Played, format_kopecks
from tables.models import TableKind

FORMAT = "%Y-%m-%d %H:%M"


class Command(BaseCommand):
    help = "Price an interval on a table kind with the club's tariff, band period by period."

    def add_arguments(self, parser):
        parser.add_argument("--kind", required=True, choices=TableKind.values)
        parser.add_argument("--start", required=True, help='local time, "YYYY-MM-DD HH:MM"')
        parser.add_argument("--end", required=True, help='local time, "YYYY-MM-DD HH:MM"')
        parser.add_argument("--discount", type=int, default=0, help="member's discount, %%")

    def handle(self, *args, kind, start, end, discount, **options):
        tz = selectors.club_tz()
        start, end = (self.moment(value, tz) for value in (start, end))
        if end <= start:
            raise CommandError("--end must be after --start.")
        if not 0 <= discount <= 100:
            raise CommandError("--discount must be between 0 and 100.")
        try:
            price = selectors.club_tariff().price(
                [Played(start, end, kind)], discount_percent=discount
            )
        except ValueError as error:
            raise CommandError(f"{error} Define the {kind} tariff first.") from error
        for period in price.periods:
            self.stdout.write(
                f"{period.start:%Y-%m-%d %H:%M:%S} – {period.end:%Y-%m-%d %H:%M:%S}  "
                f"{period.band.name}  {format_kopecks(period.price_per_hour)}/h  "
                f"{duration(period.seconds)}  {format_kopecks(period.amount)}"
            )
        self.stdout.write(f"total: {format_kopecks(price.total)}")

    @staticmethod
    def moment(value, tz):
        try:
            return datetime.strptime(value, FORMAT).replace(tzinfo=tz)
        except ValueError as error:
            raise CommandError(f'Times are "YYYY-MM-DD HH:MM", not {value!r}.') from error
