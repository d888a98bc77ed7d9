"""The network's records (issue 32 item 4): a person's games and records at every club of the
network (``/players/<pk>/network/``), and the leaderboards of the network's people
(``/leaderboards/?scope=network``).

Read across the clubs' walls on purpose, here only: each read is made within
``clubs.scoping.all_clubs()`` (the games, their seats and tables of every club) or through
the ``everywhere`` managers (a person's memberships), and evaluated before the block ends, so
nothing walled is read lazily afterwards in the request's club. The figures are those the
club's pages compute (``records.stats``), over every club's finished games; the ratings are
the network's already (``records.rating``). Public figures only: names, sports classes, the
clubs' names and addresses, games, results and figures — no phone, e-mail, notes, bill or
money is read, and a club's staff are shown nothing more of another club than anyone is.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone, translation

from clubs.current import only_club
from clubs.models import Club
from clubs.scoping import all_clubs
from games.models import Outcome
from players.models import Membership
from records import stats

GAMES_PER_PAGE = 25  # a person's games, as on his page at a club

logger = logging.getLogger(__name__)


def several_clubs() -> bool:
    """True on a site of several clubs: the network's views exist to be linked there."""
    return only_club() is None


def club_address(club, request, path):
    """``path`` at ``club``: as it is on the request's club (or at a club without host names,
    the only one), else at that club's first host name with this request's scheme and port —
    a game's page is found at its own club only."""
    here = getattr(request, "club", None)
    if not club.hosts or (here is not None and here.pk == club.pk):
        return path
    return club.home_url(request).rstrip("/") + path


# --- a person of the network ------------------------------------------------------------------


@dataclass
class ClubOfPerson:
    club: Club
    guest: bool  # he played there as a guest, not on its roster
    url: str  # the club's home page


def person_clubs(player, request) -> list[ClubOfPerson]:
    """The clubs whose rosters hold him (his home clubs first, then those he was a guest at),
    by name: names and addresses only, nothing of what the clubs keep of him."""
    memberships = Membership.everywhere.filter(player=player).select_related("club")
    return [
        ClubOfPerson(m.club, m.is_guest, club_address(m.club, request, "/"))
        for m in memberships.order_by("is_guest", "club__name", "club__pk")
    ]


def person_records(player) -> list[stats.VariantRecord]:
    """His records per game (what his page at a club shows) over every club's games."""
    with all_clubs():
        return stats.player_records(player)


@dataclass
class ClubRecord:
    club: Club
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def win_percentage(self):
        return stats.win_percentage(self.wins, self.games)


def person_by_club(player) -> list[ClubRecord]:
    """His finished games, wins, losses and draws at each club, most games first: one query."""
    with all_clubs():
        rows = list(
            stats.finished_seats()
            .filter(player=player)
            .values("game__club")
            .annotate(
                games=Count("id"),
                wins=Count("id", filter=Q(outcome=Outcome.WIN)),
                losses=Count("id", filter=Q(outcome=Outcome.LOSS)),
                draws=Count("id", filter=Q(outcome=Outcome.DRAW)),
            )
            .order_by()
        )
    clubs = Club.objects.in_bulk([row["game__club"] for row in rows])
    found = [
        ClubRecord(clubs[row.pop("game__club")], **row)
        for row in rows
        if row["game__club"] in clubs
    ]
    return sorted(found, key=lambda r: (-r.games, r.club.name.casefold(), r.club.pk))


@dataclass
class PersonGame:
    seat: object  # his seat (games.Seat)
    game: object
    club: Club
    opponents: list
    url: str  # the game's page, at its club


def person_games(player, request, page_number=None, per_page=GAMES_PER_PAGE):
    """A page of his games at every club, newest first, each with its club, its table, the
    other seats and the address of its page at its club (``Paginator``'s page; its
    ``object_list`` [PersonGame])."""
    with all_clubs():
        seats = stats.player_games(player).prefetch_related("game__club")
        page = Paginator(seats, per_page).get_page(page_number)
        seats = list(page.object_list)  # read here, within the walls' exception
    page.object_list = [
        PersonGame(
            seat=seat,
            game=seat.game,
            club=seat.game.club,
            opponents=[s for s in seat.game.seats.all() if s.position != seat.position],
            url=club_address(seat.game.club, request, reverse("games:detail", args=[seat.game_id])),
        )
        for seat in seats
    ]
    return page


# --- the network's leaderboards ---------------------------------------------------------------

# The network's board is computed again at most this often: a game finishes somewhere in a
# network of a hundred clubs every few seconds, and the board's aggregate over every club's
# games and every person's rating takes seconds there (bench/network.py). Within this time
# a newer game waits for the next computation; a club's own board stays exact. The
# computation runs beside the requests (``_refresh_later``): they are served the board
# before it meanwhile, never kept waiting for it.
NETWORK_BOARD_SECONDS = 60
REFRESH_LOCK_SECONDS = 600  # one computation of a board at a time, across the workers
CHUNK = 1000  # rows kept under one cache key: a page of the board reads one or two; a
# board of 50,000 people is 50 keys, within the 300 of the cache in memory (no Redis)
KEPT_SECONDS = 3600
BOARD_KEY = "records:netboard:v1:{variant}:{start}:{min_games}:{sort}:{desc}"


class NetworkBoard(Sequence):
    """The network's leaderboard, best first: a sequence of rows the view pages
    (``Paginator``), read from the cache a chunk at a time, or held whole when this request
    computed it. ``provisional_below``: some rating is provisional (listed below the places)."""

    def __init__(self, key, meta, rows=None):
        self.key, self.meta, self._rows = key, meta, rows

    @property
    def provisional_below(self):
        return self.meta["provisional_below"]

    def __len__(self):
        return self.meta["count"]

    def __getitem__(self, index):
        if isinstance(index, int):
            index = range(len(self))[index]
            return self[index : index + 1][0]
        start, stop, step = index.indices(len(self))
        if start >= stop:
            return []  # (an empty board keeps no chunk)
        if self._rows is None:
            first, last = start // CHUNK, max(start, stop - 1) // CHUNK
            keys = [chunk_key(self.key, n) for n in range(first, last + 1)]
            found = cache.get_many(keys)
            chunks = [found.get(key) for key in keys]
            made = {chunk["made"] if chunk else None for chunk in chunks}
            if made != {self.meta["made"]}:  # a board computed since (beside the request)?
                since = cache.get(self.key)
                if since and made == {since["made"]} and since["count"] == self.meta["count"]:
                    self.meta = since
            if made == {self.meta["made"]}:
                rows = [row for chunk in chunks for row in chunk["rows"]]
                return rows[start - first * CHUNK : stop - first * CHUNK : step]
            # A chunk gone from the cache, or of a board computed since: the board again.
            self.meta, self._rows = _computed(self.key, self.meta["args"])
        return self._rows[start:stop:step]

    def __iter__(self):
        for start in range(0, len(self), CHUNK):
            yield from self[start : start + CHUNK]


def chunk_key(key, number):
    return f"{key}:{number}"


def leaderboard(variant, period="all", min_games=1, sort="", desc=None):
    """The club's leaderboard (``stats.leaderboard``: the same columns, sorts and places) of
    every person of the network, each one row whatever clubs his games were at: (a
    ``NetworkBoard``, the sort's column, descending). A provisional rating is listed below
    the ranked, whatever a club chooses for its own board: the network's board is the same
    at every club's address. Computed again once a newer game of ``variant`` has finished
    somewhere, looked for every ``NETWORK_BOARD_SECONDS``; kept in the cache in chunks,
    each board in place of the one before it."""
    start = stats.period_start(period)
    key = BOARD_KEY.format(
        variant=variant,
        start=start.isoformat() if start else "all",
        min_games=min_games,
        sort=sort,
        desc=desc,
    )
    args = (variant, period, min_games, sort, desc)
    meta, now = cache.get(key), time.time()
    if meta is not None and now - meta["checked"] >= NETWORK_BOARD_SECONDS:
        with all_clubs():
            newer = stats.board_stamp(variant) != meta["stamp"]
        if newer and connection.in_atomic_block:
            meta = None  # its newer games may be this transaction's: computed here
        else:
            meta["checked"] = now
            cache.set(key, meta, KEPT_SECONDS)
            if newer:
                _refresh_later(key, args)  # served as it was meanwhile
    if meta is None:
        meta, rows = _computed(key, args)
        return NetworkBoard(key, meta, rows), meta["sort"], meta["desc"]
    return NetworkBoard(key, meta), meta["sort"], meta["desc"]


refreshing: dict[str, threading.Thread] = {}  # this process's computations under way


def _refresh_later(key, args):
    """Computes the board again in a thread of its own (its own database connection, in the
    request's time zone and language), unless one is under way somewhere: the request that
    found a newer game does not wait the seconds a network's board takes. A computation
    that fails is logged; the board before it stays, and the next look a minute later
    tries again."""
    lock = f"{key}:computing"
    if not cache.add(lock, True, REFRESH_LOCK_SECONDS):
        return
    zone, language = timezone.get_current_timezone(), translation.get_language()

    def compute():
        try:
            with timezone.override(zone), translation.override(language):
                _computed(key, args)
        except Exception:  # noqa: BLE001 - the board before it is served meanwhile
            logger.exception("The network's board %s not computed", key)
        finally:
            cache.delete(lock)
            connection.close()  # this thread's own

    thread = threading.Thread(target=compute, name=f"netboard {key}", daemon=True)
    refreshing[key] = thread
    thread.start()


def _computed(key, args):
    """The board computed now (within ``all_clubs``) and kept in chunks: (meta, rows)."""
    variant, period, min_games, sort, desc = args
    with all_clubs():
        stamp = stats.board_stamp(variant)
        rows, sort, desc = stats.leaderboard(
            variant, period, min_games, sort, desc, rank_provisional=False, cached=False
        )
    made = time.time()
    meta = {
        "args": args,
        "stamp": stamp,
        "made": made,
        "checked": made,
        "count": len(rows),
        "sort": sort,
        "desc": desc,
        "provisional_below": any(row["place"] is None for row in rows),
    }
    chunks = {
        chunk_key(key, n): {"made": made, "rows": rows[start : start + CHUNK]}
        for n, start in enumerate(range(0, len(rows), CHUNK))
    }
    cache.set_many(chunks, KEPT_SECONDS)
    cache.set(key, meta, KEPT_SECONDS)  # after its chunks
    return meta, rows


def home_clubs(player_ids) -> dict[int, list[tuple[Club, bool]]]:
    """{person id: [(club, guest), …]} for the people of a page of the board: the clubs whose
    rosters hold him, by name (guests' clubs after). One query."""
    found = {}
    memberships = Membership.everywhere.filter(player__in=list(player_ids)).select_related("club")
    for m in memberships.order_by("is_guest", "club__name", "club__pk"):
        found.setdefault(m.player_id, []).append((m.club, m.is_guest))
    return found
