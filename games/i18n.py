"""Rendering the rules engine's translatable ``Message``s in the active language, and numbers
the way every page shows them.

- ``render_message(message, names=None)``: ``gettext(msgid) % params``, nested Messages
  rendered too. With ``names`` (the seats' names in playing order) a seat the engine names
  "Player 2" (``rules.player_ref``) is rendered as that seat's name: «Сокол: промах — …».
- ``minus(value)``: a negative number with the minus sign U+2212 («−12», never «-12»); every
  score a page shows goes through it (the ``minus`` template filter, and every number in a
  rendered Message).
"""

from django.utils.functional import lazy
from django.utils.translation import gettext

from games.rules.base import PLAYER, Message

MINUS = "\u2212"


def minus(value):
    """``value`` as text, a negative whole number with U+2212; anything else unchanged."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"{MINUS}{-value}"
    return value


def render_message(message, names=None):
    """``gettext(msgid) % params`` for a ``games.rules.base.Message`` (or a plain string)."""
    if message is None:
        return ""
    if isinstance(message, str):
        return gettext(message)
    if names and message.msgid == PLAYER:
        index = message.params.get("seat", 0) - 1
        if 0 <= index < len(names) and names[index]:
            return names[index]
    text = gettext(message.msgid)
    if not message.params:
        return text
    return text % {
        key: render_message(value, names) if isinstance(value, Message) else minus(value)
        for key, value in message.params.items()
    }


lazy_message = lazy(render_message, str)  # rendered when shown, in the request's language
