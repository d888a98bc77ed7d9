"""The API's reads: what each endpoint answers, as plain dicts shaped like ``api.schemas``,
from the apps' own reads (the boards' scoreboard, the game page's replay, the records'
aggregates and ratings, a tournament's view). Lists are paged: ``page(rows, limit, offset,
item)`` counts and slices a queryset, then shapes each row of the page.

Tables, games and tournaments are the request's club's own (the walls, ``clubs.scoping``):
each names it (``club``, the same for every item, ``here(request)``). The clubs are the
network's: every club with the counts of its tables and live games, nothing else of its rows.
"""

from django.db.models import Count, F, IntegerField, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from boards.polls import table_fingerprint
from broadcast.scoreboard import table_scoreboard
from clubs.models import Club
from clubs.scoping import all_clubs, club_in_scope
from games import rules
from games import selectors as game_selectors
from games.i18n import render_message
from games.models import Event, Game, GameStatus, Seat, variant_label
from games.rules_overview import played_settings
from players.models import Player
from records import rating, stats
from tables.models import Table, TableStatus
from tables.selectors import tables_with_status
from tournaments import selectors as tournament_selectors
from tournaments.models import Frame, Match, Tournament, TournamentStatus


def page(rows, limit, offset, item):
    """``{"count", "limit", "offset", "items"}``: one page of a queryset (or a list)."""
    count = rows.count() if hasattr(rows, "count") and not isinstance(rows, list) else len(rows)
    return {
        "count": count,
        "limit": limit,
        "offset": offset,
        "items": [item(row) for row in rows[offset : offset + limit]],
    }


# --- the network's clubs ----------------------------------------------------------------------


def club_ref(club, request):
    """What names a club: its slug, name, city, time zone and home page (at its first host
    name, with the request's scheme and port)."""
    return {
        "slug": club.slug,
        "name": club.name,
        "city": club.city,
        "time_zone": club.time_zone,
        "url": club.home_url(request),
    }


def here(request):
    """The club whose tables, games and tournaments the request reads (its host's)."""
    return club_ref(club_in_scope(), request)


def _count(rows):
    """The number of ``rows`` of the outer query's club, as a subquery (0 for none)."""
    counted = rows.order_by().values("club").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def clubs():
    """The network's clubs by city and name, each with how many active tables it has and how
    many games are in progress there now: counts of every club's rows (``all_clubs``), in
    the clubs' one query; nothing else of a club's rows is read (no money, no phones)."""
    with all_clubs():
        tables = Table.objects.filter(club=OuterRef("pk"), is_active=True)
        live = Game.objects.filter(club=OuterRef("pk"), status=GameStatus.IN_PROGRESS)
        counted = Club.objects.annotate(table_count=_count(tables), live_count=_count(live))
    return counted.order_by("city", "name", "pk")


def club_item(club, request):
    return club_ref(club, request) | {
        "address": club.address,
        "hosts": list(club.hosts),
        "tables": club.table_count,
        "live_games": club.live_count,
    }


def club_detail(slug, request):
    """A club of the network by its slug; None for none."""
    club = clubs().filter(slug=slug).first()
    return club_item(club, request) if club is not None else None


# --- tables -----------------------------------------------------------------------------------


def _table(table, club):
    status = TableStatus(table.status)
    return {
        "number": table.number,
        "name": table.name,
        "kind": table.kind,
        "kind_name": str(table.get_kind_display()),
        "status": status.value,
        "status_name": str(status.label),
        "club": club,
    }


def tables():
    """The active tables by number, each with its status (free, in play, out of service)."""
    return sorted(tables_with_status(), key=lambda table: table.number)


def table_item(table, club):
    return _table(table, club)


def table_live(number, club):
    """The table and what its board shows now; None for no such active table."""
    if table_fingerprint(number) is None:
        return None
    found = next((t for t in tables_with_status() if t.number == number), None)
    if found is None:
        return None
    board = table_scoreboard(number)
    return _table(found, club) | {"fingerprint": board["fingerprint"], "live": board["game"]}


# --- games ------------------------------------------------------------------------------------


def games(status=None, variant=None, table=None, player=None):
    """Games newest first, their table and seats (with players) prefetched."""
    found = (
        Game.objects.select_related("table")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .annotate(frame_of_match=F("match_frame__match_id"))
    )
    if status:
        found = found.filter(status=status)
    if variant:
        found = found.filter(variant=variant)
    if table is not None:
        found = found.filter(table__number=table)
    if player is not None:
        found = found.filter(seats__player_id=player).distinct()
    return found.order_by("-started_at", "-pk")


def _seat(seat):
    return {
        "position": seat.position + 1,
        "name": seat.name,
        "player_id": seat.player_id,
        "score": seat.score,
        "outcome": seat.outcome,
    }


def game_item(game, club):
    return {
        "id": game.pk,
        "variant": game.variant,
        "variant_name": variant_label(game.variant),
        "table": game.table.number,
        "status": game.status,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "match_id": game.frame_of_match,
        "seats": [_seat(seat) for seat in game.seats.all()],
        "club": club,
    }


def game_detail(pk, club):
    """A game with its settings, result and every event with the state after it (the game
    page's replay); None for no such game."""
    game = games().filter(pk=pk).first()
    if game is None:
        return None
    seats = list(game.seats.all())
    names = [seat.name for seat in seats]
    variant = game_selectors.variant_of(game)
    try:
        log, error = game_selectors.game_log(game), ""
    except (rules.RuleViolation, rules.SettingsError) as exc:
        log, error = [], render_message(getattr(exc, "message", str(exc)))
    recorded = {
        seq: (at, tapped)
        for seq, at, tapped in Event.objects.filter(game=game).values_list(
            "seq", "recorded_at", "tapped_at"
        )
    }
    events = [
        _event(number, step, *recorded.get(number, (None, None)), game, names)
        for number, step in enumerate(log, start=1)
    ]
    result = game.result if game.status == GameStatus.FINISHED else None
    return game_item(game, club) | {
        "settings": [
            {"label": str(label), "value": str(value)}
            for label, value in played_settings(game, variant, seats)
        ],
        "result": {
            "winners": [index + 1 for index in result.get("winners", [])],
            "draw": result.get("draw") or "",
        }
        if result
        else None,
        "events": events,
        "replay_error": error,
    }


def _event(number, step, recorded_at, tapped_at, game, names):
    event, after = step.event, step.after
    figures = stats.state_figures(game.variant, after)
    return {
        "seq": number,
        "kind": event.kind,
        "fouls": list(event.fouls),
        "ball": event.ball,
        "pocket": event.pocket.value if event.pocket is not None else None,
        "count": event.count,
        "balls": list(event.extra_balls),
        "recorded_at": recorded_at,
        "tapped_at": tapped_at or recorded_at,
        "description": render_message(step.description, names),
        "undone": step.undone,
        "state": {
            "scores": list(after.scores),
            "to_play": None if after.finished else after.turn + 1,
            "finished": after.finished,
            "figures": [
                {"label": str(label), "value": str(value)} for label, value in figures["extras"]
            ],
        },
    }


# --- players ----------------------------------------------------------------------------------


def players():
    return Player.objects.filter(is_active=True).order_by("full_name", "nickname", "pk")


def player_item(player):
    return {
        "id": player.pk,
        "name": player.display_name,
        "full_name": player.full_name,
        "nickname": player.nickname,
        "skill_class": player.skill_class,
        "skill_class_name": str(player.get_skill_class_display()),
    }


def player_detail(pk):
    player = Player.everywhere.filter(pk=pk).first()
    if player is None:
        return None
    records = [
        {
            "variant": record.variant,
            "variant_name": str(record.label),
            "games": record.games,
            "wins": record.wins,
            "losses": record.losses,
            "draws": record.draws,
            "win_percentage": record.win_percentage,
            "figures": [
                {"key": figure.key, "label": str(figure.label), "value": _number(value)}
                for figure, value in record.figures
            ],
        }
        for record in stats.player_records(player)
    ]
    ratings = [
        {
            "family": row["family"],
            "family_name": row["label"],
            "rating": row["rating"],
            "games": row["games"],
        }
        for row in stats.player_ratings(player)
    ]
    return player_item(player) | {"records": records, "ratings": ratings}


def _number(value):
    return None if value is None else float(value)


def rating_families():
    return [
        {
            "family": family,
            "family_name": rating.family_label(family),
            "variants": list(variants),
        }
        for family, variants in rating.families().items()
    ]


def rating_rows(family):
    """The family's rated players, best first (ties by games, then name)."""
    state = rating.current(family)
    names = {
        pk: nickname or full_name
        for pk, nickname, full_name in Player.everywhere.filter(
            pk__in=list(state.games)
        ).values_list("pk", "nickname", "full_name")
    }
    rows = sorted(
        (
            (round(state.rating(pk)), games, names[pk], pk)
            for pk, games in state.games.items()
            if pk in names and games
        ),
        key=lambda row: (-row[0], -row[1], row[2].casefold(), row[3]),
    )
    return [
        {"rank": rank, "player_id": pk, "name": name, "rating": value, "games": games}
        for rank, (value, games, name, pk) in enumerate(rows, start=1)
    ]


# --- tournaments ------------------------------------------------------------------------------


def tournaments():
    return Tournament.objects.order_by("-date", "-pk")


def tournament_item(tournament, club):
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "date": tournament.date,
        "variant": tournament.variant,
        "variant_name": variant_label(tournament.variant),
        "format": tournament.format,
        "format_name": str(tournament.get_format_display()),
        "status": tournament.status,
        "status_name": str(tournament.get_status_display()),
        "club": club,
    }


def tournament_detail(pk, club):
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        return None
    detail = tournament_item(tournament, club) | {
        "rules": tournament.rules,
        "entrants": [],
        "matches": [],
        "groups": [],
        "places": [],
        "champion": None,
    }
    if tournament.status == TournamentStatus.DRAFT:
        detail["entrants"] = [
            {"seed": index, "name": e.name, "player_id": e.player_id, "withdrawn": e.withdrawn}
            for index, e in enumerate(tournament.entrants.select_related("player"), start=1)
        ]
        return detail
    view = tournament_selectors.tournament_view(tournament)
    entrants = view.entrants
    detail["entrants"] = [
        {"seed": seed, "name": e.name, "player_id": e.player_id, "withdrawn": e.withdrawn}
        for seed, e in sorted(entrants.items())
    ]
    detail["matches"] = [_tournament_match(item) for item in view.items if item.status != "void"]
    detail["groups"] = [
        {
            "number": number,
            "standings": [
                {
                    "rank": row.rank,
                    "seed": row.seed,
                    "name": entrant.name,
                    "played": row.played,
                    "wins": row.wins,
                    "losses": row.losses,
                    "frames_won": row.frames_won,
                    "frames_lost": row.frames_lost,
                    "frame_difference": row.frame_difference,
                }
                for row, entrant in rows
            ],
        }
        for number, rows in view.standings
    ]
    detail["places"] = [
        {"place": label, "seed": entrant.seed, "name": entrant.name}
        for label, entrant in view.places
    ]
    champion = entrants.get(view.state.champion)
    detail["champion"] = champion.name if champion is not None else None
    return detail


def _tournament_match(item):
    spec, match = item.spec, item.match
    return {
        "key": spec.key,
        "number": spec.number,
        "stage": item.stage_label,
        "bracket": spec.bracket,
        "round": spec.round,
        "status": item.status,
        "seed_a": item.seed_a,
        "seed_b": item.seed_b,
        "name_a": item.name_a,
        "name_b": item.name_b,
        "score_a": item.score_a,
        "score_b": item.score_b,
        "winner": item.winner,
        "result_kind": item.kind,
        "table": item.table_number,
        "match_id": match.pk if match is not None else None,
        "started_at": match.started_at if match is not None else None,
        "finished_at": match.finished_at if match is not None else None,
    }


def match_detail(pk):
    match = (
        Match.objects.select_related("player_a", "player_b", "table", "tournament")
        .filter(pk=pk)
        .first()
    )
    if match is None:
        return None
    frames = list(Frame.objects.filter(match=match).select_related("game").order_by("number"))
    score = tournament_selectors.match_score(match, frames)
    tournament = match.tournament
    return {
        "id": match.pk,
        "variant": match.variant,
        "variant_name": variant_label(match.variant),
        "name_a": match.name_a,
        "name_b": match.name_b,
        "player_a_id": match.player_a_id,
        "player_b_id": match.player_b_id,
        "race_to": match.race_to,
        "head_start_a": match.head_start_a,
        "head_start_b": match.head_start_b,
        "status": match.status,
        "score_a": score[0],
        "score_b": score[1],
        "winner": match.winner,
        "result_kind": match.kind,
        "table": match.table.number if match.table_id else None,
        "tournament": {"id": tournament.pk, "name": tournament.name} if tournament else None,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "frames": [
            {
                "number": frame.number,
                "game_id": frame.game_id,
                "breaker": frame.breaker,
                "status": frame.game.status,
                "winner": tournament_selectors.frame_winner(frame) or "",
            }
            for frame in frames
        ],
    }


def not_found():
    return _("Not found.")
