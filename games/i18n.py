"""Rendering the rules engine's translatable ``Message``s in the active language."""

from django.utils.functional import lazy
from django.utils.translation import gettext


def render_message(message):
    """``gettext(msgid) % params`` for a ``games.rules.base.Message`` (or a plain string)."""
    if message is None:
        return ""
    if isinstance(message, str):
        return gettext(message)
    return message.render(gettext)


lazy_message = lazy(render_message, str)  # rendered when shown, in the request's language
