"""The endpoints of ``/api/v1/`` (read-only, GET): thin, the reads are ``api.selectors``,
the shapes ``api.schemas``. A path's number out of range is a 400 like any bad parameter;
what does not exist is a 404; both with a translated ``detail``.

Each answer's OpenAPI ``links`` say where its ids lead (a game's seat to its player, a
tournament to its first match…), for clients and for schemathesis's stateful tests: each
names one id by its place, never a list's every item, and an id that may be null (a guest's
seat has no player, a game outside a match has no match) is followed only where it is set.
``tests/api/test_links.py`` follows every one on the demo club, and fails if schemathesis
would infer a link the schema does not declare.

Tables, games and tournaments are the request's club's (its host's: the walls of
``clubs.scoping``), each naming it; ``/clubs/`` is the network's."""

from functools import partial
from typing import Literal

from django.http import Http404
from django.utils.translation import get_language
from ninja import Path, Query, Router

from api import feeds, schemas, selectors
from games import rules
from games.models import GameStatus
from live.streams import stream_response
from records import rating

MAX_ID = 2**31 - 1  # an id no table holds: a 400 before any query
MAX_TABLE = 32767
MAX_OFFSET = 1_000_000
# 503: the database busy (Retry-After says when to ask again), ``api.errors``.
ERRORS = {
    400: schemas.ValidationProblem,
    404: schemas.Error,
    429: schemas.Error,
    503: schemas.Error,
}

Id = Path(..., ge=1, le=MAX_ID)
TableNumber = Path(..., ge=1, le=MAX_TABLE)
Slug = Path(..., min_length=1, max_length=50, pattern=r"^[-a-zA-Z0-9_]+$")
Limit = Query(50, ge=1, le=100, description="How many items (at most 100).")
Offset = Query(0, ge=0, le=MAX_OFFSET, description="How many items to skip.")
VariantKey = Literal[tuple(rules.VARIANTS)]
StatusKey = Literal[tuple(GameStatus.values)]
FamilyKey = Literal[tuple(rating.families())]

router = Router()


def links(**named):
    """The ``openapi_extra`` of an operation whose 200 answer links to others:
    ``name=(target operation, its path parameter, JSON pointer into the answer, description)``."""
    return {
        "responses": {
            200: {
                "links": {
                    name: {
                        "operationId": f"api_views_{operation}",
                        "parameters": {parameter: f"$response.body#{pointer}"},
                        "description": description,
                    }
                    for name, (operation, parameter, pointer, description) in named.items()
                }
            }
        }
    }


def _found(value):
    if value is None:
        raise Http404
    return value


# --- the network's clubs ----------------------------------------------------------------------


@router.get(
    "/clubs/",
    response={200: schemas.ClubPage, **ERRORS},
    tags=["clubs"],
    openapi_extra=links(
        club=("club", "slug", "/items/0/slug", "The page's first club."),
    ),
)
def clubs(request, limit: int = Limit, offset: int = Offset):
    """The network's clubs by city: address, time zone, home page, how many tables each has
    and how many games are live there now. Whichever club's address is asked."""
    return selectors.page(
        selectors.clubs(), limit, offset, partial(selectors.club_item, request=request)
    )


@router.get("/clubs/{slug}/", response={200: schemas.Club, **ERRORS}, tags=["clubs"])
def club(request, slug: str = Slug):
    """A club of the network by its short name."""
    return _found(selectors.club_detail(slug, request))


# --- tables -----------------------------------------------------------------------------------


@router.get(
    "/tables/",
    response={200: schemas.TablePage, **ERRORS},
    tags=["tables"],
    openapi_extra=links(
        table=("table", "number", "/items/0/number", "The page's first table."),
        table_stream=("table_stream", "number", "/items/0/number", "Its live feed."),
        club=("club", "slug", "/items/0/club/slug", "The club of the tables."),
    ),
)
def tables(request, limit: int = Limit, offset: int = Offset):
    """The club's active tables and whether each is free, in play or out of service."""
    item = partial(selectors.table_item, club=selectors.here(request))
    return selectors.page(selectors.tables(), limit, offset, item)


@router.get(
    "/tables/{number}/",
    response={200: schemas.TableLive, **ERRORS},
    tags=["tables"],
    openapi_extra=links(
        game=("game", "game_id", "/live/id", "The game in play (none while free)."),
        match=("match", "match_id", "/live/match/id", "Its match, if it is a frame of one."),
        club=("club", "slug", "/club/slug", "Its club."),
    ),
)
def table(request, number: int = TableNumber):
    """A table and its live game: what its board shows now (``live`` is null while free)."""
    return _found(selectors.table_live(number, selectors.here(request)))


@router.get(
    "/tables/{number}/stream/",
    url_name="table_stream",
    response={200: None, **ERRORS},
    tags=["tables"],
    openapi_extra={
        "responses": {
            200: {
                "description": (
                    "Server-Sent Events: an event `table` with the table's live game in "
                    "JSON (as `live` of /tables/{number}/) at once and whenever it changes; "
                    "`id:` is its fingerprint (send it back as Last-Event-ID); after 15 s "
                    "without a change an event `hb` whose data is the server's time (epoch "
                    "milliseconds) keeps the connection open and tells how fresh it is."
                ),
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            }
        }
    },
)
def table_stream(request, number: int = TableNumber):
    """The table's live feed (Server-Sent Events in JSON), pushed the moment it changes."""
    _found(selectors.table_live(number, selectors.here(request)))
    return stream_response(request, feeds.table_feed(number), get_language())


# --- games ------------------------------------------------------------------------------------


@router.get(
    "/games/",
    response={200: schemas.GamePage, **ERRORS},
    tags=["games"],
    openapi_extra=links(
        game=("game", "game_id", "/items/0/id", "The page's first game."),
        match=("match", "match_id", "/items/0/match_id", "Its match, if it is a frame of one."),
        player=(
            "player",
            "player_id",
            "/items/0/seats/0/player_id",
            "Its first seat's player (none for a guest).",
        ),
        club=("club", "slug", "/items/0/club/slug", "The club of the games."),
    ),
)
def games(
    request,
    limit: int = Limit,
    offset: int = Offset,
    status: StatusKey | None = None,
    variant: VariantKey | None = None,
    table: int | None = Query(None, ge=1, le=MAX_TABLE),
    player: int | None = Query(None, ge=1, le=MAX_ID),
):
    """Games, newest first; filtered by status, game, table number or player."""
    found = selectors.games(status=status, variant=variant, table=table, player=player)
    item = partial(selectors.game_item, club=selectors.here(request))
    return selectors.page(found, limit, offset, item)


@router.get(
    "/games/{game_id}/",
    response={200: schemas.GameDetail, **ERRORS},
    tags=["games"],
    openapi_extra=links(
        match=("match", "match_id", "/match_id", "Its match, if it is a frame of one."),
        player_1=(
            "player",
            "player_id",
            "/seats/0/player_id",
            "The first seat's player (none for a guest).",
        ),
        player_2=("player", "player_id", "/seats/1/player_id", "The second seat's player."),
        club=("club", "slug", "/club/slug", "Its club."),
    ),
)
def game(request, game_id: int = Id):
    """A game: its settings, result and every event with the state after it."""
    return _found(selectors.game_detail(game_id, selectors.here(request)))


# --- players and ratings ----------------------------------------------------------------------


@router.get(
    "/players/",
    response={200: schemas.PlayerPage, **ERRORS},
    tags=["players"],
    openapi_extra=links(
        player=("player", "player_id", "/items/0/id", "The page's first player."),
    ),
)
def players(request, limit: int = Limit, offset: int = Offset):
    """The active players of the club's roster (names and sports class only)."""
    return selectors.page(selectors.players(), limit, offset, selectors.player_item)


@router.get(
    "/players/{player_id}/", response={200: schemas.PlayerDetail, **ERRORS}, tags=["players"]
)
def player(request, player_id: int = Id):
    """A player's records per game, his ratings and performances, as on his page."""
    return _found(selectors.player_detail(player_id, selectors.here(request)))


@router.get(
    "/ratings/",
    response={200: list[schemas.RatingFamily], **ERRORS},
    tags=["players"],
    openapi_extra=links(
        ratings=("ratings", "family", "/0/family", "The first family's ratings."),
    ),
)
def rating_families(request):
    """The rating families (Elo, one per family of games) and the games each rates."""
    return selectors.rating_families()


@router.get(
    "/ratings/{family}/",
    response={200: schemas.RatingPage, **ERRORS},
    tags=["players"],
    openapi_extra=links(
        player=("player", "player_id", "/items/0/player_id", "The best rated player."),
    ),
)
def ratings(request, family: FamilyKey, limit: int = Limit, offset: int = Offset):
    """A family's ratings, best first."""
    return selectors.page(selectors.rating_rows(family), limit, offset, dict)


# --- team leagues ------------------------------------------------------------------------------


@router.get(
    "/leagues/",
    response={200: schemas.LeaguePage, **ERRORS},
    tags=["leagues"],
    openapi_extra=links(
        league=("league", "league_id", "/items/0/id", "The first league."),
        club=("club", "slug", "/items/0/club/slug", "The club of the leagues."),
    ),
)
def leagues(request, limit: int = Limit, offset: int = Offset):
    """The team leagues shown at the club: its own and the network's (``club`` null)."""
    item = partial(selectors.league_item, request=request)
    return selectors.page(selectors.leagues(), limit, offset, item)


@router.get(
    "/leagues/{league_id}/",
    response={200: schemas.LeagueDetail, **ERRORS},
    tags=["leagues"],
    openapi_extra=links(club=("club", "slug", "/club/slug", "Its club.")),
)
def league(request, league_id: int = Id):
    """A team league's current season: the standings of each division and the fixtures, each
    with the club it is played at (the line-ups are never shown here)."""
    return _found(selectors.league_detail(league_id, request))


# --- tournaments and matches ------------------------------------------------------------------


@router.get(
    "/tournaments/",
    response={200: schemas.TournamentPage, **ERRORS},
    tags=["tournaments"],
    openapi_extra=links(
        tournament=("tournament", "tournament_id", "/items/0/id", "The newest tournament."),
        club=("club", "slug", "/items/0/club/slug", "The club of the tournaments."),
    ),
)
def tournaments(request, limit: int = Limit, offset: int = Offset):
    """Tournaments, the newest first."""
    item = partial(selectors.tournament_item, club=selectors.here(request))
    return selectors.page(selectors.tournaments(), limit, offset, item)


@router.get(
    "/tournaments/{tournament_id}/",
    response={200: schemas.TournamentDetail, **ERRORS},
    tags=["tournaments"],
    openapi_extra=links(
        player=(
            "player",
            "player_id",
            "/entrants/0/player_id",
            "The first entrant's player (none for a guest).",
        ),
        match=(
            "match",
            "match_id",
            "/matches/0/match_id",
            "The bracket's first match, once it is played.",
        ),
        club=("club", "slug", "/club/slug", "Its club."),
    ),
)
def tournament(request, tournament_id: int = Id):
    """A tournament: entrants, every match of its bracket, group standings, places."""
    return _found(selectors.tournament_detail(tournament_id, selectors.here(request)))


# --- series and cups -----------------------------------------------------------------------------


@router.get(
    "/series/",
    response={200: schemas.SeriesPage, **ERRORS},
    tags=["series"],
    openapi_extra=links(
        series=("series_detail", "series_id", "/items/0/id", "The page's first series."),
    ),
)
def series(request, limit: int = Limit, offset: int = Offset):
    """Series and cups: the club's and the network's, the newest season first."""
    return selectors.page(
        selectors.series(), limit, offset, partial(selectors.series_item, request=request)
    )


@router.get(
    "/series/{series_id}/",
    response={200: schemas.SeriesDetail, **ERRORS},
    tags=["series"],
    openapi_extra=links(
        tournament=("tournament", "tournament_id", "/stages/0/tournament/id", "Its first stage."),
        player=("player", "player_id", "/standings/0/player_id", "The leader."),
    ),
)
def series_detail(request, series_id: int = Id):
    """A series: its rules, its stages and the standings (each player's points, the results
    that count, the final's places and wildcards)."""
    return _found(selectors.series_detail(series_id, request))


@router.get(
    "/matches/{match_id}/",
    response={200: schemas.Match, **ERRORS},
    tags=["tournaments"],
    openapi_extra=links(
        game=("game", "game_id", "/frames/0/game_id", "Its first frame."),
        player_a=("player", "player_id", "/player_a_id", "Player A (none for a guest)."),
        player_b=("player", "player_id", "/player_b_id", "Player B (none for a guest)."),
        tournament=("tournament", "tournament_id", "/tournament/id", "Its tournament, if any."),
    ),
)
def match(request, match_id: int = Id):
    """A match (race to N frames) and its frames, each a game."""
    return _found(selectors.match_detail(match_id, selectors.here(request)))
