"""The club of an ASGI request, decided before anything else answers it: the live streams
(``live.asgi.StreamRouter``) and the shared public pages are answered beside Django's
middleware, so ``ClubMiddleware`` cannot decide theirs. ``ClubScope`` reads the host as the
middleware does and works within the club (``using_club``: its rows, its time zone, its live
topics) for the whole request; Django's middleware then finds the club already chosen."""

from asgiref.sync import sync_to_async

from clubs.current import club_for_host, using_club


class ClubScope:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        host = dict(scope.get("headers") or ()).get(b"host", b"").decode("latin-1")
        try:
            club = await sync_to_async(club_for_host, thread_sensitive=False)(host)
        except Exception:  # noqa: BLE001 - the database is down: Django answers (503)
            club = None
        if club is None:  # no club here: Django's middleware answers (404, 400)
            return await self.app(scope, receive, send)
        with using_club(club):
            return await self.app(scope, receive, send)
