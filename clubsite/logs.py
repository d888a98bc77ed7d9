"""What the server's log lines say about the request they come from.

Every log record is written to stderr (what gunicorn and systemd collect) with the request's
path and the signed-in user's id, so that a traceback in the journal can be matched to what
someone was doing. ``RequestContextMiddleware`` remembers the request being served (in a
context variable: one per thread or task); ``RequestContextFilter`` puts its path and user id
on each record. Django's own ``django.request`` records carry the request themselves.
"""

import contextvars
import logging

_current_request = contextvars.ContextVar("luza_current_request", default=None)


class RequestContextMiddleware:
    """Remembers the request for the log lines written while it is served."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            _current_request.reset(token)


def _user_id(request):
    """The signed-in user's id, "-" for a visitor; never raises (the database may be down)."""
    user = getattr(request, "user", None)
    if user is None:
        return "-"
    try:
        return str(user.pk) if user.is_authenticated else "-"
    except Exception:  # noqa: BLE001 - a log line must never fail
        return "?"


class RequestContextFilter(logging.Filter):
    """Adds ``request_path`` and ``user_id`` to every record ("-" outside a request). A
    request refused (4xx: a 403 for a page the user's role may not see, a 404) is one line:
    Django attaches the exception it answered, whose traceback says nothing more."""

    def filter(self, record):
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info, record.exc_text = None, None
        request = getattr(record, "request", None) or _current_request.get()
        if request is None or not hasattr(request, "path"):
            record.request_path = "-"
            record.user_id = "-"
        else:
            record.request_path = f"{request.method} {request.path}"
            record.user_id = _user_id(request)
        return True
