"""How billing shows weekdays, hours and money to people (translated)."""

from decimal import Decimal

from django.utils.dates import WEEKDAYS_ABBR
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from billing.pricing import WEEK, half_up

# What each kind of audit entry is, in the reader's language (the codes are what the services
# write; the Django admin lists and filters the log by these names).
AUDIT_ACTIONS = {
    "session.start": pgettext_lazy("audit action", "Clock started"),
    "session.pause": pgettext_lazy("audit action", "Clock paused"),
    "session.resume": pgettext_lazy("audit action", "Clock resumed"),
    "session.stop": pgettext_lazy("audit action", "Clock stopped"),
    "session.move": pgettext_lazy("audit action", "Moved to another table"),
    "session.correct": pgettext_lazy("audit action", "Time corrected"),
    "bill.open": pgettext_lazy("audit action", "Bill opened"),
    "bill.add": pgettext_lazy("audit action", "Bar item added"),
    "bill.remove": pgettext_lazy("audit action", "Bar item removed"),
    "bill.discount": pgettext_lazy("audit action", "Member's discount"),
    "bill.payer": pgettext_lazy("audit action", "Payer added"),
    "bill.unpayer": pgettext_lazy("audit action", "Payer removed"),
    "bill.split": pgettext_lazy("audit action", "Bill split"),
    "payment": pgettext_lazy("audit action", "Payment"),
    "shift.open": pgettext_lazy("audit action", "Shift opened"),
    "shift.close": pgettext_lazy("audit action", "Shift closed"),
}


def audit_action(code):
    """An audit entry's kind in words; an unknown code as it is."""
    return str(AUDIT_ACTIONS.get(code, code))


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


def money(amount):
    """``123450`` → "1 234,50 ₽" in Russian, "1,234.50 ₽" in English."""
    value = Decimal(to_kopecks(amount)) / 100
    return f"{number_format(value, 2, force_grouping=True)} ₽"


def duration(seconds):
    """``3725`` → "1:02:05"."""
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"


def _clock_time(value):
    from datetime import datetime

    from django.utils import timezone

    if not value:
        return "…"
    return timezone.localtime(datetime.fromisoformat(value)).strftime("%d.%m %H:%M:%S")


def describe_entry(entry):
    """One audit entry in words, in the reader's language."""
    details = entry.details or {}
    table = details.get("table")
    if entry.action == "session.start":
        text = _("Clock started on table %(table)s") % {"table": table}
        if details.get("prepaid_minutes"):
            text += ", " + _("%(minutes)s min prepaid") % {"minutes": details["prepaid_minutes"]}
        return text
    if entry.action == "session.pause":
        return _("Paused")
    if entry.action == "session.resume":
        return _("Resumed")
    if entry.action == "session.stop":
        return _("Clock stopped")
    if entry.action == "session.move":
        return _("Moved from table %(old)s to table %(new)s") % {
            "old": details.get("from_table"),
            "new": table,
        }
    if entry.action == "session.correct":
        old, new = details.get("old", [None, None]), details.get("new", [None, None])
        return _("Time corrected on table %(table)s: %(old)s → %(new)s") % {
            "table": table,
            "old": f"{_clock_time(old[0])} – {_clock_time(old[1])}",
            "new": f"{_clock_time(new[0])} – {_clock_time(new[1])}",
        }
    if entry.action == "bill.open":
        return _("Bill opened")
    if entry.action in ("bill.add", "bill.remove"):
        text = (
            _("Added %(item)s × %(quantity)s")
            if entry.action == "bill.add"
            else _("Removed %(item)s × %(quantity)s")
        )
        return text % {"item": details.get("item"), "quantity": details.get("quantity")}
    if entry.action == "bill.discount":
        return _("Member's discount %(percent)s%%") % {"percent": details.get("percent")} + (
            f" ({details['member']})" if details.get("member") else ""
        )
    if entry.action == "bill.payer":
        return _("Payer added: %(name)s") % {"name": details.get("name")}
    if entry.action == "bill.unpayer":
        return _("Payer removed: %(name)s") % {"name": details.get("name")}
    if entry.action == "bill.split":
        from billing.models import SplitMode

        mode = details.get("mode")
        label = SplitMode(mode).label if mode in SplitMode.values else mode
        return _("Split: %(mode)s") % {"mode": label}
    if entry.action == "payment":
        from billing.models import PaymentMethod

        method = details.get("method")
        return _("Paid %(amount)s, %(method)s, receipt №%(receipt)s") % {
            "amount": money(details.get("amount", 0)),
            "method": PaymentMethod(method).label if method in PaymentMethod.values else method,
            "receipt": details.get("receipt"),
        }
    if entry.action == "shift.open":
        return _("Shift opened with %(cash)s") % {"cash": money(details.get("cash", 0))}
    if entry.action == "shift.close":
        return _("Shift closed: counted %(counted)s, expected %(expected)s") % {
            "counted": money(details.get("counted", 0)),
            "expected": money(details.get("expected", 0)),
        }
    return entry.action
