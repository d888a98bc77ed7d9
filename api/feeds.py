"""The API's live feed of a table (``/api/v1/tables/<n>/stream/``): Server-Sent Events whose
data is the table's live game in JSON (``api.schemas.LiveGame``, or null while free), pushed
on the table's topic like its board, rendered once per change and language for every client
(``boards.polls.rendered``). Open to any site (CORS), as the rest of the API."""

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404
from django.urls import Resolver404, resolve
from django.utils.translation import get_language

from boards.feeds import table_exists
from boards.polls import FREE, rendered, table_fingerprint
from broadcast.scoreboard import table_scoreboard
from live import topics
from live.streams import Feed
from toolbox.parsing import parse_id

EVENT = "table"
CORS = (("Access-Control-Allow-Origin", "*"),)


def _json(number):
    board = table_scoreboard(number)
    return json.dumps(board["game"], cls=DjangoJSONEncoder, ensure_ascii=False)


def table_feed(number):
    key = f"api-t{number}"

    def snapshot():
        fp = table_fingerprint(number) or FREE
        return fp, rendered(key, fp, get_language(), lambda: _json(number))

    return Feed(key=key, topic=topics.table(number), event=EVENT, snapshot=snapshot, headers=CORS)


def feed_for_path(path):
    """The feed of an API stream path (``live.asgi.StreamRouter`` serves it beside Django),
    None for any other path; Http404 for a table that does not exist."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.view_name != "api-v1:table_stream":
        return None
    number = parse_id(str(match.kwargs.get("number", "")))
    if not number or number > 32767 or not table_exists(number):
        raise Http404("no such table")
    return table_feed(number)
