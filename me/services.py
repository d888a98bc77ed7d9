"""Writes of the players' own phones: sign-in links and accounts, games scored without a
marker and their confirmation, the Telegram link; and what the player's page is told."""

import hashlib
import re
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import selectors as game_selectors
from games import services as game_services
from games.models import GameStatus
from live import publish_on_commit, topics
from me import selectors
from me.models import LINK_HOURS, ConfirmationStatus, GameConfirmation, SignInLink, TelegramChat
from players.models import Player
from toolbox.roles import PLAYERS, ensure_roles
from tournaments.models import Tournament, TournamentStatus

STAY_DAYS = 90  # "stay signed in on this phone"
WORDS_MAX = 1000


class MeError(Exception):
    """A write refused; ``message`` is translated."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))


def token_hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


def tell(*players):
    """Once the transaction commits, the pages of these players (Players or pks) update."""
    pks = {getattr(player, "pk", player) for player in players if player is not None}
    if pks:
        publish_on_commit(*(topics.player(pk) for pk in sorted(pks)))


# --- sign-in links and accounts -------------------------------------------------------------


def issue_link(*, player, user):
    """A new single-use sign-in link for ``player``, valid ``LINK_HOURS``: returns the raw
    token (shown once; only its hash is stored). Earlier unused links stop working."""
    if not player.is_active:
        raise MeError(gettext("%(name)s is not on the active roster.") % {"name": player})
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        SignInLink.objects.filter(player=player, used_at__isnull=True).update(expires_at=now)
        SignInLink.objects.create(
            player=player,
            token_hash=token_hash(token),
            expires_at=now + timedelta(hours=LINK_HOURS),
            created_by=user if user is not None and user.is_authenticated else None,
        )
    return token


class LinkRefused(MeError):
    """The link cannot be used: ``reason`` is "unknown", "expired" or "used"."""

    def __init__(self, reason):
        self.reason = reason
        super().__init__(
            {
                "unknown": _("This sign-in link is not valid."),
                "expired": _("This sign-in link has expired: ask the desk for a new one."),
                "used": _("This sign-in link has already been used: ask the desk for a new one."),
            }[reason]
        )


def find_link(token):
    """The usable link of ``token``; LinkRefused otherwise."""
    link = SignInLink.objects.select_related("player", "player__user").filter(
        token_hash=token_hash(token or "")
    )
    link = link.first()
    if link is None:
        raise LinkRefused("unknown")
    if link.used_at is not None:
        raise LinkRefused("used")
    if link.expires_at <= timezone.now():
        raise LinkRefused("expired")
    return link


LATIN = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "a b v g d e e zh z i y k l m n o p r s t u f kh ts ch sh shch - y - e yu ya".split(),
        strict=True,
    )
)


def suggested_username(player):
    """A free username for a new account: the player's nickname (or first name) in latin
    letters («Сокол» → sokol), else player<pk>."""
    name = (player.nickname or player.full_name.split(" ")[0]).lower()
    latin = "".join(LATIN.get(char, char).replace("-", "") for char in name)
    base = re.sub(r"[^a-z0-9]", "", latin)[:20]
    base = base or f"player{player.pk}"
    User = get_user_model()
    name, n = base, 1
    while User.objects.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}{n}"
    return name


def redeem_link(*, token, username, password, stay):
    """Uses the link once: the player's account (made now if he has none, in the Players
    group) gets ``password`` (or, with ``stay`` and no password, keeps none: that phone stays
    signed in). Returns the user to sign in. Raises LinkRefused or ValidationError (keyed by
    field) and changes nothing then."""
    User = get_user_model()
    with transaction.atomic():
        link = find_link(token)
        player = Player.everywhere.select_for_update().get(pk=link.player_id)
        user = player.user
        errors = {}
        if user is None:
            username = (username or "").strip()
            try:
                User.username_validator(username)
                if not username or len(username) > 150:
                    raise ValidationError(gettext("Choose a user name."))
            except ValidationError as error:
                errors["username"] = error.messages
            else:
                if User.objects.filter(username__iexact=username).exists():
                    errors["username"] = [gettext("This user name is taken: choose another.")]
        if password:
            try:
                password_validation.validate_password(password, user or User(username=username))
            except ValidationError as error:
                errors["password"] = error.messages
        elif not stay:
            errors["password"] = [
                gettext("Choose a password, or stay signed in on this phone without one.")
            ]
        if errors:
            raise ValidationError(errors)
        # Single use, even when two phones post the same link at once.
        if not SignInLink.objects.filter(pk=link.pk, used_at__isnull=True).update(
            used_at=timezone.now()
        ):
            raise LinkRefused("used")
        if user is None:
            user = User.objects.create_user(username)
            ensure_roles()
            user.groups.add(Group.objects.get(name=PLAYERS))
            player.user = user
            player.save(update_fields=["user"])
        if password:
            user.set_password(password)
            user.save(update_fields=["password"])
        elif not user.has_usable_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
    return user


def sign_out_everywhere(*, player):
    """Ends every session of the player's account on every phone: a new random (unusable)
    password changes the hash each session is checked against (Django's session
    verification), and his unused links stop working. He needs a new link to sign in."""
    with transaction.atomic():
        SignInLink.objects.filter(player=player, used_at__isnull=True).update(
            expires_at=timezone.now()
        )
        user = player.user
        if user is None:
            return False
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return True


# --- games scored without a marker ----------------------------------------------------------


def start_own_game(*, table, variant, player, opponent, breaks, settings, user):
    """A signed-in player starts a two-player game at ``table`` with ``opponent`` from the
    roster and scores it himself (``breaks``: "me" or "opponent" takes seat 1). The game
    needs the opponent's (or a staff member's) confirmation once over."""
    if opponent is None or opponent.pk == player.pk:
        raise ValidationError({"opponent": gettext("Choose your opponent from the roster.")})
    seats = [player, opponent] if breaks != "opponent" else [opponent, player]
    with transaction.atomic():
        game = game_services.start_game(
            table=table,
            variant=variant,
            settings=settings,
            seats=seats,
            marker=user,
            needs_confirmation=True,
        )
        GameConfirmation.objects.create(game=game, started_by=player, opponent=opponent)
    return game


def _confirmation(game_pk, *, lock=True):
    rows = GameConfirmation.objects.select_related("game", "started_by", "opponent")
    if lock:
        rows = rows.select_for_update(of=("self",))
    confirmation = rows.filter(game_id=game_pk).first()
    if confirmation is None:
        raise MeError(_("This game was not scored by its players."))
    return confirmation


def confirm(*, game_pk, player=None, user=None):
    """The opponent (``player``) — or a staff member settling it (``player`` None) —
    confirms the game: it counts from now on."""
    with transaction.atomic():
        confirmation = _confirmation(game_pk)
        if player is not None and player.pk != confirmation.opponent_id:
            raise MeError(_("Only the opponent confirms the game."))
        if confirmation.status not in (ConfirmationStatus.PENDING, ConfirmationStatus.DISPUTED):
            raise MeError(_("This game has already been decided."))
        if player is not None and confirmation.status != ConfirmationStatus.PENDING:
            raise MeError(_("This game is disputed: the admins decide."))
        if confirmation.game.status != GameStatus.UNCONFIRMED:
            raise MeError(_("The game is not over yet."))
        game_services.confirm_game(game=confirmation.game, user=user)
        _decide(confirmation, ConfirmationStatus.CONFIRMED, user)
    return confirmation


def dispute(*, game_pk, player, words):
    """A player of the game says it is wrong: the admins decide, with both players' words."""
    words = (words or "").strip()
    if not words:
        raise MeError(_("Say what is wrong with the result."))
    if len(words) > WORDS_MAX:
        raise MeError(gettext("At most %(n)d characters.") % {"n": WORDS_MAX})
    with transaction.atomic():
        confirmation = _confirmation(game_pk)
        if player.pk not in (confirmation.opponent_id, confirmation.started_by_id):
            raise MeError(_("Only the game's players may dispute it."))
        if confirmation.status not in (ConfirmationStatus.PENDING, ConfirmationStatus.DISPUTED):
            raise MeError(_("This game has already been decided."))
        if confirmation.game.status not in (GameStatus.UNCONFIRMED, GameStatus.IN_PROGRESS):
            raise MeError(_("This game has already been decided."))
        field = "opponent_words" if player.pk == confirmation.opponent_id else "starter_words"
        setattr(confirmation, field, words)
        confirmation.status = ConfirmationStatus.DISPUTED
        confirmation.save(update_fields=[field, "status"])
        tell(confirmation.started_by, confirmation.opponent)
    return confirmation


def void(*, game_pk, user):
    """The admins do not uphold a disputed game: it never counts."""
    with transaction.atomic():
        confirmation = _confirmation(game_pk)
        if confirmation.status not in (ConfirmationStatus.PENDING, ConfirmationStatus.DISPUTED):
            raise MeError(_("This game has already been decided."))
        if confirmation.game.status == GameStatus.UNCONFIRMED:
            game_services.void_game(game=confirmation.game, user=user)
        elif confirmation.game.status == GameStatus.IN_PROGRESS:
            game_services.abandon_game(game=confirmation.game, user=user)
        _decide(confirmation, ConfirmationStatus.VOIDED, user)
    return confirmation


def _decide(confirmation, status, user):
    confirmation.status = status
    confirmation.decided_by = user if user is not None and user.is_authenticated else None
    confirmation.decided_at = timezone.now()
    confirmation.save(update_fields=["status", "decided_by", "decided_at"])
    tell(confirmation.started_by, confirmation.opponent)


# --- what the players' pages are told (games hooks) -----------------------------------------


def _seated(game):
    return [seat.player_id for seat in game.seats.all() if seat.player_id]


def game_started(game):
    """``games.services.when_started``: the players' pages show their game."""
    tell(*_seated(game))


def game_begun(game):
    """``games.services.when_begun``: a called match's first stroke — the players' pages no
    longer say «Ваш выход» (they are playing)."""
    tell(*(seat.player_id for seat in game_selectors.seats_of(game) if seat.player_id))


def game_closed(game):
    """``games.services.when_closed``: the players' pages drop the game (or ask for the
    confirmation); a table is free, so the desks' offers of the running tournaments change:
    their players' pages follow those tournaments' topics."""
    tell(*_seated(game))
    running = Tournament.objects.filter(status=TournamentStatus.RUNNING).values_list(
        "pk", flat=True
    )
    tournament_topics = [topics.tournament(pk) for pk in running]
    if tournament_topics:
        publish_on_commit(*tournament_topics)


def booking_changed(booking):
    """``billing.services.when_booking_changed``: the pages of the players with the
    booking's phone show it at once, as a call to a table (not at their next sweep)."""
    tell(*selectors.players_with_phone(booking.phone))


# --- Telegram -------------------------------------------------------------------------------


def telegram_code(*, player):
    """The code the player sends the club's bot (``/start <code>``) to link his chat."""
    code = secrets.token_urlsafe(12)
    TelegramChat.objects.update_or_create(player=player, defaults={"code": code})
    return code


def link_telegram(*, code, chat_id):
    """The bot got ``/start <code>``: that chat is the player's. Returns the player or None."""
    with transaction.atomic():
        chat = (
            TelegramChat.objects.select_for_update()
            .select_related("player")
            .filter(code=code)
            .first()
            if code
            else None
        )
        if chat is None:
            return None
        chat.chat_id, chat.code, chat.last_sent = chat_id, None, ""
        chat.save(update_fields=["chat_id", "code", "last_sent"])
        tell(chat.player)
    return chat.player


def unlink_telegram(*, player):
    TelegramChat.objects.filter(player=player).delete()
