"""The ASGI application (uvicorn): Django, with the boards' public streams answered beside it
(``live.asgi.StreamRouter``: no thread nor database connection per open screen)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
django_application = get_asgi_application()

from boards.feeds import feed_for_path  # noqa: E402 - after Django is set up
from live.asgi import StreamRouter  # noqa: E402

application = StreamRouter(django_application, feed_for_path, prefixes=("/tables/", "/board/"))
