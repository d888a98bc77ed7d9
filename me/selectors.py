"""Reads of the player's own page (``/me/``): his game in progress, whether he is up and
where, his next tournament match and when it should start, his sign-ups, his games awaiting
a confirmation, his bookings and his open bills; his recent games, ratings and form; his
odds against the players he meets most, with the fair handicap.

Everything is his alone: a bill shows his share and his lines, never another payer's phone.
"""

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from billing import selectors as billing_selectors
from billing.models import (
    OPEN_STATUSES,
    LineKind,
    Reservation,
    ReservationStatus,
    SplitMode,
    TableSession,
)
from games import rules
from games import selectors as game_selectors
from games.models import Game, GameStatus, Outcome, Seat, variant_label
from live import topics
from me.models import ConfirmationStatus, GameConfirmation, TelegramChat
from players.models import Player
from players.selectors import player_of
from records import forecast, handicap, stats
from season import selectors as season_selectors
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Entrant, EntryStatus, Match, MatchStatus, TournamentStatus

BOOKING_READY_MINUTES = 5  # a booked table is "ready" this long before the booking starts
RECENT_GAMES = 10
FORM_GAMES = 10
RIVALS = 3  # the players he meets most, with his odds against them
RIVALS_DAYS = 365
ADVICE_RACE = 3  # the race the fair race is proposed for (a match's default)


@dataclass
class Up:
    """The player is wanted at a table now: the page says so in large type, and notifies."""

    key: str  # the same call keeps the same key: the phone notifies once per key
    table: int
    text: str


@dataclass
class NextMatch:
    tournament: object
    item: object
    opponent: str
    table: int | None = None  # in play, or offered a table by the desk
    starts_at: object = None
    ahead: int = 0
    frame_minutes: float = 0


@dataclass
class Entry:
    tournament: object
    entrant: object
    starts_at: object = None
    check_in: tuple | None = None  # (opens, closes)
    can_check_in: bool = False


@dataclass
class BillPart:
    label: str
    amount: int  # kopecks, his part
    note: str = ""


@dataclass
class OpenBill:
    bill: object
    table: int
    share: int
    total: int
    mode: str
    lines: list = field(default_factory=list)
    parts: list = field(default_factory=list)  # "the loser pays", explained


def player_or_404(user):
    """The signed-in account's roster player; an account without one (a superuser) has no
    page of its own."""
    player = player_of(user)
    if player is None:
        raise Http404("no player of the roster has this account")
    return player


# --- what his page follows ----------------------------------------------------------------


def feed_topics(player):
    """His own topic and those of the tournaments he is entered in that are not over."""
    tournament_ids = Entrant.objects.filter(
        player=player, tournament__status__in=[TournamentStatus.DRAFT, TournamentStatus.RUNNING]
    ).values_list("tournament_id", flat=True)
    return (topics.player(player.pk), *(topics.tournament(pk) for pk in sorted(tournament_ids)))


# --- now ------------------------------------------------------------------------------------


def game_in_progress(player):
    """His seat in a game in progress (with the game and its table), or None."""
    return game_selectors.seats_in_play([player.pk]).first()


def match_in_progress(player):
    """His match in progress (a tournament's called match among them), or None."""
    return (
        Match.objects.filter(status=MatchStatus.IN_PROGRESS)
        .filter(Q(player_a=player) | Q(player_b=player))
        .select_related("table", "tournament", "player_a", "player_b")
        .first()
    )


def next_matches(player, now=None):
    """His next match in every running tournament he is still in, with its table (in play,
    or offered by the desk) and, while it waits, its predicted start."""
    now = now or timezone.now()
    found = []
    entries = Entrant.objects.filter(
        player=player, seed__isnull=False, tournament__status=TournamentStatus.RUNNING
    ).select_related("tournament")
    for entrant in entries:
        view = tournament_selectors.tournament_view(entrant.tournament)
        mine = [
            item
            for item in view.items
            if entrant.seed in (item.seed_a, item.seed_b)
            and item.status in ("ready", "held", "waiting", "in_progress")
            and item.shown
        ]
        if not mine:
            continue
        order = {"in_progress": 0, "ready": 1, "held": 2, "waiting": 3}
        item = min(mine, key=lambda i: (order[i.status], i.spec.number))
        opponent = item.name_b if item.seed_a == entrant.seed else item.name_a
        nxt = NextMatch(entrant.tournament, item, opponent or "…")
        if item.status == "in_progress":
            nxt.table = item.table_number
        else:
            free = list(tournament_selectors.free_tables_for_matches())
            tournament_selectors.mark_busy(view)
            for table, offered in tournament_selectors.offers(free, view.queue):
                if offered.spec.key == item.spec.key:
                    nxt.table = table.number
            predicted = tournament_selectors.predicted_start(view, item.spec.key, len(free), now)
            if predicted is not None:
                nxt.starts_at, nxt.ahead, nxt.frame_minutes = predicted
        found.append(nxt)
    return found


def phone_digits(phone):
    digits = "".join(char for char in phone or "" if char.isdigit())
    return digits[-10:]


def players_with_phone(phone):
    """The roster players whose phone is ``phone`` (written any way: its last ten digits), as
    their bookings are found (``bookings``)."""
    digits = phone_digits(phone)
    if len(digits) < 7:
        return []
    rows = Player.objects.filter(phone__contains=digits[-2:])  # then the digits exactly
    return [player for player in rows if phone_digits(player.phone) == digits]


def bookings(player, now=None):
    """His bookings still ahead (the desk books by name and phone: those with his phone)."""
    digits = phone_digits(player.phone)
    if len(digits) < 7:
        return []
    now = now or timezone.now()
    rows = Reservation.objects.filter(
        status__in=[ReservationStatus.BOOKED, ReservationStatus.CLAIMED], ends_at__gt=now
    ).select_related("table")
    return [
        booking for booking in rows.order_by("starts_at") if phone_digits(booking.phone) == digits
    ]


def table_ready(table_id):
    """A booked table is ready when nothing is played on it and its clock is not running."""
    if Game.objects.in_progress_on(table_id).exists():
        return False
    return not TableSession.objects.filter(table_id=table_id, status__in=OPEN_STATUSES).exists()


def up_now(player, matches=None, booked=None, now=None, seat=None):
    """Where he is wanted now, if anywhere: his match called to a table (not begun yet), his
    next match offered a table by the desk, or — unless he is playing (a game in progress,
    ``seat`` if read already, or a match under way) — a table he booked that is ready."""
    now = now or timezone.now()
    match = match_in_progress(player)
    playing = match is not None or (seat or game_in_progress(player)) is not None
    if match is not None and match.table_id:
        frame = match.frames.order_by("-number").select_related("game").first()
        if frame is not None and frame.game.last_seq == 0 and frame.number == 1:
            return Up(
                f"match-{match.pk}",
                match.table.number,
                gettext("Your match is called: table %(number)s") % {"number": match.table.number},
            )
    for nxt in matches if matches is not None else next_matches(player, now):
        if nxt.item.status == "ready" and nxt.table:
            return Up(
                f"offer-{nxt.tournament.pk}-{nxt.item.spec.key}-{nxt.table}",
                nxt.table,
                gettext("You're up next: table %(number)s") % {"number": nxt.table},
            )
    if playing:  # his booked table waits for him: he is not wanted there yet
        return None
    for booking in booked if booked is not None else bookings(player, now):
        if (
            booking.status == ReservationStatus.BOOKED
            and booking.starts_at - timedelta(minutes=BOOKING_READY_MINUTES) <= now
            and table_ready(booking.table_id)
        ):
            return Up(
                f"booking-{booking.pk}",
                booking.table.number,
                gettext("Your table is ready: table %(number)s") % {"number": booking.table.number},
            )
    return None


def entries(player, now=None):
    """His sign-ups for tournaments not drawn yet, with the check-in."""
    now = now or timezone.now()
    rows = Entrant.objects.filter(
        player=player, tournament__status=TournamentStatus.DRAFT
    ).select_related("tournament")
    found = []
    for entrant in rows.order_by("tournament__date"):
        tournament = entrant.tournament
        window = tournament_services.check_in_window(tournament)
        found.append(
            Entry(
                tournament,
                entrant,
                tournament_services.starts_at(tournament),
                window,
                can_check_in=bool(
                    window
                    and window[0] <= now
                    and entrant.status == EntryStatus.ENTERED
                    and entrant.checked_in_at is None
                ),
            )
        )
    return found


def confirmations(player):
    """His games scored without a marker that are not settled: (confirmation, his part):
    "confirm" (he is the opponent of a game over), "waiting" (for the opponent), "disputed"."""
    rows = (
        GameConfirmation.objects.filter(
            Q(started_by=player) | Q(opponent=player),
            status__in=[ConfirmationStatus.PENDING, ConfirmationStatus.DISPUTED],
            game__status=GameStatus.UNCONFIRMED,
        )
        .select_related("game", "game__table", "started_by", "opponent")
        .prefetch_related("game__seats__player")
    )
    found = []
    for confirmation in rows:
        if confirmation.status == ConfirmationStatus.DISPUTED:
            part = "disputed"
        elif confirmation.opponent_id == player.pk:
            part = "confirm"
        else:
            part = "waiting"
        found.append((confirmation, part))
    return found


def open_bills(player):
    """His unpaid bills: his share of each, the lines assigned to him, and for "the loser
    pays" the games whose time he pays (lost), shares (a draw, or not confirmed) or that
    everyone shares (the time between games)."""
    found = []
    bills = billing_selectors.unpaid_bills().filter(payers__player=player).distinct()
    for bill in bills:
        summary = billing_selectors.bill_summary(bill)
        payers = [payer for payer, _share in summary.shares]
        mine = [payer for payer in payers if payer.player_id == player.pk]
        if not mine:
            continue
        me = mine[0]
        share = dict((payer.pk, amount) for payer, amount in summary.shares)[me.pk]
        lines = [line for line in summary.lines if line.payer_id == me.pk]
        if bill.split_mode == SplitMode.LOSER:  # the time is in his parts, not a line of his
            lines = [line for line in lines if line.kind != LineKind.TIME]
        # A bill without a table: a tournament's entry fee (its title says so).
        table = bill.session.table.number if bill.session_id else None
        entry = OpenBill(bill, table, share, summary.total, bill.split_mode)
        entry.lines = lines
        if bill.split_mode == SplitMode.LOSER:
            entry.parts = _loser_parts(summary, me)
        found.append(entry)
    return found


def _loser_parts(summary, me):
    """His part of each part of the session's time, as the bill's "the loser pays" hands it
    out (``billing.selectors``' frame rows: each part's share of the time charge, and what
    each payer pays of it), then his part of the lines nobody takes: with his own lines,
    they add up to his share."""
    parts = []
    for row in summary.frames:
        game = row.about.game
        mine = row.shares.get(me.pk, 0)
        if game is None:
            label, note = gettext("Time between games"), gettext("between games: shared")
        else:
            local = timezone.localtime(row.about.start or game.started_at)
            label = gettext("Game at %(time)s") % {"time": local.strftime("%H:%M")}
            lost = [seat for seat in game.seats.all() if seat.outcome == Outcome.LOSS]
            if me.pk not in row.players and mine:
                note = gettext("its players are not on the bill: shared")
            elif me.pk not in row.players:
                note = gettext("not your game: its players pay")
            elif game.status == GameStatus.UNCONFIRMED:
                note = gettext("not confirmed yet: shared")
            elif game.status != GameStatus.FINISHED or not lost:
                note = gettext("no loser: shared")
            elif mine:
                note = gettext("you lost: you pay")
            else:
                note = gettext("you won: the loser pays")
        parts.append(BillPart(label, mine, note))
    shared = summary.shared.get(me.pk, 0)
    if shared:
        parts.append(BillPart(gettext("The bar for everyone"), shared, gettext("shared equally")))
    return parts


# --- after the game -----------------------------------------------------------------------


def recent_games(player, limit=RECENT_GAMES):
    """His newest games (any status) with their opponents and what became of them (a game
    scored by its players that the admins did not uphold: «не засчитана», not abandoned):
    each links to its page, where the game can be replayed stroke by stroke."""
    seats = list(stats.player_games(player)[:limit])
    voided = set(
        GameConfirmation.objects.filter(
            game_id__in=[seat.game_id for seat in seats], status=ConfirmationStatus.VOIDED
        ).values_list("game_id", flat=True)
    )
    return [
        {
            "seat": seat,
            "game": seat.game,
            "opponents": [s for s in seat.game.seats.all() if s.position != seat.position],
            "status": ConfirmationStatus.VOIDED.label
            if seat.game_id in voided
            else seat.game.get_status_display(),
        }
        for seat in seats
    ]


def form(player, limit=FORM_GAMES):
    """His last finished (counted) games' outcomes, newest first: "W", "L", "D"."""
    letters = {Outcome.WIN: "W", Outcome.LOSS: "L", Outcome.DRAW: "D"}
    outcomes = (
        Seat.objects.filter(player=player, game__status=GameStatus.FINISHED)
        .order_by("-game__finished_at", "-game_id")
        .values_list("outcome", flat=True)[:limit]
    )
    return [letters.get(outcome, "") for outcome in outcomes]


# --- his odds against the players he meets most (records.forecast) ---------------------------


@dataclass
class Rival:
    """A player he has often played a game against: the odds of a frame between them, and
    the fair handicap — the game's own head start for the pyramid games, else the fair race
    to ``ADVICE_RACE`` frames — in words, with the odds it leaves."""

    variant: str
    variant_name: str
    opponent: object
    games: int
    odds: object  # records.forecast.Odds: his (A) against the opponent's (B)
    advice: str
    advice_chances: object  # records.forecast.Chances: the odds the advice leaves
    advice_label: str  # what they are of: "With 8–7", "The fair race, 3 vs 2"


def rivals(player, limit=RIVALS, now=None):
    """The players he has played most in the last ``RIVALS_DAYS`` days (a game of two, per
    game), with his odds against each and the fair handicap."""
    since = (now or timezone.now()) - timedelta(days=RIVALS_DAYS)
    played = [v.key for v in tournament_selectors.match_variants()]
    met = (
        Seat.objects.filter(
            game__seats__player=player,
            game__status=GameStatus.FINISHED,
            game__finished_at__gte=since,
            game__variant__in=played,
            player__isnull=False,
        )
        .exclude(player=player)
        .values_list("player_id", "game__variant")
        .annotate(games=Count("id"))
        .order_by("-games", "player_id")[:limit]
    )
    met = list(met)
    people = Player.everywhere.in_bulk([player_id for player_id, _variant, _games in met])
    found = []
    for player_id, variant, games in met:
        opponent = people.get(player_id)
        if opponent is None:
            continue
        me_side, them = forecast.side(variant, player), forecast.side(variant, opponent)
        if rules.get_variant(variant).handicap_advice in forecast.HEAD_START_GAMES:
            odds = forecast.game_odds(variant, me_side, them)
            hint = handicap.suggest_head_start(variant, player, opponent)
            advice = (hint.summary, hint.chances, hint.label)
        else:
            odds = forecast.match_odds(variant, me_side, them, ADVICE_RACE)
            advice = (
                handicap.fair_race_sentence(odds),
                odds.fair_chances,
                handicap.fair_race_label(odds.fair),
            )
        found.append(Rival(variant, variant_label(variant), opponent, games, odds, *advice))
    return found


def telegram_chat(player):
    return TelegramChat.objects.filter(player=player).first()


def series_standing(player):
    """(series, his line, what he needs: ``season.standings.Outlook``) of every series of
    this club or the network he has points in and that is not over."""
    return season_selectors.player_series(player)
