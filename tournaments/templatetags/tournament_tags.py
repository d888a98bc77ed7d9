"""The player page's list of tournaments with the place reached."""

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_player_tournaments.html")
def player_tournaments(player):
    return {"rows": selectors.player_tournaments(player)}
