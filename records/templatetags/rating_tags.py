"""A rating as every page shows it: the value, ± its deviation, and «П» while provisional
(``{% rating_badge rating deviation provisional %}``; a tag, not an included template: a
leaderboard writes a hundred of them)."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext

register = template.Library()


@register.simple_tag
def rating_badge(rating, deviation, provisional=False):
    text = format_html(
        '<span class="rating-value">{}</span> <span class="rating-deviation" title="{}">'
        "±&nbsp;{}</span>",
        rating,
        gettext("± the rating's deviation: how sure it is"),
        deviation,
    )
    if provisional:
        text += format_html(
            ' <abbr class="provisional" title="{}">{}</abbr>',
            gettext("Provisional: too few games or too long ago for the rating to be sure"),
            pgettext("rating mark", "provisional"),
        )
    return text
