"""A public page shared for a second: a crowd opening it at once costs one render.

When a hall fills for a final, hundreds of phones and TVs open the home page, a table's
board, the wall, the leaderboards or the rules within the same second; each page is the
same for every visitor who is not signed in. Such a page is answered from the copy this
process made less than ``settings.SHARED_PAGE_SECONDS`` ago (default 1; 0 turns it off):
a proxy's "microcache", kept in the application so that it works behind any proxy or none.
A board opened from a copy a second old is brought up to date at once by its stream (it is
opened with the fingerprint of what it shows).

Two parts:
- ``shared_briefly``, a view decorator, marks an answer that may be shared (the header
  ``X-Shared-For: <seconds>``): a GET without htmx from a visitor with no session and no
  pending messages, answered 200 without the CSRF token (a page with a form carries its
  visitor's token: never shared) and without setting a cookie (a ``?lang=`` switch sets one).
- ``SharedPages`` wraps the ASGI application (``clubsite/asgi.py``): it keeps each marked
  answer, whole, and gives the copy to the next such visitors before Django's middleware and
  thread are reached at all (a copy costs the server a few hundredths of a millisecond, a
  render tens of milliseconds: bench/burst.py). While a page is rendered, the visitors asking
  for it meanwhile wait for that render instead of starting their own, or get the copy just
  out of date. The key is the scheme, the host, the full path with its query and the page's
  language; a signed-in visitor, htmx, any other method always reach Django. Each process
  keeps its own copies (at most ``MAX_PAGES``). Under WSGI (runserver, the tests' client)
  nothing is shared and the header stays on the answer.
"""

import asyncio
import io
from functools import wraps
from time import monotonic

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.handlers.asgi import ASGIRequest
from django.utils.translation import get_language_from_request

HEADER = "X-Shared-For"
MAX_PAGES = 256
WAIT_SECONDS = 5  # how long a visitor waits for a page being rendered before asking Django
PRIVATE_SECONDS = 60  # a page answered unmarked (not an error) goes to Django for this long
_HEADER_KEY = HEADER.lower().encode()


def shared_briefly(view):
    """Decorator: ``view``'s answer to a visitor who is not signed in may be shared with the
    others for ``SHARED_PAGE_SECONDS`` (see the module)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        seconds = settings.SHARED_PAGE_SECONDS
        if seconds and _shareable_request(request) and _shareable_response(request, response):
            response[HEADER] = str(seconds)
        return response

    return wrapped


def _shareable_request(request):
    return (
        request.method == "GET"
        and "HTTP_HX_REQUEST" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
    )


def _shareable_response(request, response):
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


class _Page:
    """A kept answer: until when it is fresh, its status, headers and body."""

    __slots__ = ("until", "seconds", "status", "headers", "body")

    def __init__(self, seconds, status, headers, body):
        self.until = monotonic() + seconds
        self.seconds, self.status, self.headers, self.body = seconds, status, headers, body

    async def send(self, send):
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


class SharedPages:
    """The ASGI application ``app`` with its marked pages shared (see the module)."""

    def __init__(self, app):
        self.app = app
        self.pages = {}  # key -> _Page
        self.private = {}  # key -> until when: its last answer was not marked, Django answers
        self.rendering = {}  # key -> a future: the page's render under way (its _Page or None)

    async def __call__(self, scope, receive, send):
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or not settings.SHARED_PAGE_SECONDS
        ):
            return await self.app(scope, receive, send)
        request = ASGIRequest(scope, io.BytesIO())
        if not _shareable_request(request):
            return await self.app(scope, receive, send)
        key = (
            scope.get("scheme", "http"),
            request.META.get("HTTP_HOST", ""),
            request.get_full_path(),
            get_language_from_request(request),
        )
        del request
        now = monotonic()
        page = self.pages.get(key)
        if page is not None and page.until > now:
            return await page.send(send)
        if self.private.get(key, 0) > now:
            return await self.app(scope, receive, send)
        rendering = self.rendering.get(key)
        if rendering is not None:
            if page is not None and page.until + page.seconds > now:
                return await page.send(send)  # just out of date: being renewed meanwhile
            try:  # the others asking meanwhile wait for that render instead of their own
                page = await asyncio.wait_for(asyncio.shield(rendering), WAIT_SECONDS)
            except TimeoutError:
                page = None
            if page is not None:
                return await page.send(send)
            return await self.app(scope, receive, send)
        rendering = self.rendering[key] = asyncio.get_running_loop().create_future()
        page = None
        try:
            page = await self._render(key, scope, receive, send, rendering)
        finally:
            del self.rendering[key]
            if not rendering.done():
                rendering.set_result(page)

    async def _render(self, key, scope, receive, send, rendering):
        """Django's answer, passed on as it goes; kept (and returned) when it is marked. An
        answer that is not marked lets those waiting for it go to Django at once."""
        start, body = None, []

        async def passing_on(message):
            nonlocal start
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                if any(name.lower() == _HEADER_KEY for name, _value in headers):
                    headers = [(n, v) for n, v in headers if n.lower() != _HEADER_KEY]
                    message = start = {**message, "headers": headers}
                else:  # a visitor's own page; an error says nothing of the next answer
                    if message["status"] < 400:
                        self._private(key)
                    rendering.set_result(None)
            elif message["type"] == "http.response.body" and start is not None:
                body.append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, passing_on)
        if start is None or start["status"] != 200:
            return None
        if any(name.lower() == b"set-cookie" for name, _value in start["headers"]):
            return None
        page = _Page(settings.SHARED_PAGE_SECONDS, 200, start["headers"], b"".join(body))
        self._keep(self.pages, key, page)
        return page

    def _private(self, key):
        self._keep(self.private, key, monotonic() + PRIVATE_SECONDS)

    @staticmethod
    def _keep(kept, key, value):
        """``kept[key] = value``, the oldest quarter dropped first when ``kept`` is full."""
        if len(kept) >= MAX_PAGES:
            for old in list(kept)[: MAX_PAGES // 4]:
                del kept[old]
        kept[key] = value
