"""How billing shows weekdays, hours, money and moments to people (translated).

It imports no model: the models put themselves in words with it.
"""

from datetime import datetime
from decimal import Decimal

from django.utils import timezone
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from billing.pricing import WEEK, half_up


def day_names():
    return [str(WEEKDAYS_ABBR[day]) for day in range(7)]


def weekdays_label(numbers):
    """``{0, 1, 2, 3, 4}`` → "Mon–Fri"; every day → "every day"; else a comma list."""
    numbers = sorted(numbers)
    names = day_names()
    if set(numbers) == WEEK:
        return _("every day")
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{names[numbers[0]]}–{names[numbers[-1]]}"
    return ", ".join(names[number] for number in numbers)


def to_kopecks(amount):
    """An int, or an exact Fraction of kopecks rounded to the kopeck (half away from 0)."""
    if isinstance(amount, int):
        return amount
    sign = -1 if amount < 0 else 1
    return sign * half_up(abs(amount.numerator), amount.denominator)


MINUS = "\u2212"  # a negative amount is written with the minus sign, not a hyphen


def money(amount):
    """``123450`` → "1 234,50 ₽" in Russian, "1,234.50 ₽" in English; ``-35000`` → "−350,00 ₽"."""
    kopecks = to_kopecks(amount)
    text = number_format(Decimal(abs(kopecks)) / 100, 2, force_grouping=True)
    return f"{MINUS if kopecks < 0 else ''}{text} ₽"


def duration(seconds):
    """``3725`` → "1:02:05"."""
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"


def clock_time(value):
    """A moment stored as ISO text (an audit entry's details) in the club's time: "03.12
    18:00:00"; none → "…"."""
    if not value:
        return "…"
    return timezone.localtime(datetime.fromisoformat(value)).strftime("%d.%m %H:%M:%S")
