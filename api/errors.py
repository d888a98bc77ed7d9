"""The API's errors are the API's: every error answered under ``/api/`` is JSON in the shape
its schema documents — ``{"detail": …}``, and for a 400 ``{"detail": …, "errors": […]}`` —
whichever layer of the site answered it.

The endpoints' own errors (a bad parameter, an unknown id, the rate limit) are django-ninja's
exception handlers (``api.urls``). Others are answered before or around the API by the site:
a query string Django cannot read (more parameters than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``) or
one that holds a NUL character (``clubsite.middleware.RejectNulMiddleware`` refuses those on
every page), an address that no route knows, a method the API does not serve, a Host header
not allowed, a busy database (503 with Retry-After), a server error. ``ApiErrorsMiddleware``
refuses the unreadable queries itself, naming the parameter, and turns any other answer of
4xx or 5xx that is not JSON into the API's error of the same status, keeping its headers
(Retry-After, Allow, CORS). With ``DEBUG`` on a 500 is left as Django or ninja wrote it: the
traceback is the developer's.
"""

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import JsonResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

PREFIX = "/api/"
CONTENT_TYPE = "application/json; charset=utf-8"  # as django-ninja's own answers


def problem(status, detail, errors=None):
    """The API's error answer: ``{"detail"}``, with ``errors`` (a list of
    "where: what" lines) for a 400 as ``schemas.ValidationProblem`` says."""
    body = {"detail": detail}
    if status == 400:
        body["errors"] = list(errors or ())
    return JsonResponse(body, status=status, content_type=CONTENT_TYPE)


def detail_for(status):
    """What an answer of ``status`` that the API did not word itself says."""
    if status == 400:
        return _("A parameter of the request is not valid.")
    if status == 404:
        return _("Not found.")
    if status == 405:
        return _("Method not allowed: the API answers GET only.")
    if status == 429:
        return _("Too many requests: wait a little and ask again.")
    if status == 503:
        return _("The server is busy: ask again in a few seconds.")
    if status >= 500:
        return _("The server failed to answer; the error is logged.")
    return _("The request was refused.")


def unreadable_query(request):
    """The lines of a 400 for a query string no page reads (too many parameters, a NUL
    character in a name or a value), else an empty list."""
    try:
        query = request.GET
    except TooManyFieldsSent:
        return [
            _("query: more than %(limit)s parameters")
            % {"limit": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
        ]
    return [
        _("query.%(name)s: a NUL character") % {"name": key.replace("\x00", "\\x00")}
        for key, values in query.lists()
        if "\x00" in key or any("\x00" in value for value in values)
    ]


def is_json(response):
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


def as_problem(response):
    """``response`` (an error the site wrote as a page) as the API's JSON error of the same
    status, with the same headers and cookies."""
    converted = problem(response.status_code, detail_for(response.status_code))
    for header, value in response.items():
        if header.lower() not in {"content-type", "content-length"}:
            converted[header] = value
    converted.cookies = response.cookies
    if getattr(response, "_has_been_logged", False):
        converted._has_been_logged = True
    return converted


class ApiErrorsMiddleware:
    """Under ``/api/``: a query string that cannot be read is the API's 400, and every other
    error is answered as JSON (see the module's docstring). Placed right after the CORS
    middleware, so that other sites' scripts may read these errors too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(PREFIX):
            return self.get_response(request)
        # Before the locale middleware, which reads the query (?lang=): in the language the
        # browser asks for.
        language = translation.get_language_from_request(request)
        with translation.override(language):
            errors = unreadable_query(request)
            refused = problem(400, detail_for(400), errors) if errors else None
        if refused is not None:
            refused["Content-Language"] = language
            patch_vary_headers(refused, ("Accept-Language",))
            return refused
        response = self.get_response(request)
        if response.status_code < 400 or is_json(response):
            return response
        if response.status_code >= 500 and response.status_code != 503 and settings.DEBUG:
            return response  # the traceback Django or ninja wrote, for the developer
        return as_problem(response)
