import logging
import sys
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import SuspiciousOperation
from django.db import IntegrityError, InterfaceError, OperationalError
from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation

from toolbox.constraints import violation_message
from toolbox.responses import bad_request


class LanguageFromQueryMiddleware:
    """``?lang=ru`` or ``?lang=en`` on any page picks its language and remembers it.

    The boards have no language switcher (nothing but the game on a TV): a TV set up in
    another language than the club's opens ``/board/?lang=ru`` once. The choice is kept in
    the same cookie the site's switcher sets, so the boards' polls keep it too.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = request.GET.get("lang")
        if language not in dict(settings.LANGUAGES):
            return self.get_response(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return response


class RejectNulMiddleware:
    """A query or form parameter holding a NUL character is refused with a 400.

    No field of the site accepts one, PostgreSQL refuses it in text, and Django's form fields
    reject it too — but not every view reads its input through a form. Checked here once, for
    every key and value of GET and POST, after authentication so that the error page shows
    the usual menu.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if has_nul(request.GET) or (request.method == "POST" and has_nul(request.POST)):
            return bad_request(request)
        return self.get_response(request)


def has_nul(query_dict):
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in query_dict.lists()
    )


logger = logging.getLogger(__name__)
BUSY = (OperationalError, InterfaceError)  # no connection in time, "too many clients", down
RETRY_AFTER_SECONDS = 5


def busy_response(request):
    """503 with Retry-After and a page that needs no database (it tries again by itself)."""
    context = {"retry_after": RETRY_AFTER_SECONDS, "language": translation.get_language()}
    html = render_to_string("503.html", context)
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response._has_been_logged = True  # a warning, not django.request's error for a 5xx
    return response


class DatabaseErrorMiddleware:
    """What the database refuses is answered, never a 500, and changes nothing (the write's
    transaction was rolled back):

    - no connection in time (the pool is exhausted, the server refuses more clients, it is
      down): 503 with Retry-After;
    - a race for a constraint (two cashiers opening a shift, two admins adding table 5 at
      once) that the view did not catch itself: 409 with the constraint's own message.

    Errors raised outside a view (a session saved as the response goes) are answered alike by
    ``server_error``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, BUSY):
            logger.warning("Database busy, answered 503: %s", exception)
            return busy_response(request)
        if isinstance(exception, IntegrityError):
            logger.warning("A race for a constraint, answered 409: %s", exception)
            return refusal_response(request, violation_message(exception))
        return None


def refusal_response(request, message):
    """409: the refused write's reason, on a page (and in a header htmx's banner shows)."""
    response = render(request, "409.html", {"message": message}, status=409)
    response["X-Refusal"] = quote(message)
    return response


def server_error(request):
    """The 500 handler: the 503 of a busy database when that is what went wrong."""
    if isinstance(sys.exc_info()[1], BUSY):
        return busy_response(request)
    return HttpResponse(render_to_string("500.html"), status=500)


def bad_request_handler(request, exception):
    """The 400 handler: Django's answer to a request it will not read (more parameters than
    ``DATA_UPLOAD_MAX_NUMBER_FIELDS``, a body too big, a Host header not allowed), raised
    before the middleware that sets the user may have run. The 400 page, for a visitor, with
    the query it could not read left out (the page's language links copy the query)."""
    if not hasattr(request, "user"):
        request.user = AnonymousUser()
    try:
        request.GET  # noqa: B018 - raises when the query is what was refused
    except SuspiciousOperation:
        request.GET = QueryDict()
    return bad_request(request)
