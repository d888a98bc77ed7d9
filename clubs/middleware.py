import contextvars
import logging

from django.core.exceptions import DisallowedHost
from django.db import DatabaseError
from django.http import HttpResponseNotFound
from django.template.loader import render_to_string
from django.utils import translation

from clubs.current import club_for_host, current_club, using_club

logger = logging.getLogger(__name__)


class ClubMiddleware:
    """Decides the request's club, once, by its host name: ``request.club``, the club's time
    zone active and ``clubs.current.current_club()`` for the request. A host no club answers
    is a 404 page saying so (``/healthz`` answers any host: a load balancer's probe).

    A request made in-process within ``using_club(club)`` (a command, a test that loads the
    API's schema before any database is there) is that club's.

    A database that cannot be read (busy, down) leaves the request without a club: the view's
    own query then fails as before, answered 503 by ``clubsite.middleware`` — never a 500
    here."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if current_club() is not None:  # a page asked for in-process, within ``using_club``
            request.club = current_club()
            return self.get_response(request)
        try:
            host = request.get_host()
        except DisallowedHost:  # answered further in, as before (the API's own JSON 400)
            request.club = None
            return self.get_response(request)
        try:
            club = club_for_host(host)
        except DatabaseError as error:
            logger.warning("The clubs could not be read: %s", error)
            request.club = None
            return self.get_response(request)
        if club is None:
            if request.path == "/healthz":
                request.club = None
                return self.get_response(request)
            return no_club_here(request)
        request.club = club
        with using_club(club):
            response = self.get_response(request)
            within = contextvars.copy_context()  # the club, its zone, its live topics
        if response.streaming and not response.is_async:  # a CSV export read as it is sent
            response.streaming_content = _within(within, response.streaming_content)
        return response


def _within(context, chunks):
    """A streamed response's chunks, each made within the request's club (after the view
    returned): in ``context``, a copy of the request's, never in the context of whoever
    reads them. A ``with using_club`` around a ``yield`` would set the club in the reader's
    context (a generator has none of its own) and leave it there while the stream is open,
    and after it if it is never read to its end: the server's thread, or a test, would go on
    working for that club (and a test for a club its database no longer has)."""
    iterator = iter(chunks)
    while True:
        try:
            chunk = context.run(next, iterator)
        except StopIteration:
            return
        yield chunk


def no_club_here(request):
    # Before LocaleMiddleware: the page's language is read from the request here.
    with translation.override(translation.get_language_from_request(request)):
        return HttpResponseNotFound(render_to_string("clubs/no_club.html", request=None))
