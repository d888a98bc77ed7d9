import json

from django import template

from billing import labels, selectors
from billing.models import PaymentMethod
from tables.models import TableKind
from toolbox.roles import can_run_clocks

register = template.Library()


@register.filter
def money(kopecks):
    """Kopecks (an int or an exact Fraction) as roubles: ``{{ 45000|money }}`` → 450,00 ₽."""
    if kopecks is None or kopecks == "":
        return ""
    return labels.money(kopecks)


@register.filter
def amounts_json(clock):
    """A running clock's totals ahead as clock.js reads them: [[elapsed, "1 234,00 ₽"], …]."""
    return json.dumps([[elapsed, labels.money(total)] for elapsed, total in clock.amounts])


@register.filter
def duration(seconds):
    """Seconds as h:mm:ss."""
    if seconds is None or seconds == "":
        return ""
    return labels.duration(seconds)


@register.filter
def seconds_until(start, end):
    """``{{ a|seconds_until:b }}``: whole seconds from a to b."""
    return int((end - start).total_seconds())


@register.inclusion_tag("billing/partials/board_clock.html")
def board_clock(number):
    """A table's clock strip for its board: refreshes itself every 15 s, ticks every second."""
    return selectors.board_clock(number)


@register.inclusion_tag("billing/partials/clock_offer.html", takes_context=True)
def clock_offer(context, table):
    """On the marker's console: "start the table's clock?" when it is not running and the
    user may start it."""
    request = context["request"]
    show = can_run_clocks(request.user) and not selectors.clock_running(table)
    return {"show": show, "table": table, "next": request.get_full_path(), "request": request}


@register.simple_tag
def method_label(method):
    return PaymentMethod(method).label


@register.simple_tag
def kind_label(kind):
    return TableKind(kind).label if kind in TableKind.values else kind
