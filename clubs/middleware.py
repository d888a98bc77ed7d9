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
        if response.streaming and not response.is_async:  # a CSV export read as it is sent
            response.streaming_content = _within(club, response.streaming_content)
        return response


def _within(club, chunks):
    """A streamed response's chunks, made within its club (after the view returned)."""
    with using_club(club):
        yield from chunks


def no_club_here(request):
    # Before LocaleMiddleware: the page's language is read from the request here.
    with translation.override(translation.get_language_from_request(request)):
        return HttpResponseNotFound(render_to_string("clubs/no_club.html", request=None))
