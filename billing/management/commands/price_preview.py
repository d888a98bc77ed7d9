"""``manage.py price_preview --kind pyramid_12 --start "2026-12-04 17:20" --end "…"``:
one line per band period, the time added by rounding up to the step (or the minimum), the
rounding to whole roubles, the discount, then ``total: <roubles>.<kopecks>``; the amounts of
the lines, as printed, add up to the total. Times are the club's local time."""

from datetime import datetime

from django.core.management.base import BaseCommand, CommandError

from billing import selectors
from billing.labels import duration, to_kopecks
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
        printed = 0  # kopecks of the lines as printed, each rounded to the kopeck
        for period in price.periods:
            amount = to_kopecks(period.amount)
            printed += amount
            self.stdout.write(
                f"{period.start:%Y-%m-%d %H:%M:%S} – {period.end:%Y-%m-%d %H:%M:%S}  "
                f"{period.band.name}  {format_kopecks(period.price_per_hour)}/h  "
                f"{duration(period.seconds)}  {format_kopecks(amount)}"
            )
        if price.extra:
            extra = to_kopecks(price.extra_amount)
            printed += extra
            self.stdout.write(
                f"rounded up to {duration(price.charged)}: +{duration(price.extra)} at "
                f"{format_kopecks(price.extra_band.price_per_hour)}/h  {format_kopecks(extra)}"
            )
        # What the rounding to whole roubles adds, less what printing each line to the
        # kopeck already did: the lines then add up to the total exactly.
        self.stdout.write(f"rounding to whole roubles  {format_kopecks(price.rounded - printed)}")
        if price.discount:
            self.stdout.write(
                f"member's discount {price.discount_percent}%  {format_kopecks(-price.discount)}"
            )
        self.stdout.write(f"total: {format_kopecks(price.total)}")

    @staticmethod
    def moment(value, tz):
        try:
            return datetime.strptime(value, FORMAT).replace(tzinfo=tz)
        except ValueError as error:
            raise CommandError(f'Times are "YYYY-MM-DD HH:MM", not {value!r}.') from error
