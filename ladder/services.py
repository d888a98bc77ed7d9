"""Every write of a ladder: joining and leaving, a challenge made, accepted, declined or
withdrawn, a ladder game's result (``game_finished``, the games app's hook) and what the
clock decides (``settle``: an unanswered challenge forfeited, an unplayed one lapsed, a
reminder, an inactive player's lost place). Each write locks the ladder's row, settles what
is due first and checks the rules (``ladder.rules``) on the places replayed from its moves."""

from contextlib import contextmanager
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Outcome
from ladder import rules, selectors
from ladder.models import (
    Challenge,
    ChallengeStatus,
    Ladder,
    LadderMove,
    MoveKind,
    Notice,
    NoticeKind,
)
from players.models import Player

REMIND_BEFORE = timedelta(hours=24)  # an accepted challenge's reminder, before its deadline


class LadderError(Exception):
    """A ladder's write refused, with the sentence that says why."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def _locked(ladder):
    return Ladder.objects.select_for_update().get(pk=ladder.pk)


def _tell(ladder, challenge, kind, *players):
    Notice.objects.bulk_create(
        Notice(ladder=ladder, challenge=challenge, kind=kind, player=player) for player in players
    )


def join(*, ladder, player, now=None):
    """``player`` joins the ladder at the bottom (again, if he had left)."""
    with transaction.atomic():
        ladder = _locked(ladder)
        if not Player.objects.filter(pk=player.pk).exists():
            raise LadderError(_("Only a player of the club's roster can join its ladder."))
        if player.pk in selectors.order(ladder):
            raise LadderError(_("Already on this ladder."))
        LadderMove.objects.create(
            ladder=ladder, kind=MoveKind.JOIN, player=player, at=now or timezone.now()
        )


def leave(*, ladder, player, now=None):
    """``player`` leaves the ladder; his open challenges are withdrawn."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _locked(ladder)
        if player.pk not in selectors.order(ladder):
            raise LadderError(_("Not on this ladder."))
        for challenge in selectors.open_challenges(ladder, player):
            _close(challenge, ChallengeStatus.WITHDRAWN, now)
            _tell(ladder, challenge, NoticeKind.WITHDRAWN, challenge.challenger)
            _tell(ladder, challenge, NoticeKind.WITHDRAWN, challenge.challenged)
        LadderMove.objects.create(ladder=ladder, kind=MoveKind.LEAVE, player=player, at=now)


def challenge(*, ladder, challenger, challenged, now=None):
    """``challenger`` challenges ``challenged``; refused (LadderError, with the rule and the
    time left) when a rule blocks it."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _locked(ladder)
        _settle(ladder, now)
        if not ladder.active:
            raise LadderError(_("This ladder is closed for challenges."))
        refusal = rules.refusal(
            selectors.rules_of(ladder),
            selectors.order(ladder),
            challenger.pk,
            challenged.pk,
            now,
            selectors.past(ladder),
        )
        if refusal is not None:
            raise LadderError(selectors.refusal_text(refusal, now))
        made = Challenge.objects.create(
            ladder=ladder, challenger=challenger, challenged=challenged, made_at=now
        )
        _tell(ladder, made, NoticeKind.CHALLENGED, challenged)
        return made


@contextmanager
def _answering(challenge, player, now, side, refused):
    """Within the ladder's lock, what is due settled first: the challenge, still open, as
    ``player`` answers it, who must be its ``side`` ("challenger" / "challenged"; else
    ``refused`` is said)."""
    with transaction.atomic():
        ladder = _locked(challenge.ladder)
        _settle(ladder, now)
        challenge = Challenge.objects.select_related("challenger", "challenged").get(
            pk=challenge.pk
        )
        if challenge.status != ChallengeStatus.OPEN:
            raise LadderError(_("This challenge has already been answered or decided."))
        if player.pk not in (challenge.challenger_id, challenge.challenged_id):
            raise LadderError(_("This challenge is not yours."))
        if player.pk != getattr(challenge, f"{side}_id"):
            raise LadderError(refused)
        yield ladder, challenge


def accept(*, challenge, player, now=None):
    """The challenged player accepts: the game is to be played by ``play_days``."""
    now = now or timezone.now()
    refused = _("Only the challenged player accepts a challenge.")
    with _answering(challenge, player, now, "challenged", refused) as (ladder, challenge):
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.accepted_at = now
        challenge.save(update_fields=["status", "accepted_at"])
        _tell(ladder, challenge, NoticeKind.ACCEPTED, challenge.challenger)
    return challenge


def decline(*, challenge, player, now=None):
    """The challenged player declines: as if he had not answered in time, the challenger
    takes his place."""
    now = now or timezone.now()
    refused = _("Only the challenged player declines a challenge.")
    with _answering(challenge, player, now, "challenged", refused) as (ladder, challenge):
        _forfeit(ladder, challenge, now, NoticeKind.DECLINED)
    return challenge


def withdraw(*, challenge, player, now=None):
    """The challenger takes back a challenge not yet accepted."""
    now = now or timezone.now()
    refused = _("Only the challenger withdraws a challenge.")
    with _answering(challenge, player, now, "challenger", refused) as (ladder, challenge):
        _close(challenge, ChallengeStatus.WITHDRAWN, now)
        _tell(ladder, challenge, NoticeKind.WITHDRAWN, challenge.challenged)
    return challenge


def _close(challenge, status, now, winner=None, game=None):
    challenge.status = status
    challenge.decided_at = now
    challenge.winner = winner
    challenge.game = game
    challenge.save(update_fields=["status", "decided_at", "winner", "game"])


def _forfeit(ladder, challenge, now, kind=NoticeKind.FORFEITED):
    _close(challenge, ChallengeStatus.FORFEITED, now, winner=challenge.challenger)
    LadderMove.objects.create(
        ladder=ladder,
        kind=MoveKind.WIN,
        player=challenge.challenger,
        other=challenge.challenged,
        challenge=challenge,
        at=now,
    )
    _tell(ladder, challenge, kind, challenge.challenger, challenge.challenged)


def game_finished(game):
    """The games app's hook: a counted game of a ladder's game between the two players of an
    accepted challenge decides it (a single game, not a frame of a match); the winner takes
    the higher place. A draw leaves the places as they were."""
    seats = [s for s in game.seats.all() if s.player_id]
    if len(seats) != 2 or hasattr(game, "match_frame"):
        return
    ids = {s.player_id for s in seats}
    found = (
        Challenge.objects.filter(
            ladder__variant=game.variant,
            status=ChallengeStatus.ACCEPTED,
            challenger_id__in=ids,
            challenged_id__in=ids,
        )
        .order_by("accepted_at")
        .first()
    )
    if found is None:
        return
    now = game.finished_at or timezone.now()
    with transaction.atomic():
        ladder = _locked(found.ladder)
        _settle(ladder, now)
        found = Challenge.objects.select_related("challenger", "challenged").get(pk=found.pk)
        if found.status != ChallengeStatus.ACCEPTED:
            return
        winners = [s.player for s in seats if s.outcome == Outcome.WIN]
        winner = winners[0] if len(winners) == 1 else None
        _close(found, ChallengeStatus.PLAYED, now, winner=winner, game=game)
        if winner is not None and winner.pk == found.challenger_id:
            LadderMove.objects.create(
                ladder=ladder,
                kind=MoveKind.WIN,
                player=found.challenger,
                other=found.challenged,
                challenge=found,
                at=now,
            )
        _tell(ladder, found, NoticeKind.RESULT, found.challenger, found.challenged)


def settle_all(now=None):
    """Applies what the clock has decided in each of the club's open ladders."""
    for ladder in Ladder.objects.filter(active=True):
        settle(ladder=ladder, now=now)


def settle(*, ladder, now=None):
    """Applies what the clock has decided by ``now`` (idempotent)."""
    with transaction.atomic():
        _settle(_locked(ladder), now or timezone.now())


def _settle(ladder, now):
    rules_ = selectors.rules_of(ladder)
    for challenge in Challenge.objects.filter(ladder=ladder, status=ChallengeStatus.OPEN):
        if now >= rules.accept_by(rules_, challenge.made_at):
            _forfeit(ladder, challenge, rules.accept_by(rules_, challenge.made_at))
    for challenge in Challenge.objects.filter(ladder=ladder, status=ChallengeStatus.ACCEPTED):
        deadline = rules.play_by(rules_, challenge.accepted_at)
        if now >= deadline:
            _close(challenge, ChallengeStatus.LAPSED, deadline)
            _tell(ladder, challenge, NoticeKind.LAPSED, challenge.challenger, challenge.challenged)
        elif not challenge.reminded and now >= deadline - REMIND_BEFORE:
            challenge.reminded = True
            challenge.save(update_fields=["reminded"])
            _tell(
                ladder, challenge, NoticeKind.REMINDER, challenge.challenger, challenge.challenged
            )
    busy = {p for c in selectors.past(ladder) if c.open for p in (c.challenger, c.challenged)}
    order = selectors.order(ladder)
    idle = {
        a.player_id: (a, rules.drops_due(rules_, a.since, a.dropped, now))
        for a in selectors.activity(ladder, order)
        if a.player_id not in busy  # a player with a challenge under way is not idle
    }
    # A place is lost to a player who plays: an idle player goes below the next active one
    # (from the bottom up, so that idle neighbours both go below him); with nobody active
    # below him he keeps his place.
    for place in range(len(order) - 1, -1, -1):
        activity, due = idle.get(order[place], (None, 0))
        active_below = [p for p in order[place + 1 :] if not idle.get(p, (None, 0))[1]]
        for n in range(min(due, len(active_below))):
            at = rules.next_drop(rules_, activity.since, activity.dropped + n)
            LadderMove.objects.create(
                ladder=ladder,
                kind=MoveKind.DROP,
                player_id=activity.player_id,
                other_id=active_below[n],
                at=at,
            )
            Notice.objects.create(
                ladder=ladder, player_id=activity.player_id, kind=NoticeKind.DROPPED, at=at
            )


def notice_sent(pk, now=None):
    """A notice has reached the player through the Telegram bot."""
    Notice.objects.filter(pk=pk, sent_at__isnull=True).update(sent_at=now or timezone.now())
