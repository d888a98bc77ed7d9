"""The player's page's pushed region (``me/home.html#live``): what it shows and the stream
that sends it whenever it changes (``live``), rendered in the stream's reader thread."""

import hashlib

from django.template.loader import render_to_string
from django.utils import timezone

from broadcast import fragments as broadcast_fragments
from clubs.current import current_club, using_club
from live.streams import Feed
from me import selectors
from players.models import Membership, Player

HOME = "me/home.html"
EVENT = "me"


def live_context(player, now=None):
    """Everything the pushed region shows (no request: it is rendered for the stream too)."""
    now = now or timezone.now()
    matches = selectors.next_matches(player, now)
    booked = selectors.bookings(player, now)
    seat = selectors.game_in_progress(player)
    context = {
        "player": player,
        "up": selectors.up_now(player, matches, booked, now, seat=seat),
        "seat": seat,
        "next_matches": matches,
        "entries": selectors.entries(player, now),
        "confirmations": selectors.confirmations(player),
        "bookings": booked,
        "bills": selectors.open_bills(player),
        "feed_topics": " ".join(selectors.feed_topics(player)),
    }
    if seat is not None:
        number = seat.game.table.number
        context["game_table"] = number
        context["overlay"] = broadcast_fragments.table_overlay_context(number)
    return context


def render_live(player):
    """(fingerprint, html) of the region."""
    html = render_to_string(f"{HOME}#live", live_context(player))
    return hashlib.blake2b(html.encode(), digest_size=8).hexdigest(), html


def player_feed(player):
    """His page's stream: his own topic and his tournaments'; a new tournament of his, or a
    new game, changes the topics: the region then reconnects (``me.js``, ``data-topics``)."""
    topics = selectors.feed_topics(player)
    pk = player.pk

    def snapshot():
        return render_live(Player.everywhere.get(pk=pk))

    return Feed(key=f"me{pk}:{','.join(topics)}", topic=topics, event=EVENT, snapshot=snapshot)


def other_clubs(player, request):
    """His other clubs, each in brief as that club has it for him (its game in progress, next
    matches, bookings and unpaid bills, in its own time zone) with a link to his page there:
    [(club, its /me/ address, html)]. A club's rows are read within it (``using_club``)."""
    here = current_club()
    memberships = Membership.everywhere.filter(player=player).select_related("club")
    if here is not None:
        memberships = memberships.exclude(club=here)
    found = []
    for membership in memberships.order_by("club__name"):
        club = membership.club
        with using_club(club):
            context = {
                "club": club,
                "seat": selectors.game_in_progress(player),
                "next_matches": selectors.next_matches(player),
                "bookings": selectors.bookings(player),
                "bills": selectors.open_bills(player),
            }
            html = render_to_string("me/_other_club.html", context)
        found.append((club, club_address(club, request, "/me/"), html))
    return found


def club_address(club, request, path):
    """``path`` at ``club``'s first host, with this request's scheme and port."""
    if not club.hosts:
        return path
    port = request.get_port()
    default = "443" if request.is_secure() else "80"
    netloc = club.hosts[0] + ("" if port == default else f":{port}")
    return f"{request.scheme}://{netloc}{path}"
