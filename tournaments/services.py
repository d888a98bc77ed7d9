"""Writes for matches and tournaments.

A match's frames are started with ``games.services.start_game`` (seat 1 breaks) and
finished on the marker's console like any game; when a frame is finished
(``frame_closed``, called from the Game's post_save signal inside the same transaction) the
match counts its frames and ends by itself once a side has reached the race. Nothing of the
match is stored that its frames do not show, apart from that closing snapshot.
"""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import rules
from games import services as game_services
from games.i18n import render_message
from games.models import Game, GameStatus
from players.models import Player
from tables.models import Table
from tournaments import selectors
from tournaments.models import MAX_RACE, BreakRule, Frame, Match, MatchStatus, ResultKind


class MatchError(Exception):
    """A write the match's state does not allow; ``message`` is translated."""

    message = _("This is not possible now.")

    def __init__(self, message=None):
        if message is not None:
            self.message = message
        super().__init__(str(self.message))


def other(side):
    return "b" if side == "a" else "a"


def frame_settings(match, breaker):
    """The match's settings for a frame where ``breaker`` sits in seat 1: a choice of seat
    (who gives the handicap, who plays with the cue) is written for A in seat 1, so it flips
    when B breaks."""
    settings = dict(match.settings)
    if breaker == "b":
        variant = rules.get_variant(match.variant)
        for field in variant.settings_fields:
            if field.choices == rules.SEAT_CHOICES and field.name in settings:
                settings[field.name] = "1" if str(settings[field.name]) == "0" else "0"
    return settings


def _side(player, guest):
    return player if player is not None else guest


def _seat(match, side):
    player = match.player_a if side == "a" else match.player_b
    guest = match.guest_a if side == "a" else match.guest_b
    return _side(player, guest)


def check_match_request(*, variant, a, b, race_to, head_start_a=0, head_start_b=0):
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
    errors = check_match_request(
        variant=variant,
        a=a,
        b=b,
        race_to=race_to,
        head_start_a=head_start_a,
        head_start_b=head_start_b,
    )
    if first_break not in ("a", "b"):
        errors["first_break"] = [gettext("Choose who breaks first.")]
    if break_rule not in BreakRule.values:
        errors["break_rule"] = [gettext("Choose how the break goes on.")]
    if errors:
        raise ValidationError(errors)
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
        locked = Match.objects.select_for_update().select_related("table").get(pk=match.pk)
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
    """Called when a frame's game is saved finished or abandoned: closes the match at N."""
    frame = Frame.objects.filter(game_id=game.pk).select_related("match").first()
    if frame is None:
        return
    match = Match.objects.select_for_update().get(pk=frame.match_id)
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


def reopen_last_frame(*, match, user):
    """Takes back the end of a finished match: its last frame is in progress again (the
    marker can then undo strokes in it) and the match with it. For a tournament match the
    bracket rolls back with it, refused with the reason if a later match depends on it."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
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
    return locked


def abandon_match(*, match, user):
    """Stops a match without a result (its frame in play is abandoned; the table is free)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
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
    from tournaments import brackets

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
