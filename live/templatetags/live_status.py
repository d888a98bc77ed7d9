"""``{% screen_status place %}``: the one status line of every pushed screen — the table
board, the wall, the tournament board and the marker's console (``live/status.html``, driven
by ``static/js/screen-status.js``): live, reconnecting, or "no update for N s" once the
stream's heartbeat is late, with the time of the last update in the club's time zone."""

import time

from django import template
from django.utils import timezone

from live import streams

register = template.Library()


@register.inclusion_tag("live/status.html")
def screen_status(place="board"):
    return {
        "place": place,
        "heartbeat": streams.HEARTBEAT_SECONDS,
        "time_zone": timezone.get_current_timezone_name(),  # the club's (clubs.current)
        "server_now": int(time.time() * 1000),
        "shown_at": timezone.localtime(),
    }
