"""``{% embed_snippet path title %}``: the ``<iframe>`` a visitor copies to show one of the
embeds (``broadcast``) on his own site, with a "copy" button; the tournament's page, the
leaderboards and the overlays' page show it."""

from django import template

register = template.Library()


@register.inclusion_tag("broadcast/_embed_snippet.html", takes_context=True)
def embed_snippet(context, path, title, height=480):
    request = context.get("request")
    url = request.build_absolute_uri(path) if request is not None else path
    return {"url": url, "title": title, "height": height}
