"""Matches (a race to N frames; each frame is a ``games.Game``) and club tournaments.

The frames are the truth of a match: its score is counted from its finished frames
(``tournaments.selectors.match_score``); ``score_a`` / ``score_b`` / ``winner`` are written
when it ends, like ``Game.result``. A tournament keeps its entrants and their seeds; its
bracket is computed by ``tournaments.brackets`` from the results of its matches.
"""

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.scoping import ClubOwned, club_manager
from games.models import GameStatus, variant_choices
from players.models import PlayerOrGuest

MAX_RACE = 15


class Side(models.TextChoices):
    A = "a", _("Player A")
    B = "b", _("Player B")


class BreakRule(models.TextChoices):
    ALTERNATE = "alternate", _("Break alternates")
    WINNER = "winner", _("The frame's winner breaks")


class MatchStatus(models.TextChoices):
    """In progress, finished or abandoned, as a game is (the same values), in words that fit
    a match (in Russian «матч» is masculine, «партия» feminine)."""

    IN_PROGRESS = GameStatus.IN_PROGRESS.value, pgettext_lazy("match status", "In progress")
    FINISHED = GameStatus.FINISHED.value, pgettext_lazy("match status", "Finished")
    ABANDONED = GameStatus.ABANDONED.value, pgettext_lazy("match status", "Abandoned")


class ResultKind(models.TextChoices):
    PLAYED = "played", _("Played")
    WALKOVER = "walkover", _("Walkover")
    WITHDRAWAL = "withdrawal", _("Withdrawal")


class Format(models.TextChoices):
    SINGLE = "single", _("Single elimination (olympic system)")
    DOUBLE = "double", _("Double elimination")
    ROUND_ROBIN = "round_robin", _("Round robin")


class Seeding(models.TextChoices):
    RATING = "rating", _("By rating")
    MANUAL = "manual", _("By hand")
    DRAW = "draw", _("Random draw")


class Handicap(models.TextChoices):
    """How a tournament's matches are handicapped; "the weaker" of two entrants is the one
    with the lower rating in the game (``tournaments.services.stronger_side``)."""

    NONE = "none", _("No handicap")
    GAME = "game", _("The game's own handicap (set below), the weaker player receiving it")
    HEAD_START = "head_start", _("A head start in frames for the weaker player")


class AbsentPolicy(models.TextChoices):
    """What becomes, at the start, of an entrant who did not check in."""

    DROP = "drop", _("Left out of the draw")
    WALKOVER = "walkover", _("Drawn, losing the first match by walkover")


class EntryStatus(models.TextChoices):
    ENTERED = "entered", _("Entered")
    PENDING = "pending", _("Awaiting approval")
    DROPPED = "dropped", _("Not checked in: left out of the draw")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Entries open")
    RUNNING = "running", _("In progress")
    FINISHED = "finished", pgettext_lazy("tournament status", "Finished")


def race_field(label, default):
    return models.PositiveSmallIntegerField(
        label,
        default=default,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_RACE)],
    )


class Tournament(ClubOwned):
    name = models.CharField(_("name"), max_length=150)
    date = models.DateField(_("date"))
    variant = models.CharField(_("game"), max_length=16, choices=variant_choices)
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    groups = models.PositiveSmallIntegerField(_("groups"), default=1)
    advance = models.PositiveSmallIntegerField(
        _("go on from each group"),
        default=0,
        help_text=_("Round robin: how many of each group play the knockout (0: none)."),
    )
    race_upper = race_field(_("race to, upper bracket"), 3)
    race_lower = race_field(_("race to, lower bracket"), 2)
    race_final = race_field(_("race to, final"), 4)
    race_group = race_field(_("race to, groups"), 2)
    break_rule = models.CharField(
        _("break"), max_length=16, choices=BreakRule.choices, default=BreakRule.ALTERNATE
    )
    # The frames' settings; a choice of seat is written for the stronger player in seat 1.
    settings = models.JSONField(_("game settings"), default=dict, blank=True)
    handicap = models.CharField(
        _("handicap"), max_length=16, choices=Handicap.choices, default=Handicap.NONE
    )
    head_start = models.PositiveSmallIntegerField(
        _("head start of the weaker player (frames)"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_RACE - 1)],
        help_text=_(
            "With a head start: frames the weaker player counts as won before the first one "
            "(race 3 vs 2 is a head start of 1), never the whole race."
        ),
    )
    seeding = models.CharField(
        _("seeding"), max_length=8, choices=Seeding.choices, default=Seeding.RATING
    )
    draw_seed = models.PositiveIntegerField(_("draw number"), null=True, blank=True)
    rules = models.TextField(_("rules"), blank=True)
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=TournamentStatus.choices,
        default=TournamentStatus.DRAFT,
    )
    held = models.JSONField(_("matches on hold"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Players sign themselves up (``me``) while registration is open, before the draw.
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    registration_open = models.BooleanField(_("players may sign up"), default=False)
    registration_limit = models.PositiveSmallIntegerField(
        _("at most, entrants"), null=True, blank=True, validators=[MaxValueValidator(128)]
    )
    registration_deadline = models.DateTimeField(_("sign-up deadline"), null=True, blank=True)
    registration_approval = models.BooleanField(
        _("a sign-up needs the admins' approval"), default=False
    )
    checkin_minutes = models.PositiveSmallIntegerField(
        _("check-in opens, minutes before the start"),
        default=0,
        validators=[MaxValueValidator(24 * 60)],
        help_text=_("0: no check-in. Otherwise whoever has not checked in at the start is…"),
    )
    absent_policy = models.CharField(
        _("…and then"), max_length=8, choices=AbsentPolicy.choices, default=AbsentPolicy.DROP
    )
    # The entry fee, its split and the prizes (``tournaments.prizes.Regulation.to_json``);
    # empty: no fee.
    regulation = models.JSONField(_("fees and prizes"), default=dict, blank=True)
    no_show_minutes = models.PositiveSmallIntegerField(
        _("a called match not started after, minutes, is a no-show candidate"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(240)],
    )
    # The clock (``tournaments.clock``): a match in play is slow past this many minutes per
    # frame its race can last, too slow past the second.
    slow_minutes = models.PositiveSmallIntegerField(
        _("a match is slow past, minutes per frame its race can last"),
        default=7,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
    )
    too_slow_minutes = models.PositiveSmallIntegerField(
        _("…and too slow past, minutes per frame"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
    )

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    def race_for(self, bracket):
        return {
            "upper": self.race_upper,
            "lower": self.race_lower,
            "final": self.race_final,
            "group": self.race_group,
        }[bracket]


class Entrant(PlayerOrGuest):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    status = models.CharField(
        _("entry"), max_length=8, choices=EntryStatus.choices, default=EntryStatus.ENTERED
    )
    signed_up_at = models.DateTimeField(_("signed up"), null=True, blank=True)  # by himself
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    # Did not check in and the tournament gives a walkover: drawn, losing his first match.
    absent = models.BooleanField(_("absent at the start"), default=False)

    objects = club_manager(via="tournament")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["tournament", "seed", "pk"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(player__isnull=False),
                name="one_entry_per_player",
                violation_error_message=_("This player is already entered."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="unique_seed",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(guest_name=""),
                name="entrant_has_player_or_guest",
            ),
        ]


class Match(ClubOwned):
    """A race to ``race_to`` frames between two players; its frames are Games."""

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("table"),
    )
    variant = models.CharField(_("game"), max_length=16, choices=variant_choices)
    # The frames' settings as for player A in seat 1 (a seat choice flips with the break).
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    race_to = race_field(_("race to"), 3)
    head_start_a = models.PositiveSmallIntegerField(_("head start A"), default=0)
    head_start_b = models.PositiveSmallIntegerField(_("head start B"), default=0)
    # The two players' skills as the match started ({"a": …, "b": …}, records.forecast's
    # snapshot): its odds read them, so a frame rated meanwhile moves the odds only through
    # the frame score. Empty for a match started before the odds: its players' skills now.
    skills = models.JSONField(_("skills at the start"), default=dict, blank=True, editable=False)
    first_break = models.CharField(
        _("first break"), max_length=1, choices=Side.choices, default=Side.A
    )
    break_rule = models.CharField(
        _("break"), max_length=16, choices=BreakRule.choices, default=BreakRule.ALTERNATE
    )
    player_a = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    guest_a = models.CharField(max_length=150, blank=True)
    player_b = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    guest_b = models.CharField(max_length=150, blank=True)
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=MatchStatus.choices,
        default=MatchStatus.IN_PROGRESS,
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    marker = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Written when the match ends (counted from the frames, or a walkover).
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.CharField(max_length=1, choices=Side.choices, blank=True)
    kind = models.CharField(
        _("result"), max_length=16, choices=ResultKind.choices, default=ResultKind.PLAYED
    )
    # A tournament's match: which one of its bracket, and who is who.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="matches"
    )
    bracket_key = models.CharField(max_length=16, blank=True)
    entrant_a = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    entrant_b = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-started_at", "-pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            # A bracket's match is played once (an abandoned one may be started again).
            models.UniqueConstraint(
                fields=["tournament", "bracket_key"],
                condition=Q(tournament__isnull=False) & ~Q(status="abandoned"),
                name="one_match_per_bracket_slot",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="in_progress"),
                name="one_match_in_progress_per_table",
            ),
        ]

    def __str__(self):
        return f"{self.name_a} — {self.name_b}"

    @property
    def name_a(self):
        return self.player_a.display_name if self.player_a_id else self.guest_a

    @property
    def name_b(self):
        return self.player_b.display_name if self.player_b_id else self.guest_b

    @property
    def winner_name(self):
        return {"a": self.name_a, "b": self.name_b}.get(self.winner, "")

    @property
    def loser_name(self):
        """Who lost: of a walkover, who did not come; of a withdrawal, who withdrew."""
        return {"a": self.name_b, "b": self.name_a}.get(self.winner, "")

    @property
    def target_a(self):
        """Frames A still had to win at the start (race 5 vs 4: a head start of one)."""
        return self.race_to - self.head_start_a

    @property
    def target_b(self):
        return self.race_to - self.head_start_b


class Frame(models.Model):
    """One frame of a match: a Game, numbered within the match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="frames")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="match_frame")
    number = models.PositiveSmallIntegerField()
    # Which side broke (sat in seat 1).
    breaker = models.CharField(max_length=1, choices=Side.choices)

    objects = club_manager(via="match")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("frame")
        verbose_name_plural = _("frames")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_frame_number")
        ]

    def __str__(self):
        return f"{self.match_id}/{self.number}"
