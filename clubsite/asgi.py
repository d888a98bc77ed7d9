"""The ASGI application (uvicorn): Django, with the boards' public streams answered beside it
(``live.asgi.StreamRouter``: no thread nor database connection per open screen) and the public
pages a crowd opens at once shared for a second (``toolbox.shared_pages.SharedPages``)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
django_application = get_asgi_application()

from api import feeds as api_feeds  # noqa: E402 - after Django is set up
from boards import feeds as board_feeds  # noqa: E402
from broadcast import feeds as broadcast_feeds  # noqa: E402
from clubs.asgi import ClubScope  # noqa: E402
from clubsite.process import settle_garbage_collector  # noqa: E402
from live.asgi import StreamRouter  # noqa: E402
from toolbox.shared_pages import SharedPages  # noqa: E402
from tournaments import feeds as tournament_feeds  # noqa: E402


def feed_for_path(path):
    """The public stream a path names: a table board's, the wall's, a tournament board's, an
    overlay's or an embed's, the API's live feed of a table."""
    return (
        board_feeds.feed_for_path(path)
        or tournament_feeds.feed_for_path(path)
        or broadcast_feeds.feed_for_path(path)
        or api_feeds.feed_for_path(path)
    )


# The club first (by the request's host): the streams and the shared pages are its own.
application = ClubScope(
    StreamRouter(
        SharedPages(django_application),
        feed_for_path,
        prefixes=("/tables/", "/board/", "/tournaments/", "/embed/", "/api/"),
    )
)

# A server holding thousands of open streams: what start-up made is left out of the garbage
# collector's passes, which run less often.
settle_garbage_collector()
