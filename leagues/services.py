"""Every write of a league: the fixtures (each match day with a table booked at its home club
for the league night), the line-ups (a captain's draft, then locked blind against the cap),
the games of a match day scored and confirmed (or counted from the frames played at its
club's tables), the postponements (the booking moved) and the forfeits — and what each tells
the captains (``Notice``: on their page and through the Telegram bot), the day-before
reminder included (``remind_all``).

A match day's table is booked through billing's own service (``billing.services.book_table``,
the bookings desk's), within the home club (``using_club``): the booking is that club's, on
its bookings page as any other, named after the match day."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from billing import selectors as billing_selectors
from billing import services as billing_services
from billing.models import ReservationStatus
from clubs.current import using_club
from games.models import Outcome
from leagues import fixtures, selectors
from leagues.models import (
    CapKind,
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
from players.models import Player, SkillClass, join_club
from records import rating
from tables.models import Table

# A class's points for a cap of classes (APA-like skill levels): a novice 1 … a master 6.
CLASS_POINTS = {
    SkillClass.NOVICE: 1,
    SkillClass.THIRD: 2,
    SkillClass.SECOND: 3,
    SkillClass.FIRST: 4,
    SkillClass.CANDIDATE_MASTER: 5,
    SkillClass.MASTER: 6,
}


class LeagueError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def _tell(match_day, kind, *player_ids, game=None, date=None):
    """Each of ``player_ids`` (the captains) is told: on his page, and through the bot."""
    Notice.objects.bulk_create(
        Notice(match_day=match_day, kind=kind, player_id=pk, game=game, date=date)
        for pk in dict.fromkeys(player_ids)
    )


# --- fixtures -----------------------------------------------------------------------------


def generate_fixtures(*, season: Season, user=None) -> list[MatchDay]:
    """The season's fixture list, division by division (refused once it has one); each match
    day at its home team's club, a table booked there for its league night when one is free
    (``reserve_table``)."""
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        if season.match_days.exists():
            raise LeagueError(_("This season already has its fixtures."))
        holidays = [dt.date.fromisoformat(day) for day in season.holidays]
        made = []
        for division in season.league.divisions.all():
            teams = list(season.teams.filter(division=division).order_by("pk"))
            rounds = fixtures.round_robin([team.pk for team in teams], double=season.double)
            dates = fixtures.match_dates(season.starts_on, season.weekday, len(rounds), holidays)
            by_pk = {team.pk: team for team in teams}
            for number, (day, date) in enumerate(zip(rounds, dates, strict=True), start=1):
                for home, away in day:
                    made.append(
                        MatchDay(
                            season=season,
                            division=division,
                            round=number,
                            home=by_pk[home],
                            away=by_pk[away],
                            date=date,
                            club=by_pk[home].home_club,
                        )
                    )
        if len(made) == 0:
            raise LeagueError(_("A division needs at least two teams."))
        made = MatchDay.objects.bulk_create(made)
        for match_day in made:
            reserve_table(match_day, user=user)
        return made


# --- the table of a match day, booked at its home club ---------------------------------------


def _booking_who(match_day: MatchDay, league: League):
    """What the booking is named and whom the desk calls: the match day, the home captain's
    phone (the away one's, else a dash: a booking needs one)."""
    name = f"{league.name}: {match_day.home.name} — {match_day.away.name}"[:150]
    phones = [team.captain.phone.strip() for team in (match_day.home, match_day.away)]
    return name, next((phone for phone in phones if phone), "—")


# A table refused as taken or out of service: the next one is tried.
_TABLE_TAKEN = {"overlap", "closed"}


def reserve_table(match_day: MatchDay, *, user=None, prefer: Table | None = None):
    """Books a table of the league's kind at the match day's home club for its league night
    (``prefer``, its old table, if free; else the lowest number free) and saves the match day
    with it; when none is free, ``no_free_table`` says so (the desk picks one by hand). A
    night already begun gets no booking. Returns the booking, or None. The match day's booking
    so far is replaced: the caller cancels it first (``_release``)."""
    league = match_day.season.league
    booking = None
    with using_club(match_day.club):
        start, end = selectors.league_night(match_day, league)
        ahead = start >= timezone.now()
        if ahead:
            tables = list(billing_selectors.tables_to_book(start, end, league.table_kind))
            if prefer is not None:
                tables.sort(key=lambda table: table.pk != prefer.pk)
            name, phone = _booking_who(match_day, league)
            for table in tables:
                try:
                    booking = billing_services.book_table(
                        table=table,
                        name=name,
                        phone=phone,
                        starts_at=start,
                        minutes=league.hours * 60,
                        user=user,
                    )
                    break
                except ValidationError as error:
                    if error.code not in _TABLE_TAKEN:
                        raise
        match_day.no_free_table = ahead and booking is None
    # Its old booking, if any, was cancelled by the caller: the bookings page keeps it.
    match_day.reservation, match_day.table = booking, booking and booking.table
    match_day.save(update_fields=["reservation", "table", "no_free_table"])
    return booking


def _release(match_day: MatchDay, *, user=None, only_ahead=False):
    """Cancels the match day's booking while it still waits (``only_ahead``: if its night is
    still to come); a booking claimed, a no-show or cancelled stays as it is: the history."""
    booking = match_day.reservation
    if booking is None or booking.status != ReservationStatus.BOOKED:
        return
    if only_ahead and booking.starts_at <= timezone.now():
        return
    with using_club(match_day.club):
        billing_services.set_booking_status(
            booking=booking, status=ReservationStatus.CANCELLED, user=user
        )
    match_day.reservation.status = ReservationStatus.CANCELLED


def pick_table(*, match_day: MatchDay, table_id, user):
    """The desk books this table of the home club for the match day's league night (none was
    free of the league's kind, or another suits better); its old booking, if still waiting,
    is cancelled. Refused with the booking's reason (the table taken then, out of service)."""
    with transaction.atomic():
        match_day = (
            MatchDay.objects.select_for_update(of=("self",))
            .select_related("season__league", "home__captain", "away__captain", "club")
            .get(pk=match_day.pk)
        )
        if match_day.done:
            raise LeagueError(_("This match day is over."))
        league = match_day.season.league
        with using_club(match_day.club):
            table = Table.objects.filter(pk=table_id, is_active=True).first()
            if table is None:
                raise LeagueError(_("Choose a table of this club."))
            start, _end = selectors.league_night(match_day, league)
            old = match_day.reservation
            waiting = old is not None and old.status == ReservationStatus.BOOKED
            if waiting and old.table_id == table.pk and old.starts_at == start:
                raise LeagueError(_("This table is already booked for the match day."))
            if start < timezone.now():
                raise LeagueError(_("The league night has begun: book the table at the desk."))
            if waiting:
                billing_services.set_booking_status(
                    booking=old, status=ReservationStatus.CANCELLED, user=user
                )
            name, phone = _booking_who(match_day, league)
            try:
                booking = billing_services.book_table(
                    table=table,
                    name=name,
                    phone=phone,
                    starts_at=start,
                    minutes=league.hours * 60,
                    user=user,
                )
            except ValidationError as error:
                raise LeagueError(" ".join(error.messages)) from None
        match_day.reservation, match_day.table = booking, table
        match_day.no_free_table = False
        match_day.save(update_fields=["reservation", "table", "no_free_table"])
        return match_day


# --- line-ups -------------------------------------------------------------------------------


def cap_total(league: League, players) -> int:
    """The line-up's sum for the league's cap: the players' ratings in the league's game (as
    of now; a player without rated games from his class), or their class points."""
    if league.cap_kind == CapKind.CLASS:
        return sum(CLASS_POINTS.get(player.skill_class, 1) for player in players)
    family = rating.family_of(league.variant)
    return sum(
        round(rating.skill_of(family, player.pk, player.skill_class).rating) for player in players
    )


def _side(match_day: MatchDay, team: Team) -> str:
    if team.pk == match_day.home_id:
        return "home"
    if team.pk == match_day.away_id:
        return "away"
    raise LeagueError(_("This team does not play this match day."))


def captains_team(match_day: MatchDay, player: Player | None) -> Team | None:
    """The team of this match day whose captain ``player`` is, or None."""
    if player is None:
        return None
    for team in (match_day.home, match_day.away):
        if team.captain_id == player.pk:
            return team
    return None


def _line_up_message(refusal, needed):
    if refusal == fixtures.SAME_PAIR:
        return _("A pair is two different players.")
    if refusal == fixtures.SINGLES_TWICE:
        return _("A player is chosen for two singles games: one at most.")
    if refusal == fixtures.DOUBLES_TWICE:
        return _("A player is chosen for two doubles games: one at most.")
    return _("Choose a player for each of the %(n)s games.") % {"n": needed}


def cap_numbers(total, league):
    return {
        "total": number_format(total, force_grouping=True),
        "limit": number_format(league.cap_limit, force_grouping=True),
    }


def over_cap(league: League, total: int) -> bool:
    return league.cap_kind != CapKind.NONE and total > league.cap_limit


def _checked(match_day, team, entries, *, complete):
    """Within the match day's lock: the team's line-up row (made if need be), still open to
    change, and the sum of ``entries`` for the cap — refused (LeagueError) when ``entries``
    is no line-up of the league's format or names a player not of the team."""
    league = match_day.season.league
    _side(match_day, team)
    if match_day.status != MatchDayStatus.SCHEDULED:
        raise LeagueError(_("The line-ups of this match day are already revealed."))
    line_up, _created = LineUp.objects.get_or_create(match_day=match_day, team=team)
    if line_up.locked_at is not None:
        raise LeagueError(_("Your line-up is already locked."))
    refusal = fixtures.line_up_refusal(league.format, entries, complete=complete)
    if refusal is not None:
        raise LeagueError(_line_up_message(refusal, league.games_per_match_day))
    chosen = fixtures.line_up_players(entries)
    members = {member.pk: member for member in team.people()}
    if any(pk not in members for pk in chosen):
        raise LeagueError(_("Only the team's members can play."))
    return league, line_up, cap_total(league, [members[pk] for pk in chosen])


def save_line_up(*, match_day: MatchDay, team: Team, player_ids: list) -> LineUp:
    """The captain's draft: saved, not locked, seen by nobody else; he may change it (or
    leave choices out) until he locks it. Over the cap it is saved all the same (the lock
    refuses it): ``over_cap`` says so with its ``cap_total``."""
    with transaction.atomic():
        match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
        _league, line_up, total = _checked(match_day, team, player_ids, complete=False)
        line_up.players = list(player_ids)
        line_up.cap_total = total
        line_up.saved_at = timezone.now()
        line_up.save(update_fields=["players", "cap_total", "saved_at"])
        return line_up


def lock_line_up(*, match_day: MatchDay, team: Team, player_ids: list) -> LineUp:
    """The captain's line-up, locked: an entry a game of the league's format (a player id
    for a singles game, a pair of ids for a doubles game), refused with its numbers over the
    cap. The other captain is told (lock yours); once both teams' are locked they are
    revealed together, the match day's games are set and both captains are told."""
    with transaction.atomic():
        match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
        league, line_up, total = _checked(match_day, team, player_ids, complete=True)
        if over_cap(league, total):
            raise LeagueError(
                _("Your line-up sums %(total)s > the cap %(limit)s.") % cap_numbers(total, league)
            )
        line_up.players = list(player_ids)
        line_up.cap_total = total
        line_up.locked_at = timezone.now()
        line_up.saved_at = line_up.saved_at or line_up.locked_at
        line_up.save()
        if not _reveal_when_both(match_day, league):
            other = match_day.away if team.pk == match_day.home_id else match_day.home
            _tell(match_day, NoticeKind.OPPONENT_LOCKED, other.captain_id)
        return line_up


def _pair(entry):
    return entry if isinstance(entry, list | tuple) else (entry, None)


def _reveal_when_both(match_day: MatchDay, league: League) -> bool:
    line_ups = {lu.team_id: lu for lu in match_day.line_ups.all() if lu.locked_at is not None}
    if len(line_ups) < 2:
        return False
    home, away = line_ups[match_day.home_id], line_ups[match_day.away_id]
    # The players, pairs' partners included, are on the home club's roster (as guests when
    # they were not): its marker seats them at its tables, as a game started there would put
    # them on it.
    people = fixtures.line_up_players(home.players + away.players)
    for player in Player.everywhere.filter(pk__in=people):
        join_club(player, club=match_day.club, guest=True)
    games = []
    for order, game in enumerate(league.format, start=1):
        home_player, home_partner = _pair(home.players[order - 1])
        away_player, away_partner = _pair(away.players[order - 1])
        games.append(
            MatchDayGame(
                match_day=match_day,
                order=order,
                race_to=max(1, int(game.get("race_to", 1))),
                home_player_id=home_player,
                home_partner_id=home_partner,
                away_player_id=away_player,
                away_partner_id=away_partner,
            )
        )
    MatchDayGame.objects.bulk_create(games)
    match_day.status = MatchDayStatus.REVEALED
    match_day.save(update_fields=["status"])
    _tell(match_day, NoticeKind.REVEALED, match_day.home.captain_id, match_day.away.captain_id)
    return True


# --- the games of a match day ---------------------------------------------------------------


def score_game(*, game: MatchDayGame, team: Team, home_frames: int, away_frames: int):
    """The home captain scores a game of the match day (a doubles game is scored only so);
    the away captain is told and confirms it."""
    with transaction.atomic():
        game = MatchDayGame.objects.select_for_update().get(pk=game.pk)
        match_day = game.match_day
        if team.pk != match_day.home_id:
            raise LeagueError(_("Only the home captain scores the games."))
        if match_day.status != MatchDayStatus.REVEALED or game.status == GameStatus.CONFIRMED:
            raise LeagueError(_("This game can no longer be scored."))
        race = game.race_to
        if not (
            0 <= home_frames <= race
            and 0 <= away_frames <= race
            and (home_frames == race) != (away_frames == race)
        ):
            raise LeagueError(_("A race to %(n)s: one player wins %(n)s frames.") % {"n": race})
        game.home_frames, game.away_frames = home_frames, away_frames
        game.status = GameStatus.SCORED
        game.save(update_fields=["home_frames", "away_frames", "status"])
        _tell(match_day, NoticeKind.TO_CONFIRM, match_day.away.captain_id, game=game)
        return game


def confirm_game(*, game: MatchDayGame, team: Team):
    """The away captain confirms the home captain's score; the last one closes the day."""
    with transaction.atomic():
        game = MatchDayGame.objects.select_for_update().get(pk=game.pk)
        if team.pk != game.match_day.away_id:
            raise LeagueError(_("Only the away captain confirms the games."))
        if game.status != GameStatus.SCORED:
            raise LeagueError(_("This game is not awaiting confirmation."))
        game.status = GameStatus.CONFIRMED
        game.save(update_fields=["status"])
        _close_when_done(game.match_day)
        return game


def frame_finished(game):
    """``games.services`` hook: a counted frame between the two players of a match day's
    singles game still waiting (its line-ups revealed, the league's game), played at the match
    day's club, is one more frame of it. A doubles game is not played so: a game's seats are
    players, not pairs (the home captain scores it)."""
    seats = list(game.seats.all())
    if len(seats) != 2 or any(seat.player_id is None for seat in seats):
        return
    players = {seat.player_id: seat for seat in seats}
    candidates = MatchDayGame.objects.select_for_update().filter(
        match_day__status=MatchDayStatus.REVEALED,
        match_day__club_id=game.club_id,
        match_day__season__league__variant=game.variant,
        home_player_id__in=list(players),
        away_player_id__in=list(players),
        home_partner__isnull=True,  # a doubles game: two seats are not two pairs
        status=GameStatus.WAITING,
    )
    found = next(
        (row for row in candidates.order_by("match_day__date", "order") if row.game_id != game.pk),
        None,
    )
    if found is None or found.home_player_id == found.away_player_id:
        return
    home_seat = players[found.home_player_id]
    if game.result and game.result.get("draw"):
        return
    if home_seat.outcome == Outcome.WIN:
        found.home_frames += 1
    else:
        found.away_frames += 1
    found.game = game
    if found.winner is not None:
        found.status = GameStatus.CONFIRMED
    found.save(update_fields=["home_frames", "away_frames", "game", "status"])
    if found.status == GameStatus.CONFIRMED:
        _close_when_done(found.match_day)


def _close_when_done(match_day: MatchDay):
    games = list(match_day.games.all())
    if not games or any(game.status != GameStatus.CONFIRMED for game in games):
        return
    match_day.home_frames = sum(game.winner == "home" for game in games)
    match_day.away_frames = sum(game.winner == "away" for game in games)
    match_day.status = MatchDayStatus.CLOSED
    match_day.save(update_fields=["home_frames", "away_frames", "status"])
    # Played before its night (the games scored early): the table is not needed then.
    _release(match_day, only_ahead=True)


# --- postponements and forfeits -----------------------------------------------------------


def propose_date(*, match_day: MatchDay, team: Team, date: dt.date):
    """A captain proposes a new date; the other captain accepts it (``accept_date``)."""
    with transaction.atomic():
        match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
        _side(match_day, team)
        if match_day.done:
            raise LeagueError(_("This match day is over."))
        match_day.proposed_date = date
        match_day.proposed_by = team
        match_day.save(update_fields=["proposed_date", "proposed_by"])
        other = match_day.away if team.pk == match_day.home_id else match_day.home
        _tell(match_day, NoticeKind.DATE_PROPOSED, other.captain_id, date=date)
        return match_day


def accept_date(*, match_day: MatchDay, team: Team, user=None):
    """The other captain accepts the new date: the match day moves, and its table with it
    (the old booking cancelled, one booked for the new night, its old table if free)."""
    with transaction.atomic():
        match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
        _side(match_day, team)
        if match_day.proposed_date is None or match_day.done:
            raise LeagueError(_("No new date is proposed."))
        if match_day.proposed_by_id == team.pk:
            raise LeagueError(_("The other captain accepts the new date."))
        if match_day.postponed_from is None:
            match_day.postponed_from = match_day.date
        proposer = match_day.proposed_by
        match_day.date = match_day.proposed_date
        match_day.proposed_date = None
        match_day.proposed_by = None
        match_day.save(update_fields=["date", "proposed_date", "proposed_by", "postponed_from"])
        old_table = match_day.table
        _release(match_day, user=user)
        reserve_table(match_day, user=user, prefer=old_table)
        _tell(match_day, NoticeKind.DATE_ACCEPTED, proposer.captain_id, date=match_day.date)
        return match_day


def forfeit(*, match_day: MatchDay, team: Team, user=None):
    """``team`` gives the match day: its opponent wins every game, it loses the league's
    penalty points besides (``fixtures.standings``); its table's booking, still waiting, is
    cancelled (kept on the match day, for the history)."""
    with transaction.atomic():
        match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
        side = _side(match_day, team)
        if match_day.done:
            raise LeagueError(_("This match day is over."))
        games = match_day.season.league.games_per_match_day
        match_day.forfeit_by = team
        match_day.home_frames = 0 if side == "home" else games
        match_day.away_frames = games if side == "home" else 0
        match_day.status = MatchDayStatus.FORFEITED
        match_day.save(update_fields=["forfeit_by", "home_frames", "away_frames", "status"])
        _release(match_day, user=user)
        _tell(match_day, NoticeKind.FORFEIT, match_day.home.captain_id, match_day.away.captain_id)
        return match_day


# --- what the captains are told by the clock ------------------------------------------------


def remind_all(now=None):
    """The day before a match day (or on the day, if nothing told him before), each captain
    whose line-up is not locked is reminded, once for that date (idempotent: the players'
    page and the bot call it, the bot at every club in turn — a network league's match day,
    shown at every club, is reminded once: who was told is read again under the match day's
    lock before telling)."""
    today = timezone.localdate(now)
    due = MatchDay.objects.filter(
        status=MatchDayStatus.SCHEDULED,
        date__gte=today,
        date__lte=today + dt.timedelta(days=1),
    ).select_related("home", "away")
    for match_day in due:
        if _to_remind(match_day):
            with transaction.atomic():
                MatchDay.objects.select_for_update().get(pk=match_day.pk)
                captains = _to_remind(match_day)
                if captains:
                    _tell(match_day, NoticeKind.REMINDER, *captains, date=match_day.date)


def _to_remind(match_day):
    """The captains of the match day still to be reminded: their line-up not locked, not told
    of that date yet."""
    locked = set(
        match_day.line_ups.filter(locked_at__isnull=False).values_list("team_id", flat=True)
    )
    told = set(
        Notice.objects.filter(
            match_day=match_day, kind=NoticeKind.REMINDER, date=match_day.date
        ).values_list("player_id", flat=True)
    )
    return [
        team.captain_id
        for team in (match_day.home, match_day.away)
        if team.pk not in locked and team.captain_id not in told
    ]


def notice_sent(pk, now=None):
    """A notice has reached the captain through the Telegram bot."""
    Notice.objects.filter(pk=pk, sent_at__isnull=True).update(sent_at=now or timezone.now())
