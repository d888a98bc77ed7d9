from django.shortcuts import render

from billing.selectors import clocks_by_table, next_bookings
from games.selectors import games_in_progress
from tables.selectors import tables_with_status


def home(request):
    """The club's front page: every active table with its status, its game, its clock and
    links."""
    tables = tables_with_status()
    playing = {game.table_id: game for game in games_in_progress()}
    clocks = clocks_by_table()
    bookings = next_bookings()
    for table in tables:
        table.booking = bookings.get(table.pk)
        table.game = playing.get(table.pk)
        table.clock = clocks.get(table.pk)
    return render(request, "home.html", {"tables": tables})
