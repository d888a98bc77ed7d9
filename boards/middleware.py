"""The spectator boards' fast path, in ``MIDDLEWARE`` right after security and static files.

Every TV in the hall asks its table's board once a second whether anything changed
(``GET /tables/<n>/board/?fp=…`` with ``HX-Request``). When nothing did, this answers the empty
204 at once, from one small query, before the session, locale, CSRF, auth and message
middleware and the URL resolver run: that halves the CPU an unchanged poll costs (measured by
``bench/board_load.py``). When the board did change and another TV has already had it
rendered (they all notice a stroke within the same second), the cached fragment is sent the
same way. Both answers come from ``polls.answer_table_poll``, the function the view answers
polls with too; everything else goes down the normal stack to ``boards.views``.
"""

import re

from django.urls import reverse
from django.utils.translation import get_language_from_request

from boards import polls
from clubsite.parsing import parse_id


class BoardPollMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self._board_path = None

    def board_number(self, request):
        """The table number of an htmx board poll, else None."""
        if request.method != "GET" or request.META.get("HTTP_HX_REQUEST") != "true":
            return None
        if "fp" not in request.GET:
            return None
        if self._board_path is None:  # the URLconf's own route, e.g. ^/tables/(\d+)/board/$
            sample = reverse("games:board", args=[123456789])
            pattern = re.escape(sample).replace("123456789", r"([0-9]+)")
            self._board_path = re.compile(f"^{pattern}$")
        match = self._board_path.match(request.path)
        if match is None or "\x00" in request.GET["fp"]:
            return None  # the view answers (a NUL: clubsite.middleware.RejectNulMiddleware)
        return parse_id(match.group(1))

    def __call__(self, request):
        number = self.board_number(request)
        if number is not None:
            # What LocaleMiddleware would pick: the rendered boards are kept per language.
            language = get_language_from_request(request)
            response = polls.answer_table_poll(number, request.GET["fp"], language)
            if response is not None:
                return response
        return self.get_response(request)
