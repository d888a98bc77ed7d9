"""The odds as the pages write them (``records.forecast``): «71 %» in the club's language,
and a table of a pair's odds of several kinds (the match, each frame, the fair race)."""

from django import template
from django.utils.translation import gettext

register = template.Library()


@register.filter
def percent(value):
    """``{{ 71|percent }}``: a whole percentage, «71 %» in Russian, "71%" in English."""
    return gettext("%(percent)s%%") % {"percent": value}


@register.inclusion_tag("records/_odds_table.html")
def odds_table(*columns):
    """A pair's odds of several kinds, a column each: ``{% odds_table label chances kind
    label chances kind … %}`` (``records.forecast.Chances`` of the same two sides; a column
    without chances is left out). A row per side — the names are the long part, so
    they get the width of a phone — with a provisional rating marked beside the name."""
    shown = [
        {"label": columns[i], "chances": columns[i + 1], "kind": columns[i + 2]}
        for i in range(0, len(columns) - 2, 3)
        if columns[i + 1]  # None, or "" for a variable the page does not have
    ]
    if not shown:
        return {"columns": [], "rows": []}
    first = shown[0]["chances"]
    rows = [
        {
            "name": first.names[side],
            "provisional": first.provisional[side],
            "cells": [(column["kind"], column["chances"].percents[side]) for column in shown],
        }
        for side in (0, 1)
    ]
    return {"columns": shown, "rows": rows}
