"""The names of what a screen can follow: one topic per table board, the wall, a game's
console (and a tournament's board, a player's own page). A write publishes every topic its
change shows on. A screen may follow several topics at once (a tuple: ``live.hub``).

On a site of several clubs each club's topics are its own: ``clubs.current.using_club`` puts
the work in the club's namespace, and every topic published (``live.publishing``) or
followed (``live.streams.Feed``) within it is named in it (``named``): a stroke in one club
wakes no other club's screens, and two clubs' boards at the same address share no snapshot.
"""

from contextlib import contextmanager
from contextvars import ContextVar

_namespace = ContextVar("live_namespace", default="")


@contextmanager
def namespace(name):
    """The topics published and followed within the block are ``name``'s ("" for none)."""
    token = _namespace.set(name)
    try:
        yield
    finally:
        _namespace.reset(token)


def current_namespace():
    """The namespace the topics are named in now ("" for none): what a memo of feeds made
    once per topic keys them by, beside the topic (``boards.feeds``)."""
    return _namespace.get()


def named(topic):
    """``topic`` (or a tuple of topics) in the current namespace."""
    name = _namespace.get()
    if not name:
        return topic
    if isinstance(topic, str):
        return f"{name}/{topic}"
    return tuple(f"{name}/{one}" for one in topic)


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
