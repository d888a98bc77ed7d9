from django import template

from games.i18n import minus as minus_sign
from games.i18n import render_message

register = template.Library()


@register.filter(name="msg")
def msg(message, names=None):
    """``{{ some_message|msg }}`` renders a rules-engine Message in the active language;
    ``{{ entry.description|msg:seat_names }}`` names the players instead of "Player 2"."""
    return render_message(message, names)


@register.filter(name="minus")
def minus(value):
    """``{{ score|minus }}``: a negative score with the minus sign (−12, not -12)."""
    return minus_sign(value)
