"""The club of the request (or of a command, a thread): decided once, read everywhere.

``ClubMiddleware`` sets it for each request; a command or a thread working for a club says
so with ``using_club(club)``. Both activate the club's time zone for as long.
"""

import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.utils import timezone

# The module, not its names: clubs.models imports the walls (clubs.scoping), which read this.
from clubs import models as club_models
from live import topics

_current = ContextVar("club", default=None)

# The clubs by host, read once and kept in this process. A club saved or deleted in this
# process empties it at once (clubs/apps.py); the other processes read it again after this
# many seconds.
REFRESH_SECONDS = 60
_lock = threading.Lock()
_cached = None  # (read at, the only club or None, {host: club})


def current_club():
    """The club of this request, command or thread; None outside one."""
    return _current.get()


@contextmanager
def using_club(club):
    """Work for ``club`` (its time zone active) within the block."""
    token = _current.set(club)
    # On a site of several clubs, the live topics are the club's own (a single club's are
    # named as they always were).
    # As last read (the middleware, ClubScope and each_club read them first): no query here.
    several = _cached is not None and _cached[1] is None
    try:
        # The club's time zone for the block; the one active before it (another club's, for
        # a page that shows several clubs) comes back after it.
        with timezone.override(club.time_zone):
            with topics.namespace(f"club{club.pk}" if several else ""):
                yield club
    finally:
        _current.reset(token)


def working_club():
    """The club worked for: the current one; on a site of one club, that club; else the
    club the settings describe (a site of several clubs, outside any: a plain page)."""
    return current_club() or only_club() or default_club()


def each_club():
    """Each club of the site in turn, the loop's body working for it (``using_club``): the
    processes that serve the whole site (the register's worker). A database that holds no
    club yet (a test database just flushed) serves the club the settings describe, as a
    request does (``only_club``)."""
    _clubs()  # read: a network's clubs each work in their own live namespace
    for club in list(club_models.Club.objects.order_by("pk")) or [only_club()]:
        with using_club(club):
            yield club


def forget_clubs(**_kwargs):
    """Read the clubs again at the next request (a club was saved or deleted)."""
    global _cached
    with _lock:
        _cached = None


def default_club():
    """The club the settings describe (``CLUB_NAME``, ``TIME_ZONE``), not saved: the club of
    a site whose database holds no club yet (a test database just flushed)."""
    return club_models.Club(name=settings.CLUB_NAME, slug="club", time_zone=settings.TIME_ZONE)


def _clubs():
    global _cached
    cached = _cached
    if cached is not None and time.monotonic() - cached[0] < REFRESH_SECONDS:
        return cached
    clubs = list(club_models.Club.objects.all())
    only = clubs[0] if len(clubs) == 1 else (default_club() if not clubs else None)
    by_host = {host: club for club in clubs for host in club.hosts}
    cached = (time.monotonic(), only, by_host)
    with _lock:
        _cached = cached
    return cached


def only_club():
    """The club of a site of one club (made from the settings when the database holds none
    yet: a test database just flushed); None on a site of several."""
    _read_at, only, _by_host = _clubs()
    if only is not None and only.pk is None:
        only, _created = club_models.Club.objects.get_or_create(
            slug=only.slug, defaults={"name": only.name, "time_zone": only.time_zone}
        )
        forget_clubs()
    return only


def club_for_host(host):
    """The club that answers ``host`` (a port is ignored, so is the case): the only club for
    any host, else the club whose hosts include it; None when no club does."""
    _read_at, only, by_host = _clubs()
    return only or by_host.get(club_models.normalize_host(host))
