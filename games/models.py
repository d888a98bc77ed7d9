"""Games as stored: a Game, its Seats, and the immutable, ordered log of its Events.

The events are the truth. The current state of a game is always
``games.rules.replay(variant, settings, events)``; nothing here stores it as truth.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.scoping import ClubOwned, club_manager
from games import rules
from games.i18n import lazy_message, render_message
from players.models import PlayerOrGuest
from toolbox.fields import done_by
from toolbox.immutable import ImmutableRow

# A game played at a table («партия»), as opposed to a kind of game («игра»).
PLAYED_GAME = pgettext_lazy("a game played at a table", "game")


def variant_choices():
    """(key, name) of every game of the rules engine, in its order: ``Game.variant``'s choices.

    A callable, so that a game added to the engine needs no migration here.
    """
    return [(variant.key, lazy_message(variant.name)) for variant in rules.VARIANTS.values()]


def default_variant():
    """The game a form offers first: the engine's first."""
    return next(iter(rules.VARIANTS))


def variant_label(key):
    """The name of the game with this variant key, in the active language (the key if none)."""
    variant = rules.VARIANTS.get(key)
    return render_message(variant.name) if variant else key


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")
    ABANDONED = "abandoned", _("Abandoned")
    # Over, but scored by the players themselves: it counts once the opponent (or a staff
    # member) confirms it (then FINISHED); until then no rating, leaderboard or bill reads it.
    UNCONFIRMED = "unconfirmed", _("Awaiting confirmation")


class Outcome(models.TextChoices):
    WIN = "win", _("Win")
    LOSS = "loss", _("Loss")
    DRAW = "draw", _("Draw")


class GameQuerySet(models.QuerySet):
    def in_progress_on(self, table):
        """The game in progress on ``table`` (a Table, a pk or ``OuterRef("pk")``): at most one.

        The one way to ask whether a table is in play.
        """
        return self.filter(table=table, status=GameStatus.IN_PROGRESS)


class Game(ClubOwned):
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="games", verbose_name=_("table")
    )
    variant = models.CharField(_("game"), max_length=16, choices=variant_choices)
    settings = models.JSONField(_("settings"), default=dict)
    status = models.CharField(
        _("status"), max_length=16, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    marker = done_by(_("marker"), related_name="marked_games")
    # Sequence number of the newest stored event (0 = none yet): the boards' cheap check.
    last_seq = models.PositiveIntegerField(_("last event number"), default=0)
    # Filled from the rules module when the game is finished: winners, draw kind, scores.
    result = models.JSONField(_("result"), null=True, blank=True)
    # The replay of the events at last_seq (state, newest log lines), signed and versioned:
    # a cache written with every event so that a stroke costs the same at any game length.
    # Never the truth; see games/replay_cache.py.
    replay_cache = models.BinaryField(null=True, blank=True, editable=False)
    # Scored by its players without a marker: finishing it leaves it UNCONFIRMED.
    needs_confirmation = models.BooleanField(_("scored by the players"), default=False)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    # The devices (a hash of the browser's session) that recorded on this game lately, with
    # when (epoch seconds): the console says so when another device records too. Written by
    # the tap itself (``services.record_event``), no statement of its own.
    recent_devices = models.JSONField(_("recent devices"), default=dict, blank=True, editable=False)
    rematch_of = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematches",
        verbose_name=_("rematch of"),
    )

    objects = club_manager(GameQuerySet)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = PLAYED_GAME
        verbose_name_plural = _("games")
        permissions = [
            ("record_game", _("Can record games as a marker")),
            ("record_own_game", _("Can record own games without a marker")),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="in_progress"),
                name="one_game_in_progress_per_table",
                violation_error_message=_("This table already has a game in progress."),
            )
        ]
        indexes = [
            models.Index(fields=["status", "finished_at"]),
            # Ratings, leaderboards and the player pages read finished games per variant.
            models.Index(fields=["status", "variant", "finished_at"]),
            # The newest confirmation of a game scored by its players (records' stamps).
            models.Index(
                fields=["confirmed_at"],
                name="game_confirmed_at",
                condition=Q(confirmed_at__isnull=False),
            ),
        ]

    def __str__(self):
        return f"{self.get_variant_display()} #{self.pk}"


class Seat(PlayerOrGuest):
    """A place in the playing order: a player from the roster, or a guest by name."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=PLAYED_GAME
    )
    position = models.PositiveSmallIntegerField(_("position"))  # 0-based playing order
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    # Filled when the game is finished (from the rules module's result and seat stats).
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices, blank=True)
    score = models.IntegerField(_("score"), null=True, blank=True)
    stats = models.JSONField(_("figures"), default=dict, blank=True)

    objects = club_manager(via="game")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(guest_name=""),
                name="seat_has_player_or_guest",
            ),
        ]
        indexes = [models.Index(fields=["player", "outcome"])]


class Event(ImmutableRow, models.Model):
    """One thing the marker recorded. Rows are never changed or deleted; an undo is an event."""

    changed_message = "Events are immutable once recorded."
    deleted_message = "Events are never deleted; record an undo instead."

    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=PLAYED_GAME,
        db_index=False,  # unique_event_seq (game, seq) serves every lookup by game
    )
    seq = models.PositiveIntegerField(_("number"))  # 1, 2, 3, … within the game
    kind = models.CharField(_("kind"), max_length=32)
    payload = models.JSONField(_("details"), default=dict, blank=True)
    recorded_by = done_by(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)
    # When the marker tapped it, where that was earlier than it landed: a stroke kept on
    # the phone while the Wi-Fi was down (static/js/outbox.js) and sent once it was back.
    tapped_at = models.DateTimeField(_("tapped"), null=True, blank=True)

    objects = club_manager(via="game")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq"),
        ]

    def __str__(self):
        return f"{self.game_id}#{self.seq}"
