"""The player page's list of the series he is in, with his place and points."""

from django import template

from season import selectors

register = template.Library()


@register.inclusion_tag("season/_player_series.html")
def player_series(player):
    return {"rows": selectors.player_standings(player)}
