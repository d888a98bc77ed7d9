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
from broadcast.scoreboard import match_odds, table_scoreboard
from clubs.current import current_club
from clubs.models import Club
from clubs.scoping import all_clubs, club_in_scope
from games import rules
from games import selectors as game_selectors
from games.i18n import render_message
from games.models import Event, Game, GameStatus, Seat, variant_label
from games.rules_overview import played_settings
from leagues import selectors as league_selectors
from leagues.models import League
from players.models import Player
from records import performance, rating, stats
from season import selectors as season_selectors
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


def player_detail(pk, club):
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
            "deviation": row["deviation"],
            "provisional": row["provisional"],
            "games": row["games"],
        }
        for row in stats.player_ratings(player)
    ]
    return player_item(player) | {
        "records": records,
        "ratings": ratings,
        "performances": player_performances(player, club),
    }


def performance_item(perf):
    """A ``records.performance.Performance`` as the API answers it (None: none)."""
    if perf is None:
        return None
    return {
        "performance": round(perf.rating),
        "error": round(perf.error),
        "games": perf.games,
        "results": perf.results,
        "score": perf.score,
        "rating_before": round(perf.before),
        "deviation_before": round(perf.deviation),
    }


def player_performances(player, club):
    """His performance in each of his last months of each family (newest first), then in
    each of his tournaments at the request's club (newest first), each naming ``club``."""
    found = [
        performance_item(perf)
        | {
            "family": row["family"],
            "family_name": row["label"],
            "month": month.strftime("%Y-%m"),
            "tournament": None,
        }
        for row in performance.player_performances(player)
        for month, perf in row["months"]
    ]
    entered = list(Tournament.objects.filter(entrants__player=player).order_by("-date", "-pk"))
    by_tournament = tournament_selectors.player_tournament_performances(player, entered)
    for tournament in entered:
        if tournament.pk in by_tournament:
            family = rating.family_of(tournament.variant)
            found.append(
                performance_item(by_tournament[tournament.pk])
                | {
                    "family": family,
                    "family_name": rating.family_label(family),
                    "month": None,
                    "tournament": {"id": tournament.pk, "name": tournament.name, "club": club},
                }
            )
    return found


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
    """The family's rated players, best first (ties by games, then name); a provisional
    rating has no rank and comes below the ranked ones unless the club ranks them."""
    state, now = rating.current(family), rating.today()
    names = {
        pk: nickname or full_name
        for pk, nickname, full_name in Player.everywhere.filter(
            pk__in=list(state.games)
        ).values_list("pk", "nickname", "full_name")
    }
    rank_provisional = getattr(current_club(), "rank_provisional", False)
    skills = {pk: state.skill(pk).at(now) for pk in state.games if pk in names}
    rows = sorted(
        (
            (not rank_provisional and skill.provisional, -round(skill.rating), -skill.games)
            + (names[pk].casefold(), pk, skill)
            for pk, skill in skills.items()
            if skill.games
        ),
    )
    ranked = 0
    result = []
    for unranked, _rating, _games, _name, pk, skill in rows:
        ranked += not unranked
        result.append(
            {
                "rank": None if unranked else ranked,
                "player_id": pk,
                "name": names[pk],
                "rating": round(skill.rating),
                "deviation": round(skill.deviation),
                "provisional": skill.provisional,
                "games": skill.games,
            }
        )
    return result


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
            {
                "seed": index,
                "name": e.name,
                "player_id": e.player_id,
                "withdrawn": e.withdrawn,
                "performance": None,
            }
            for index, e in enumerate(tournament.entrants.select_related("player"), start=1)
        ]
        return detail
    view = tournament_selectors.tournament_view(tournament)
    entrants = view.entrants
    performances = tournament_selectors.tournament_performances(tournament, entrants)
    detail["entrants"] = [
        {
            "seed": seed,
            "name": e.name,
            "player_id": e.player_id,
            "withdrawn": e.withdrawn,
            "performance": performance_item(performances.get(seed)),
        }
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
        {
            "place": label,
            "seed": entrant.seed,
            "name": entrant.name,
            "performance": performance_item(performances.get(entrant.seed)),
        }
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


def match_detail(pk, club):
    match = (
        Match.objects.select_related("player_a", "player_b", "table", "tournament")
        .filter(pk=pk)
        .first()
    )
    if match is None:
        return None
    frames = list(Frame.objects.filter(match=match).select_related("game").order_by("number"))
    score = tournament_selectors.match_score(match, frames)
    odds = tournament_selectors.match_odds(match, score=score)
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
        "tournament": (
            {"id": tournament.pk, "name": tournament.name, "club": club} if tournament else None
        ),
        "club": club,
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
        "odds": match_odds(odds),
    }


def not_found():
    return _("Not found.")


# --- series and cups (season) -----------------------------------------------------------------


def series():
    """The series shown at the request's club: its own and the network's."""
    return season_selectors.visible_series().select_related("club").prefetch_related("stages")


def series_item(series, request):
    return {
        "id": series.pk,
        "name": series.name,
        "season": series.season,
        "club": club_ref(series.club, request) if series.club_id else None,
        "finished": series.finished,
        "final_size": series.final_size,
        "stage_count": len(series.stages.all()),
    }


def series_detail(pk, request):
    found = series().filter(pk=pk).first()
    if found is None:
        return None
    table = season_selectors.table_of(found)
    # A network's series: its stages are tournaments of several clubs, each named with its own.
    clubs = Club.objects.in_bulk({info.tournament.club_id for info in table.stages})
    return series_item(found, request) | {
        "best_n": found.best_n,
        "per_month": found.per_month,
        "best_months": found.best_months,
        "tie_breaks": list(found.chain or []),
        "wildcards": table.wildcards,
        "stages": [
            {
                "number": info.stage.number,
                "tournament": {
                    "id": info.tournament.pk,
                    "name": info.tournament.name,
                    "club": club_ref(clubs[info.tournament.club_id], request),
                },
                "points_table": info.stage.table,
                "value": info.value,
                "finished": info.finished,
                "is_final": info.stage.is_final,
            }
            for info in table.stages
        ],
        "standings": [
            {
                "place": line.place,
                "player_id": line.player_id,
                "name": line.name,
                "points": line.total,
                "finalist": line.finalist,
                "wildcard": line.wildcard,
                "results": [
                    {"stage": info.stage.number, "points": cell[0], "counted": cell[1]}
                    for info, cell in zip(table.stages, line.cells, strict=True)
                    if cell is not None and not info.stage.is_final
                ],
                "final_place": list(line.final_place) or None,
            }
            for line in table.lines
        ],
    }


# --- team leagues -------------------------------------------------------------------------------


def leagues():
    """The leagues shown at the request's club: its own and the network's."""
    return League.objects.select_related("club").order_by("name", "pk")


def league_item(league, request):
    return {
        "id": league.pk,
        "name": league.name,
        "variant": league.variant,
        "variant_name": variant_label(league.variant),
        "club": club_ref(league.club, request) if league.club_id else None,
    }


def league_detail(pk, request):
    league = League.objects.select_related("club").filter(pk=pk).first()
    if league is None:
        return None
    season = league_selectors.current_season(league)
    divisions = [
        {
            "name": division.name,
            "standings": [
                {
                    "place": s.row.place,
                    "team": s.team.name,
                    "played": s.row.played,
                    "won": s.row.won,
                    "drawn": s.row.drawn,
                    "lost": s.row.lost,
                    "frames_won": s.row.frames_won,
                    "frames_lost": s.row.frames_lost,
                    "points": s.row.points,
                }
                for s in table
            ],
        }
        for division, table in league_selectors.divisions_with_tables(season)
    ]
    fixtures = [
        {
            "round": day.round,
            "date": day.date,
            "division": day.division.name,
            "home": day.home.name,
            "away": day.away.name,
            "status": day.status,
            "home_frames": day.home_frames if day.done else None,
            "away_frames": day.away_frames if day.done else None,
            "forfeit_by": day.forfeit_by.name if day.forfeit_by_id else None,
            "club": club_ref(day.club, request),
            "games": [
                {
                    "order": game.order,
                    "race_to": game.race_to,
                    "doubles": game.doubles,
                    "home": [p.display_name for p in (game.home_player, game.home_partner) if p],
                    "away": [p.display_name for p in (game.away_player, game.away_partner) if p],
                    "home_frames": game.home_frames,
                    "away_frames": game.away_frames,
                    "status": game.status,
                }
                for game in day.games.all()
            ],
        }
        for day in league_selectors.fixture_list(season, with_games=True)
    ]
    return league_item(league, request) | {
        "season": season.name if season else None,
        "points": [league.win_points, league.draw_points, league.loss_points],
        "frame_points": league.frame_points,
        "tie_breaks": list(league.tie_breaks),
        "divisions": divisions,
        "fixtures": fixtures,
    }
