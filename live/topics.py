"""The names of what a screen can follow: one topic per table board, the wall, a game's
console (and a tournament's board, a player's own page). A write publishes every topic its
change shows on. A screen may follow several topics at once (a tuple: ``live.hub``)."""

WALL = "wall"
CLOCKS = "clocks"  # a table's clock changed (billing): the lights' controller hears it
LIGHTS = "lights"  # a light changed: the desks and the home page hear it


def table(number):
    return f"table.{number}"


def game(pk):
    return f"game.{pk}"


def tournament(pk):
    return f"tournament.{pk}"


def player(pk):
    """A player's own page (``me``): his games, his matches, his confirmations."""
    return f"player.{pk}"
