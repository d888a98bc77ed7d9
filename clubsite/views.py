import logging

from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache

from billing.selectors import clocks_by_table, next_bookings
from clubs.current import only_club
from clubsite.network import network_by_city
from games.selectors import games_in_progress
from tables.selectors import tables_with_status
from toolbox.shared_pages import shared_briefly


@shared_briefly
def home(request):
    """The club's front page: every active table with its status, its game, its clock and
    links (to the network's page too, on a site of several clubs)."""
    tables = tables_with_status()
    playing = {game.table_id: game for game in games_in_progress()}
    clocks = clocks_by_table()
    bookings = next_bookings()
    for table in tables:
        table.booking = bookings.get(table.pk)
        table.game = playing.get(table.pk)
        table.clock = clocks.get(table.pk)
    return render(request, "home.html", {"tables": tables, "several_clubs": only_club() is None})


@shared_briefly
def network(request):
    """The network's page: every club by city, its address, its site and its tables, which
    are in play now and the score (``clubsite.network``); the same at every club's address."""
    return render(request, "network.html", {"cities": network_by_city(request)})


logger = logging.getLogger(__name__)


@never_cache
def healthz(request):
    """For a process supervisor or a load balancer: 200 while the database answers, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database does not answer")
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


def favicon(request):
    """/favicon.ico, for the clients that ask that old address: every page links the icon
    (static/img/favicon.svg); its name is looked up per request (hashed in production)."""
    return redirect(static("img/favicon.svg"))
