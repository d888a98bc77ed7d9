"""A club's challenge ladder: its rules, its moves (the places are replayed from them by
``ladder.rules.standing``), its challenges and what the players are told of them."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.scoping import ClubOwned, club_manager
from games.models import variant_choices
from toolbox.immutable import ImmutableRow


def _days(verbose, default, minimum=1):
    return models.PositiveSmallIntegerField(
        verbose,
        default=default,
        validators=[MinValueValidator(minimum), MaxValueValidator(365)],
    )


class Ladder(ClubOwned):
    """One game's ladder at a club, with its rules (``ladder.rules.Rules``)."""

    name = models.CharField(_("name"), max_length=150)
    variant = models.CharField(_("game"), max_length=16, choices=variant_choices)
    reach = models.PositiveSmallIntegerField(
        _("challenge up to this many places above"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
    )
    accept_days = _days(_("days to accept a challenge"), 3)
    play_days = _days(_("days to play an accepted challenge"), 7)
    max_open = models.PositiveSmallIntegerField(
        _("open challenges a player may have"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
    )
    rematch_days = _days(_("days before the same two meet again"), 14, minimum=0)
    inactive_days = _days(_("days without a game before a place is lost"), 30)
    active = models.BooleanField(_("open for challenges"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("challenge ladder")
        verbose_name_plural = _("challenge ladders")
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("ladder:detail", args=[self.pk])


class MoveKind(models.TextChoices):
    JOIN = "join", _("joined")
    WIN = "win", _("won a place")
    DROP = "drop", _("lost a place for inactivity")
    LEAVE = "leave", _("left")


class LadderMove(ImmutableRow, models.Model):
    """One change of a ladder's places, appended, never changed."""

    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="moves", verbose_name=_("ladder")
    )
    kind = models.CharField(_("what"), max_length=8, choices=MoveKind.choices)
    player = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    other = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("the other player"),
    )
    challenge = models.ForeignKey(
        "ladder.Challenge",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("challenge"),
    )
    at = models.DateTimeField(_("when"), default=timezone.now)

    objects = club_manager(via="ladder")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        verbose_name = _("ladder move")
        verbose_name_plural = _("ladder moves")
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.ladder}: {self.kind} {self.player_id}"


class ChallengeStatus(models.TextChoices):
    OPEN = "open", _("awaiting an answer")
    ACCEPTED = "accepted", _("accepted, to be played")
    PLAYED = "played", _("played")
    FORFEITED = "forfeited", _("not accepted: place lost")
    LAPSED = "lapsed", _("not played in time")
    WITHDRAWN = "withdrawn", _("withdrawn")


OPEN_STATUSES = (ChallengeStatus.OPEN, ChallengeStatus.ACCEPTED)


class Challenge(models.Model):
    """A challenge of a player to one above him on the ladder."""

    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="challenges", verbose_name=_("ladder")
    )
    challenger = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("challenger")
    )
    challenged = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("challenged")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=ChallengeStatus.choices, default=ChallengeStatus.OPEN
    )
    made_at = models.DateTimeField(_("made"), default=timezone.now)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
    )
    winner = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    reminded = models.BooleanField(default=False)

    objects = club_manager(via="ladder")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-made_at", "-pk"]

    def __str__(self):
        return f"{self.challenger} → {self.challenged}"

    @property
    def is_open(self):
        return self.status in OPEN_STATUSES


class NoticeKind(models.TextChoices):
    CHALLENGED = "challenged", _("challenged")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    FORFEITED = "forfeited", _("forfeited")
    REMINDER = "reminder", _("reminder")
    RESULT = "result", _("result")
    LAPSED = "lapsed", _("lapsed")
    DROPPED = "dropped", _("dropped")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Notice(models.Model):
    """What a player is told of his ladder: on his page, and once through the Telegram bot
    (``sent_at``). Said in words when read (``ladder.selectors.notice_text``), in the
    reader's language."""

    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="+", verbose_name=_("ladder")
    )
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    kind = models.CharField(_("what"), max_length=10, choices=NoticeKind.choices)
    challenge = models.ForeignKey(
        Challenge,
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        verbose_name=_("challenge"),
    )
    at = models.DateTimeField(_("when"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent by the bot"), null=True, blank=True)

    objects = club_manager(via="ladder")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        verbose_name = _("ladder notice")
        verbose_name_plural = _("ladder notices")
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.player}: {self.kind}"
