from django import template

from games.i18n import render_message

register = template.Library()


@register.filter(name="msg")
def msg(message):
    """``{{ some_message|msg }}`` renders a rules-engine Message in the active language."""
    return render_message(message)
