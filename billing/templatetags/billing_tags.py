from django import template

from billing import labels

register = template.Library()


@register.filter
def money(kopecks):
    """Kopecks (an int or an exact Fraction) as roubles: ``{{ 45000|money }}`` → 450,00 ₽."""
    if kopecks is None or kopecks == "":
        return ""
    return labels.money(kopecks)


@register.filter
def duration(seconds):
    """Seconds as h:mm:ss."""
    if seconds is None or seconds == "":
        return ""
    return labels.duration(seconds)
