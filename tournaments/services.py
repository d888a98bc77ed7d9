"""Writes for matches and tournaments.

A match's frames are started with ``games.services.start_game`` (seat 1 breaks) and
finished on the marker's console like any game; when a frame is finished
(``frame_closed``, which ``games.services.finish_game`` calls inside its transaction) the
match counts its frames and ends by itself once a side has reached the race. Nothing of the
match is stored that its frames do not show, apart from that closing snapshot and the
players' skills as it started (``Match.skills``, which its odds read).
"""

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from billing import services as billing_services
from games import rules
from games import services as game_services
from games.i18n import render_message
from games.models import Game, GameStatus
from live import publish_on_commit, topics
from players.models import Player
from records import forecast, rating
from tables.models import Table
from tournaments import brackets, funds, selectors
from tournaments.models import (
    MAX_RACE,
    AbsentPolicy,
    BreakRule,
    Entrant,
    EntryStatus,
    Frame,
    Handicap,
    Match,
    MatchStatus,
    ResultKind,
    Seeding,
    Tournament,
    TournamentStatus,
)

logger = logging.getLogger(__name__)


class MatchError(game_services.GameError):
    """A write the match's state does not allow; ``message`` is translated."""

    message = _("This is not possible now.")


def other(side):
    return "b" if side == "a" else "a"


def flip_seats(variant, settings):
    """``settings`` with every choice of seat (who gives the handicap, who plays with the
    cue) swapped: the same settings for the other player in seat 1."""
    settings = dict(settings)
    for field in rules.get_variant(variant).settings_fields:
        if field.choices == rules.SEAT_CHOICES and field.name in settings:
            settings[field.name] = "1" if str(settings[field.name]) == "0" else "0"
    return settings


def frame_settings(match, breaker):
    """The match's settings for a frame where ``breaker`` sits in seat 1: they are written
    for A in seat 1, so they flip when B breaks."""
    return flip_seats(match.variant, match.settings) if breaker == "b" else dict(match.settings)


def skills_at_start(variant, a, b):
    """The two players' skills as a match starts (``Match.skills``): what its odds read. A
    rating that cannot be read never stops a match: its odds then read the skills of the
    moment (logged)."""
    try:
        with transaction.atomic():  # a savepoint: a failed read leaves the start's writes be
            return {
                key: forecast.snapshot(forecast.side(variant, seat).skill)
                for key, seat in (("a", a), ("b", b))
            }
    except Exception:  # noqa: BLE001 - the match matters more than its odds
        logger.exception("Skills not read for a match of %s", variant)
        return {}


def _side(player, guest):
    return player if player is not None else guest


def _seat(match, side):
    player = match.player_a if side == "a" else match.player_b
    guest = match.guest_a if side == "a" else match.guest_b
    return _side(player, guest)


def check_match_request(variant, a, b, race_to, head_start_a=0, head_start_b=0):
    """Errors (a dict of field → messages) in what a match is asked to be."""
    errors = {}
    if variant not in {v.key for v in selectors.match_variants()}:
        errors["variant"] = [gettext("A match is played in a two-player game.")]
    for key, seat in (("player_a", a), ("player_b", b)):
        if isinstance(seat, Player):
            if not seat.is_active:
                errors[key] = [gettext("%(name)s is not on the active roster.") % {"name": seat}]
        elif not (seat or "").strip():
            errors[key] = [gettext("Choose a player or type a guest's name.")]
    if isinstance(a, Player) and isinstance(b, Player) and a.pk == b.pk:
        errors["player_b"] = [gettext("A player cannot play himself.")]
    if not isinstance(race_to, int) or not 1 <= race_to <= MAX_RACE:
        errors["race_to"] = [
            gettext("A race is to %(low)d … %(high)d frames.") % {"low": 1, "high": MAX_RACE}
        ]
    elif max(head_start_a, head_start_b) >= race_to or min(head_start_a, head_start_b) < 0:
        errors["head_start"] = [gettext("A head start must be fewer frames than the race.")]
    return errors


def start_match(
    *,
    table,
    variant,
    a,
    b,
    race_to,
    marker,
    first_break="a",
    break_rule=BreakRule.ALTERNATE,
    settings=None,
    head_start_a=0,
    head_start_b=0,
    tournament=None,
    bracket_key="",
    entrant_a=None,
    entrant_b=None,
):
    """Starts a match and its first frame on a free table. ``a``/``b``: Player or guest name.

    Raises ValidationError (keyed by field) and creates nothing when anything is wrong:
    the table busy, a player already playing elsewhere, a bad race or game.
    """
    errors = check_match_request(variant, a, b, race_to, head_start_a, head_start_b)
    if first_break not in ("a", "b"):
        errors["first_break"] = [gettext("Choose who breaks first.")]
    if break_rule not in BreakRule.values:
        errors["break_rule"] = [gettext("Choose how the break goes on.")]
    if errors:
        raise ValidationError(errors)
    skills = skills_at_start(variant, a, b)
    try:
        with transaction.atomic():
            Table.objects.select_for_update().filter(pk=table.pk).first()
            if Match.objects.filter(table=table, status=MatchStatus.IN_PROGRESS).exists():
                raise ValidationError({"table": game_services.BUSY_TABLE})
            busy = selectors.busy_player_ids()
            for key, seat in (("player_a", a), ("player_b", b)):
                if isinstance(seat, Player) and seat.pk in busy:
                    raise ValidationError(
                        {key: gettext("%(name)s is playing on another table.") % {"name": seat}}
                    )
            match = Match.objects.create(
                table=table,
                variant=variant,
                settings=dict(settings or {}),
                race_to=race_to,
                head_start_a=head_start_a,
                head_start_b=head_start_b,
                skills=skills,
                first_break=first_break,
                break_rule=break_rule,
                player_a=a if isinstance(a, Player) else None,
                guest_a="" if isinstance(a, Player) else a.strip(),
                player_b=b if isinstance(b, Player) else None,
                guest_b="" if isinstance(b, Player) else b.strip(),
                marker=marker,
                tournament=tournament,
                bracket_key=bracket_key,
                entrant_a=entrant_a,
                entrant_b=entrant_b,
            )
            _start_frame(match, first_break, marker)
    except IntegrityError:
        raise ValidationError({"table": game_services.BUSY_TABLE}) from None
    return match


def _start_frame(match, breaker, marker):
    game = game_services.start_game(
        table=match.table,
        variant=match.variant,
        settings=frame_settings(match, breaker),
        seats=[_seat(match, breaker), _seat(match, other(breaker))],
        marker=marker,
    )
    number = Frame.objects.filter(match=match).count() + 1
    Frame.objects.create(match=match, game=game, number=number, breaker=breaker)
    selectors.remember_match_of_game(game, match.pk)
    return game


def next_breaker(match, last_frame):
    if match.break_rule == BreakRule.WINNER:
        return selectors.frame_winner(last_frame) or last_frame.breaker
    return other(last_frame.breaker)


def next_frame(*, match, marker):
    """Starts the next frame of a match on its table; returns its Game.

    Refused (MatchError) when the match is over or its frame in play is not finished.
    """
    with transaction.atomic():
        locked = (
            Match.objects.select_for_update(of=("self",)).select_related("table").get(pk=match.pk)
        )
        _board_changes(locked.tournament_id)
        if locked.status != MatchStatus.IN_PROGRESS:
            raise MatchError(_("This match is over."))
        frames = selectors.frames_of(locked)
        last = frames[-1] if frames else None
        if last is not None and last.game.status == GameStatus.IN_PROGRESS:
            raise MatchError(_("The frame in play is not finished yet."))
        breaker = next_breaker(locked, last) if last else locked.first_break
        try:
            return _start_frame(locked, breaker, marker)
        except ValidationError as error:
            raise MatchError(" ".join(error.messages)) from None


def finish_frame_and_continue(*, game, expected_seq, marker):
    """The marker's one tap at the end of a frame: saves it and starts the next one unless
    the match is over. Returns (match, next game or None)."""
    with transaction.atomic():
        finished = game_services.finish_game(game=game, user=marker, expected_seq=expected_seq)
        match = selectors.match_of_game(finished)
        if match is None:
            raise MatchError(_("This game is not a frame of a match."))
        match.refresh_from_db()
        if match.status != MatchStatus.IN_PROGRESS:
            return match, None
        return match, next_frame(match=match, marker=marker)


def frame_closed(game):
    """Called by ``finish_game`` for every game finished: a frame's match closes at N."""
    frame = Frame.objects.filter(game_id=game.pk).select_related("match").first()
    if frame is None:
        return
    match = Match.objects.select_for_update().get(pk=frame.match_id)
    _board_changes(match.tournament_id)
    if match.status != MatchStatus.IN_PROGRESS:
        return
    score = selectors.match_score(match)
    winner = selectors.decided(match, score)
    if winner is None:
        return
    match.score_a, match.score_b = score
    match.winner = winner
    match.kind = ResultKind.PLAYED
    match.status = MatchStatus.FINISHED
    match.finished_at = timezone.now()
    match.save(update_fields=["score_a", "score_b", "winner", "kind", "status", "finished_at"])
    if match.tournament_id:
        _settle_tournament(match.tournament)


def reopen_last_frame(*, match, user):
    """Takes back the end of a finished match: its last frame is in progress again (the
    marker can then undo strokes in it) and the match with it. For a tournament match the
    bracket rolls back with it, refused with the reason if a later match depends on it."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        _board_changes(locked.tournament_id)
        if locked.status != MatchStatus.FINISHED or locked.kind != ResultKind.PLAYED:
            raise MatchError(_("Only a finished, played match can be reopened."))
        if locked.tournament_id:
            check_undo(locked)
        last = selectors.current_frame(locked)
        if last is None:
            raise MatchError
        try:
            game_services.reopen_game(game=last.game, user=user)
        except game_services.GameError as error:
            raise MatchError(error.message) from None
        locked.status = MatchStatus.IN_PROGRESS
        locked.finished_at = None
        locked.score_a = locked.score_b = None
        locked.winner = ""
        locked.save(update_fields=["status", "finished_at", "score_a", "score_b", "winner"])
        if locked.tournament_id:
            Tournament.objects.filter(pk=locked.tournament_id).update(
                status=TournamentStatus.RUNNING
            )
    return locked


def abandon_match(*, match, user):
    """Stops a match without a result (its frame in play is abandoned; the table is free)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        _board_changes(locked.tournament_id)
        if locked.status != MatchStatus.IN_PROGRESS:
            raise MatchError(_("This match is over."))
        for game in Game.objects.filter(match_frame__match=locked, status=GameStatus.IN_PROGRESS):
            game_services.abandon_game(game=game, user=user)
        locked.status = MatchStatus.ABANDONED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at"])
    return locked


def check_undo(match):
    """Raises MatchError with the bracket's reason if a later match depends on ``match``."""
    tournament = match.tournament
    matches = selectors.tournament_matches(tournament)
    started = [k for k, m in matches.items() if m.status == MatchStatus.IN_PROGRESS]
    try:
        brackets.check_undo(
            selectors.bracket_of(tournament),
            selectors.results_of(matches),
            match.bracket_key,
            started,
        )
    except brackets.BracketError as error:
        raise MatchError(render_message(error.message)) from None


# --- tournaments ------------------------------------------------------------------------------


class TournamentError(MatchError):
    pass


def _tournament_locked(tournament):
    """The tournament's row, locked for a write; its board is told once the write commits."""
    _board_changes(tournament.pk)
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _board_changes(tournament_id):
    """Every write of a tournament or of one of its matches locks its row first and calls
    this: the tournament's TV board is pushed (``live``) once the transaction commits."""
    if tournament_id is not None:
        publish_on_commit(topics.tournament(tournament_id))


def add_entrant(*, tournament, player=None, guest_name=""):
    """Enters a roster player or a guest while entries are open."""
    with transaction.atomic():
        locked = _tournament_locked(tournament)
        if locked.status != TournamentStatus.DRAFT:
            raise TournamentError(_("Entries are closed: the tournament has started."))
        guest_name = (guest_name or "").strip()
        if player is None and not guest_name:
            raise TournamentError(_("Choose a player or type a guest's name."))
        if player is not None and not player.is_active:
            raise TournamentError(
                gettext("%(name)s is not on the active roster.") % {"name": player}
            )
        if player is not None and locked.entrants.filter(player=player).exists():
            raise TournamentError(_("This player is already entered."))
        if locked.entrants.count() >= brackets.MAX_ENTRANTS:
            raise TournamentError(
                gettext("A tournament takes at most %(n)d entrants.") % {"n": brackets.MAX_ENTRANTS}
            )
        if len(guest_name) > 150:
            raise TournamentError(_("A guest's name is too long."))
        return Entrant.objects.create(
            tournament=locked, player=player, guest_name="" if player else guest_name
        )


# --- players sign themselves up (``me``), and check in ----------------------------------------


def entry_count(tournament):
    """Entrants entered or awaiting approval: what the sign-up limit counts."""
    return tournament.entrants.exclude(status=EntryStatus.DROPPED).count()


def sign_up_refusal(tournament, now=None):
    """Why players cannot sign up now (translated), or None."""
    now = now or timezone.now()
    if tournament.status != TournamentStatus.DRAFT:
        return _("Entries are closed: the tournament has started.")
    if not tournament.registration_open:
        return _("Players do not sign up for this tournament themselves: ask the desk.")
    if tournament.registration_deadline and now >= tournament.registration_deadline:
        return _("The sign-up deadline has passed.")
    limit = tournament.registration_limit
    if limit and entry_count(tournament) >= limit:
        return _("The tournament is full.")
    return None


def sign_up(*, tournament, player):
    """The player enters himself (awaiting approval if the tournament asks for it)."""
    with transaction.atomic():
        locked = _tournament_locked(tournament)
        refusal = sign_up_refusal(locked)
        if refusal is not None:
            raise TournamentError(refusal)
        if not player.is_active:
            raise TournamentError(
                gettext("%(name)s is not on the active roster.") % {"name": player}
            )
        if locked.entrants.filter(player=player).exists():
            raise TournamentError(_("You are already signed up."))
        if locked.entrants.count() >= brackets.MAX_ENTRANTS:
            raise TournamentError(_("The tournament is full."))
        status = EntryStatus.PENDING if locked.registration_approval else EntryStatus.ENTERED
        return Entrant.objects.create(
            tournament=locked, player=player, status=status, signed_up_at=timezone.now()
        )


def withdraw_sign_up(*, tournament, player):
    """The player takes his entry back, while the bracket is not drawn."""
    with transaction.atomic():
        locked = _tournament_locked(tournament)
        if locked.status != TournamentStatus.DRAFT:
            raise TournamentError(_("The bracket is drawn: ask the desk to withdraw you."))
        if not Entrant.objects.filter(tournament=locked, player=player).delete()[0]:
            raise TournamentError(_("You are not signed up."))


def approve_entrant(*, entrant):
    with transaction.atomic():
        locked = _tournament_locked(entrant.tournament)
        if locked.status != TournamentStatus.DRAFT:
            raise TournamentError(_("Entries are closed: the tournament has started."))
        Entrant.objects.filter(pk=entrant.pk, status=EntryStatus.PENDING).update(
            status=EntryStatus.ENTERED
        )


def starts_at(tournament):
    """The tournament's start as an aware moment in the club's time zone, or None."""
    if tournament.start_time is None:
        return None
    return timezone.make_aware(datetime.combine(tournament.date, tournament.start_time))


def check_in_window(tournament):
    """(opens, closes) of the check-in, or None when the tournament has none."""
    start = starts_at(tournament)
    if not tournament.checkin_minutes or start is None:
        return None
    return start - timedelta(minutes=tournament.checkin_minutes), start


def check_in(*, entrant, by_desk=False, now=None):
    """ "I am here": the entrant checks in within the window (the desk at any time before
    the draw)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _tournament_locked(entrant.tournament)
        if locked.status != TournamentStatus.DRAFT:
            raise TournamentError(_("The tournament has started."))
        window = check_in_window(locked)
        if window is None:
            raise TournamentError(_("This tournament has no check-in."))
        if not by_desk and not window[0] <= now:
            raise TournamentError(
                gettext("The check-in opens at %(time)s.")
                % {"time": timezone.localtime(window[0]).strftime("%H:%M")}
            )
        current = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if current.status != EntryStatus.ENTERED:
            raise TournamentError(_("This entry is not approved."))
        if current.checked_in_at is None:
            current.checked_in_at = now
            current.save(update_fields=["checked_in_at"])
        return current


def _close_entries(tournament):
    """At the start: sign-ups never approved leave; with a check-in, whoever has not checked
    in is left out of the draw (the reason shown on the tournament's page) or drawn as absent
    (his first match a walkover), as the tournament says."""
    entrants = tournament.entrants
    entrants.filter(status=EntryStatus.PENDING).delete()
    if check_in_window(tournament) is None:
        return
    missing = entrants.filter(status=EntryStatus.ENTERED, checked_in_at__isnull=True)
    if tournament.absent_policy == AbsentPolicy.WALKOVER:
        missing.update(absent=True)
    else:
        missing.update(status=EntryStatus.DROPPED)


def remove_entrant(*, entrant):
    with transaction.atomic():
        locked = _tournament_locked(entrant.tournament)
        if locked.status != TournamentStatus.DRAFT:
            raise TournamentError(_("Entries are closed: the tournament has started."))
        Entrant.objects.filter(pk=entrant.pk).delete()


def entrant_rating(ratings, entrant):
    """An entrant's rating in the tournament's game (a guest: the starting rating)."""
    return ratings.rating(entrant.player_id) if entrant.player_id else rating.INITIAL


def stronger_side(tournament, entrant_a, entrant_b):
    """ "a" or "b": the entrant with the higher rating in the tournament's game; on equal
    ratings the better seed. Returns (side, whether the ratings differ)."""
    ratings = rating.ratings_for(tournament.variant)
    value_a, value_b = entrant_rating(ratings, entrant_a), entrant_rating(ratings, entrant_b)
    if value_a != value_b:
        return ("a" if value_a > value_b else "b"), True
    return ("a" if (entrant_a.seed or 0) <= (entrant_b.seed or 0) else "b"), False


def handicap_terms(tournament, entrant_a, entrant_b, race_to):
    """What a tournament's handicap makes of one of its matches: the keyword arguments
    ``start_match`` takes for it (settings, head starts).

    No handicap: the tournament's settings as they are, a choice of seat for player A. The
    game's own handicap: its settings are written for the stronger player in seat 1, so they
    flip when B is the stronger. A head start: the weaker player (only when the ratings
    differ) counts ``tournament.head_start`` frames won, never the whole race.
    """
    terms = {"settings": dict(tournament.settings), "head_start_a": 0, "head_start_b": 0}
    if tournament.handicap == Handicap.NONE:
        return terms
    stronger, differ = stronger_side(tournament, entrant_a, entrant_b)
    if tournament.handicap == Handicap.GAME and stronger == "b":
        terms["settings"] = flip_seats(tournament.variant, tournament.settings)
    elif tournament.handicap == Handicap.HEAD_START and differ:
        weaker = "b" if stronger == "a" else "a"
        terms[f"head_start_{weaker}"] = min(tournament.head_start, race_to - 1)
    return terms


def seed_order(tournament, entrants, method, manual=None, draw_seed=None):
    """The entrants in seed order (1 first) by rating, by hand or by the draw's number."""
    if method == Seeding.MANUAL:
        order = {pk: position for position, pk in enumerate(manual or [])}
        if sorted(order) != sorted(e.pk for e in entrants):
            raise TournamentError(_("Give every entrant a different seed."))
        return sorted(entrants, key=lambda e: order[e.pk])
    if method == Seeding.DRAW:
        ordered = sorted(entrants, key=lambda e: e.pk)
        return [ordered[i] for i in brackets.random_draw(len(ordered), draw_seed)]
    ratings = rating.ratings_for(tournament.variant)
    return sorted(entrants, key=lambda e: (-entrant_rating(ratings, e), e.name))


def start_tournament(*, tournament, method, manual=None, draw_seed=None):
    """Closes the entries: seeds everyone and draws the bracket. Refused while it cannot be
    drawn (too few or too many entrants, groups that do not fit)."""
    with transaction.atomic():
        locked = _tournament_locked(tournament)
        if locked.status != TournamentStatus.DRAFT:
            raise TournamentError(_("The tournament has already started."))
        _close_entries(locked)
        entrants = list(locked.entrants.filter(status=EntryStatus.ENTERED).select_related("player"))
        try:
            brackets.build(locked.format, len(entrants), locked.groups, locked.advance)
        except brackets.BracketError as error:
            raise TournamentError(render_message(error.message)) from None
        if method == Seeding.DRAW and draw_seed is None:
            draw_seed = secrets.randbelow(1_000_000)
        ordered = seed_order(locked, entrants, method, manual, draw_seed)
        for seed, entrant in enumerate(ordered, start=1):
            Entrant.objects.filter(pk=entrant.pk).update(seed=seed)
        locked.seeding = method
        locked.draw_seed = draw_seed if method == Seeding.DRAW else None
        locked.status = TournamentStatus.RUNNING
        locked.save(update_fields=["seeding", "draw_seed", "status"])
    return locked


@dataclass
class ReadyMatch:
    """A ready match of a running tournament, its row locked (``_ready_match``)."""

    tournament: Tournament
    view: object  # selectors.TournamentView
    item: object  # selectors.Item
    entrant_a: Entrant
    entrant_b: Entrant

    @property
    def race_to(self):
        return self.tournament.race_for(self.item.spec.bracket)

    def match_fields(self, key):
        """What every Match of this bracket slot is created with."""
        a, b = self.entrant_a, self.entrant_b
        return {
            "variant": self.tournament.variant,
            "race_to": self.race_to,
            "tournament": self.tournament,
            "bracket_key": key,
            "entrant_a": a,
            "entrant_b": b,
        }


def _ready_match(tournament, key):
    """Locks the running tournament and finds its match ``key``, which must be ready and
    not started yet (inside the caller's transaction)."""
    locked = _tournament_locked(tournament)
    if locked.status != TournamentStatus.RUNNING:
        raise TournamentError(_("The tournament is not running."))
    view = selectors.tournament_view(locked)
    item = view.by_key.get(key)
    if item is None:
        raise TournamentError(_("No such match in this tournament."))
    if item.status != "ready":
        raise TournamentError(_("This match is not ready to be played."))
    entrants = selectors.entrants_by_pk(view.entrants[item.seed_a], view.entrants[item.seed_b])
    return ReadyMatch(locked, view, item, *entrants)


def start_tournament_match(*, tournament, key, table, marker):
    """Calls a ready match to a free table: its first frame starts there at once, so the
    marker's table page opens its console. Nobody plays two matches at once."""
    with transaction.atomic():
        ready = _ready_match(tournament, key)
        item = ready.item
        playing = [m for m in ready.view.items if m.status == "in_progress"]
        if {item.seed_a, item.seed_b} & {seed for m in playing for seed in (m.seed_a, m.seed_b)}:
            raise TournamentError(_("A player of this match is playing another one."))
        a, b = ready.entrant_a, ready.entrant_b
        fields = ready.match_fields(key)
        try:
            # (Its first frame's start tells the players' pages: ``me``'s games hook.)
            return start_match(
                table=table,
                a=a.player or a.guest_name,
                b=b.player or b.guest_name,
                marker=marker,
                break_rule=ready.tournament.break_rule,
                **handicap_terms(ready.tournament, a, b, ready.race_to),
                **fields,
            )
        except ValidationError as error:
            raise TournamentError(" ".join(error.messages)) from None


def record_walkover(*, tournament, key, winner, kind=ResultKind.WALKOVER, user=None):
    """A ready match decided without play (неявка): no frames, no rating change."""
    if winner not in ("a", "b") or kind not in (ResultKind.WALKOVER, ResultKind.WITHDRAWAL):
        raise TournamentError(_("Choose who goes through."))
    with transaction.atomic():
        ready = _ready_match(tournament, key)
        a, b = ready.entrant_a, ready.entrant_b
        match = Match.objects.create(
            player_a=a.player,
            guest_a=a.guest_name,
            player_b=b.player,
            guest_b=b.guest_name,
            status=MatchStatus.FINISHED,
            finished_at=timezone.now(),
            score_a=0,
            score_b=0,
            winner=winner,
            kind=kind,
            marker=user,
            **ready.match_fields(key),
        )
        _settle_tournament(ready.tournament)
    return match


def undo_walkover(*, match):
    """Takes a walkover back (the match is ready again) if nothing depends on it yet."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        _board_changes(locked.tournament_id)
        if locked.status != MatchStatus.FINISHED or locked.kind == ResultKind.PLAYED:
            raise TournamentError(_("This is not a walkover."))
        check_undo(locked)
        locked.status = MatchStatus.ABANDONED
        locked.save(update_fields=["status"])
        Tournament.objects.filter(pk=locked.tournament_id).update(status=TournamentStatus.RUNNING)


def withdraw(*, entrant):
    """The entrant leaves: every later match of his is lost by withdrawal (derived)."""
    with transaction.atomic():
        locked = _tournament_locked(entrant.tournament)
        if (
            Match.objects.filter(tournament=locked, status=MatchStatus.IN_PROGRESS)
            .filter(Q(entrant_a=entrant) | Q(entrant_b=entrant))
            .exists()
        ):
            raise TournamentError(
                _("This entrant is playing a match now: finish or abandon it first.")
            )
        Entrant.objects.filter(pk=entrant.pk).update(withdrawn=True)
        _settle_tournament(locked)


def set_hold(*, tournament, key, held):
    """Holds a match back from the queue (or lets it go)."""
    with transaction.atomic():
        locked = _tournament_locked(tournament)
        if locked.status != TournamentStatus.RUNNING:
            raise TournamentError(_("The tournament is not running."))
        if key not in {m.key for m in selectors.bracket_of(locked).matches}:
            raise TournamentError(_("No such match in this tournament."))
        keys = [k for k in locked.held if k != key]
        if held:
            keys.append(key)
        locked.held = keys
        locked.save(update_fields=["held"])


def _settle_tournament(tournament):
    """The tournament is finished once its bracket is (the state is derived; this flag lists
    it among the finished ones)."""
    finished = selectors.tournament_view(tournament).state.finished
    status = TournamentStatus.FINISHED if finished else TournamentStatus.RUNNING
    if tournament.status != status and tournament.status != TournamentStatus.DRAFT:
        Tournament.objects.filter(pk=tournament.pk).update(status=status)


# The fees and the prizes: the money is billing's (a counter bill per entrant's fee, paid
# like any bill; a payout per prize, out of the open shift), the sums the ledger's.


def take_fee(*, entrant, user):
    """The entrant's fee as a counter bill at the cash desk (the cashier takes the payment
    on it); one bill per entrant: asked again, the same bill."""
    with transaction.atomic():
        tournament = _tournament_locked(entrant.tournament)
        entrant = Entrant.objects.select_related("player").get(pk=entrant.pk)
        if entrant.tournament_id != tournament.pk or entrant.status != EntryStatus.ENTERED:
            raise ValidationError(gettext("This entrant is not in the tournament."), code="entrant")
        ledger = funds.ledger(tournament)
        if ledger.regulation is None:
            raise ValidationError(gettext("This tournament has no entry fee."), code="fee")
        row = next(row for row in ledger.rows if row.entrant.pk == entrant.pk)
        if row.bill is not None:
            return row.bill
        # Stored texts (the bill's, the receipt's line) in the site's language, as receipts
        # are printed, whatever the cashier's.
        with translation.override(django_settings.LANGUAGE_CODE):
            title = gettext("Entry fee: %(tournament)s, %(name)s") % {
                "tournament": tournament.name,
                "name": entrant.name,
            }
            line = gettext("Entry fee: %(tournament)s") % {"tournament": tournament.name}
        return billing_services.open_counter_bill(
            reference=funds.fee_reference(tournament, entrant),
            title=title,
            line=line,
            amount=row.fee,
            user=user,
            payer_name=entrant.name,
            player=entrant.player,
        )


def pay_prize(*, entrant, user):
    """Pays out in cash what the ledger says is still due to the entrant (his prize), once
    the tournament is finished; never more, never twice."""
    with transaction.atomic():
        tournament = _tournament_locked(entrant.tournament)
        if tournament.status != TournamentStatus.FINISHED:
            raise ValidationError(
                gettext("Prizes are paid once the tournament is finished."), code="running"
            )
        ledger = funds.ledger(tournament)
        row = next((row for row in ledger.rows if row.entrant.pk == entrant.pk), None)
        if row is None or row.prize_due <= 0:
            raise ValidationError(gettext("No prize is due to this entrant."), code="prize")
        if row.prize_left <= 0:
            raise ValidationError(gettext("This prize is already paid out."), code="paid")
        with translation.override(django_settings.LANGUAGE_CODE):
            description = gettext("Prize: %(tournament)s, place %(place)s, %(name)s") % {
                "tournament": tournament.name,
                "place": row.place_label,
                "name": entrant.name,
            }
        return billing_services.pay_out(
            reference=funds.prize_reference(tournament, entrant),
            amount=row.prize_left,
            due=row.prize_due,
            description=description,
            user=user,
        )


def reverse_prize(*, tournament, payout, user, reason):
    """Undoes a prize paid out by mistake (a reversing payout, audited)."""
    with transaction.atomic():
        tournament = _tournament_locked(tournament)
        if not payout.reference.startswith(f"prize:{tournament.pk}:"):
            raise ValidationError(gettext("This payout is not this tournament's."), code="payout")
        return billing_services.reverse_payout(payout=payout, user=user, reason=reason)
