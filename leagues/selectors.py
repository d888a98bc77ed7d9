"""The reads of a league: its seasons' tables (``fixtures.standings``), its TV board's last
results and next match days, a match day as each visitor may see it (a line-up stays hidden
until both are locked; a draft is its captain's alone), a player's match days and what his
captaincy tells him (``Notice``, in words), the match days played at the club in scope (its
desk's, with the tables free for each) and who may run what."""

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from billing import selectors as billing_selectors
from clubs.scoping import club_in_scope
from leagues import fixtures
from leagues.models import (
    GameStatus,
    League,
    LineUp,
    MatchDay,
    MatchDayGame,
    MatchDayStatus,
    Notice,
    NoticeKind,
    Season,
    Team,
)
from players.models import Player
from toolbox import roles

DONE = (MatchDayStatus.CLOSED, MatchDayStatus.FORFEITED)
DESK_DAYS = 12  # the match days ahead the desk's table list shows


def leagues():
    """The leagues shown at the club in scope: its own and the network's."""
    return (
        League.objects.select_related("club")
        .prefetch_related("divisions", "seasons")
        .order_by("name", "pk")
    )


# --- who may run what -------------------------------------------------------------------------


def may_create(user):
    """A club's tournament admins make the club's leagues; the network's admins the network's."""
    return roles.can_manage_tournaments(user) or roles.can_merge_people(user)


def can_edit(user, league: League):
    """A club's league: its club's tournament admins (at that club); the network's: the
    network's admins (at any club of it)."""
    if league.network:
        return roles.can_merge_people(user)
    return league.club_id == club_in_scope().pk and roles.can_manage_tournaments(user)


def played_here(match_day: MatchDay):
    """The match day is played at the club in scope (its home team's club)."""
    return match_day.club_id == club_in_scope().pk


def can_forfeit(user, match_day: MatchDay):
    """The desk of the match day's club (its tournament admins) or the league's editors, at
    that club: a forfeit is recorded where the match day was to be played."""
    return played_here(match_day) and (
        roles.can_manage_tournaments(user) or can_edit(user, match_day.season.league)
    )


def can_book(user):
    """The club's cashiers and admins book its tables (for its own match days only: those
    are found through ``MatchDay.hosted``)."""
    return roles.can_run_clocks(user)


# --- the league night's table -----------------------------------------------------------------


def league_night(match_day: MatchDay, league: League):
    """The match day's booking slot, (start, end), in the time zone active: its club's within
    ``using_club(match_day.club)`` (or at that club's address)."""
    start = timezone.make_aware(dt.datetime.combine(match_day.date, league.starts_at))
    return start, start + dt.timedelta(hours=league.hours)


@dataclass
class DeskDay:
    """A match day played here, as the desk books its table: the tables free that evening
    (any kind: the desk decides)."""

    day: MatchDay
    free: list = field(default_factory=list)


def desk_days(season: Season | None, limit=DESK_DAYS) -> list[DeskDay]:
    """The season's match days still to be played at the club in scope, the next first."""
    if season is None:
        return []
    days = (
        MatchDay.hosted.filter(season=season, date__gte=timezone.localdate())
        .exclude(status__in=DONE)
        .select_related("home", "away", "table", "reservation__table", "season__league", "club")
        .order_by("date", "pk")[:limit]
    )
    found = []
    for day in days:
        start, end = league_night(day, day.season.league)
        found.append(DeskDay(day, list(billing_selectors.tables_to_book(start, end))))
    return found


def match_days_here(limit=10):
    """The match days of every league shown here that are played at the club in scope, from
    today on: the club's league nights (its own leagues' and the network's)."""
    return list(
        MatchDay.hosted.filter(date__gte=timezone.localdate())
        .exclude(status__in=DONE)
        .select_related("home", "away", "season__league", "table", "reservation__table", "club")
        .order_by("date", "pk")[:limit]
    )


def current_season(league: League) -> Season | None:
    return league.seasons.order_by("-starts_on", "-pk").first()


def results(season: Season, division) -> list[fixtures.Result]:
    done = MatchDay.objects.filter(season=season, division=division, status__in=DONE)
    return [
        fixtures.Result(
            day.home_id, day.away_id, day.home_frames, day.away_frames, day.forfeit_by_id
        )
        for day in done
    ]


@dataclass
class Standing:
    row: fixtures.Row
    team: Team


def standings(season: Season, division) -> list[Standing]:
    teams = {team.pk: team for team in season.teams.filter(division=division).order_by("pk")}
    table = fixtures.standings(list(teams), results(season, division), season.league.rules)
    return [Standing(row, teams[row.team]) for row in table]


def divisions_with_tables(season: Season | None):
    if season is None:
        return []
    return [(division, standings(season, division)) for division in season.league.divisions.all()]


def fixture_list(season: Season | None, with_games=False):
    """The season's match days in order (``with_games``: each with its games and their
    players read at once, for the API)."""
    if season is None:
        return []
    days = (
        MatchDay.objects.filter(season=season)
        .select_related(
            "home", "away", "division", "table", "forfeit_by", "club", "reservation__table"
        )
        .order_by("date", "round", "pk")
    )
    if with_games:
        days = days.prefetch_related(
            Prefetch(
                "games",
                MatchDayGame.objects.select_related(
                    "home_player", "home_partner", "away_player", "away_partner"
                ),
            )
        )
    return list(days)


def last_results(season: Season | None, limit=6):
    """The season's match days over, the latest first (the TV board)."""
    if season is None:
        return []
    return list(
        MatchDay.objects.filter(season=season, status__in=DONE)
        .select_related("home", "away", "division", "forfeit_by", "club")
        .order_by("-date", "-round", "-pk")[:limit]
    )


def next_match_days(season: Season | None, limit=6):
    """The season's match days still to play or under way, the soonest first, each with its
    score so far (``Upcoming``: the TV board)."""
    if season is None:
        return []
    days = list(
        MatchDay.objects.filter(season=season)
        .exclude(status__in=DONE)
        .select_related("home", "away", "division", "table", "club")
        .prefetch_related("games")
        .order_by("date", "round", "pk")[:limit]
    )
    return [Upcoming(day, score(day, list(day.games.all()))) for day in days]


@dataclass
class Upcoming:
    day: MatchDay
    score: tuple[int, int]


@dataclass
class Slot:
    """A game of a line-up: its number, its player or pair (None: not chosen yet)."""

    order: int
    doubles: bool
    players: list  # one (singles) or two (doubles) Player or None

    @property
    def names(self):
        return " / ".join(p.display_name if p else "—" for p in self.players)


@dataclass
class Side:
    team: Team
    line_up: LineUp | None
    slots: list[Slot]  # shown: [] while hidden from this visitor
    hidden: bool

    @property
    def draft(self):
        """His own line-up saved, not locked (shown to its captain only)."""
        return self.line_up is not None and self.line_up.locked_at is None and bool(self.slots)


def slots(league: League, entries) -> list[Slot]:
    """A line-up's entries as its games: the players read once."""
    by_pk = Player.everywhere.in_bulk(fixtures.line_up_players(entries))
    shown = []
    for order, (game, entry) in enumerate(zip(league.format, entries, strict=False), start=1):
        picks = entry if isinstance(entry, list | tuple) else [entry]
        shown.append(
            Slot(order, fixtures.is_doubles(game), [by_pk.get(pk) if pk else None for pk in picks])
        )
    return shown


def sides(match_day: MatchDay, viewer_team: Team | None) -> list[Side]:
    """The two teams with their line-ups as ``viewer_team``'s captain (or anybody: None) may
    see them: both once revealed; before, only his own (locked, or his draft)."""
    line_ups = {lu.team_id: lu for lu in match_day.line_ups.all()}
    revealed = match_day.status != MatchDayStatus.SCHEDULED
    league = match_day.season.league
    shown = []
    for team in (match_day.home, match_day.away):
        line_up = line_ups.get(team.pk)
        visible = line_up is not None and (
            revealed or (viewer_team is not None and viewer_team.pk == team.pk)
        )
        shown.append(
            Side(
                team,
                line_up,
                slots(league, line_up.players) if visible else [],
                hidden=not visible,
            )
        )
    return shown


def games_of(match_day: MatchDay):
    """Its games: none until both line-ups are locked."""
    return list(
        match_day.games.select_related(
            "home_player", "home_partner", "away_player", "away_partner", "game"
        )
    )


def score(match_day: MatchDay, games) -> tuple[int, int]:
    if match_day.done:
        return match_day.home_frames, match_day.away_frames
    confirmed = [game for game in games if game.status == GameStatus.CONFIRMED]
    return (
        sum(game.winner == "home" for game in confirmed),
        sum(game.winner == "away" for game in confirmed),
    )


@dataclass
class PlayerDay:
    """One of a player's next match days on his page: his team, and for its captain his own
    line-up as he sees it (his draft, or locked; the other team's stays hidden)."""

    day: MatchDay
    team: Team
    captain: bool
    side: Side | None


def match_days_of(player: Player, limit=5) -> list[PlayerDay]:
    """The player's next match days (his teams', not over), the soonest first."""
    teams = list(Team.objects.filter(members=player).values_list("pk", flat=True))
    if not teams:
        return []
    days = (
        MatchDay.objects.filter(Q(home_id__in=teams) | Q(away_id__in=teams))
        .exclude(status__in=DONE)
        .select_related("home", "away", "season__league", "club", "table", "reservation__table")
        .prefetch_related("line_ups")
        .order_by("date", "pk")[:limit]
    )
    mine = []
    for day in days:
        team = day.home if day.home_id in teams else day.away
        captain = team.captain_id == player.pk
        side = None
        if captain and day.status == MatchDayStatus.SCHEDULED:
            side = next(side for side in sides(day, team) if side.team.pk == team.pk)
        mine.append(PlayerDay(day, team, captain, side))
    return mine


# --- what the captains are told -------------------------------------------------------------


def _day(value):
    return formats.date_format(value, "j E")


def notice_text(notice: Notice) -> str:
    """A notice in words, in the active language: «Лига среды, Шары — Лузы: …»."""
    day = notice.match_day
    mine = day.home if day.home.captain_id == notice.player_id else day.away
    other = day.away if mine.pk == day.home_id else day.home
    names = {
        "day": f"{day.season.league.name}, {day.home.name} — {day.away.name}",
        "other": other.name,
        "date": _day(notice.date or day.date),
    }
    if notice.kind == NoticeKind.OPPONENT_LOCKED:
        return _("%(day)s: %(other)s locked its line-up. Lock yours.") % names
    if notice.kind == NoticeKind.REVEALED:
        return _("%(day)s: both line-ups are revealed.") % names
    if notice.kind == NoticeKind.TO_CONFIRM and notice.game is not None:
        game = notice.game
        names |= {
            "n": game.order,
            "score": f"{game.home_frames}:{game.away_frames}",
            "players": f"{game.home_names} — {game.away_names}",
        }
        return _("%(day)s: game %(n)s (%(players)s) scored %(score)s. Confirm it.") % names
    if notice.kind == NoticeKind.DATE_PROPOSED:
        return _("%(day)s: %(other)s proposes a new date, %(date)s.") % names
    if notice.kind == NoticeKind.DATE_ACCEPTED:
        return _("%(day)s: the new date %(date)s is accepted.") % names
    if notice.kind == NoticeKind.FORFEIT:
        names["forfeit"] = day.forfeit_by.name if day.forfeit_by_id else other.name
        return _("%(day)s: a forfeit by %(forfeit)s is recorded.") % names
    return _("%(day)s on %(date)s: your line-up is not locked yet.") % names


def _with_words(notices):
    return notices.select_related(
        "match_day__season__league",
        "match_day__home",
        "match_day__away",
        "match_day__forfeit_by",
        "game__home_player",
        "game__home_partner",
        "game__away_player",
        "game__away_partner",
    )


@dataclass
class Told:
    notice: Notice
    text: str


def notices(player: Player, limit=5) -> list[Told]:
    """His latest notices of the leagues (his page), with their words."""
    latest = _with_words(Notice.objects.filter(player=player))[:limit]
    return [Told(notice, notice_text(notice)) for notice in latest]


def unsent_notices(player: Player) -> list[Notice]:
    """His notices not yet sent through the Telegram bot, the oldest first: those of the match
    days played at the club in scope (the bot goes through every club in turn, and a network
    league's match day, shown at every club, is its home club's: each notice is said once)."""
    return list(
        _with_words(Notice.hosted.filter(player=player, sent_at__isnull=True)).order_by("at", "pk")
    )
