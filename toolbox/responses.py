"""What a view answers with, written once: the whole page or the partial that HTMX swaps, a
redirect that htmx follows too, and the 400 page."""

from django.shortcuts import redirect as django_redirect
from django.shortcuts import render
from django_htmx.http import HttpResponseClientRedirect


def wants_partial(request, target=None):
    """True for an HTMX request that swaps a part of the page: not a history restore (which
    needs the whole page); with ``target``, only one that swaps the element of that id."""
    htmx = getattr(request, "htmx", None)
    if not htmx or htmx.history_restore_request:
        return False
    return target is None or htmx.target == target


def page_or_partial(request, template, partial, *, when=True, target=None):
    """``template#partial`` when the request ``wants_partial`` (and ``when``), else the page."""
    return f"{template}#{partial}" if when and wants_partial(request, target) else template


def render_page_or_partial(
    request, template, partial, context, *, when=True, target=None, status=200
):
    """The page, or only its ``partial`` for the htmx request that swaps it."""
    template = page_or_partial(request, template, partial, when=when, target=target)
    return render(request, template, context, status=status)


def redirect(request, to, *args, **kwargs):
    """A redirect (a URL, or a view name with its arguments, as Django's ``redirect``) that an
    htmx request follows with a whole page load (``HX-Redirect``)."""
    response = django_redirect(to, *args, **kwargs)
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(response.url)
    return response


def bad_request(request):
    """The 400 page: the request held something no page accepts; nothing was changed."""
    return render(request, "400.html", status=400)
