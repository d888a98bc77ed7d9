"""The one way a view picks between a whole page and the partial that HTMX swaps."""


def wants_partial(request, target=None):
    """True for an HTMX request that swaps a part of the page: not a history restore (which
    needs the whole page); with ``target``, only one that swaps the element of that id."""
    htmx = getattr(request, "htmx", None)
    if not htmx or htmx.history_restore_request:
        return False
    return target is None or htmx.target == target


def page_or_partial(request, template, partial, *, when=True):
    """``template#partial`` when the request ``wants_partial`` (and ``when``), else the page."""
    return f"{template}#{partial}" if when and wants_partial(request) else template
