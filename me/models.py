"""The players' own phones: sign-in links from the desk, games they scored themselves awaiting
the opponent's word, and the Telegram chats they linked.

A sign-in link's token is shown once (as a QR code and a link) and stored only as its SHA-256
hash: whoever reads the database cannot sign in with it. A link works once, for
``LINK_HOURS``.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.scoping import club_manager

LINK_HOURS = 24


class SignInLink(models.Model):
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.CASCADE,
        related_name="sign_in_links",
        verbose_name=_("player"),
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("issued"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("issued by"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("sign-in link")
        verbose_name_plural = _("sign-in links")

    def __str__(self):
        return f"{self.player} {self.created_at:%Y-%m-%d %H:%M}"


class ConfirmationStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting the opponent")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed: the admins decide")
    VOIDED = "voided", _("Not counted")


class GameConfirmation(models.Model):
    """A game two players scored without a marker: who started it, who must confirm it, and
    what each said when it is disputed. The game itself is ``games.Game`` (its status
    UNCONFIRMED until confirmed, ``games.services.confirm_game``)."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="confirmation", verbose_name=_("game")
    )
    started_by = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("started by")
    )
    opponent = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("opponent")
    )
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=ConfirmationStatus.choices,
        default=ConfirmationStatus.PENDING,
    )
    starter_words = models.TextField(_("what the player who scored says"), blank=True)
    opponent_words = models.TextField(_("what the opponent says"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    objects = club_manager(via="game")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("game scored by the players")
        verbose_name_plural = _("games scored by the players")

    def __str__(self):
        return f"{self.game_id}: {self.get_status_display()}"


class TelegramChat(models.Model):
    """A player's Telegram chat with the club's bot (``me.telegram``): where "you're up" goes
    when his page is closed. ``code``: what he sends the bot to link it (one use)."""

    player = models.OneToOneField(
        "players.Player", on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    code = models.CharField(max_length=32, unique=True, null=True, blank=True)
    chat_id = models.BigIntegerField(_("chat"), null=True, blank=True)
    last_sent = models.CharField(max_length=120, blank=True)  # the last "you're up" sent

    class Meta:
        verbose_name = _("Telegram chat")
        verbose_name_plural = _("Telegram chats")

    def __str__(self):
        return f"{self.player}: {self.chat_id or '—'}"
