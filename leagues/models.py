"""Team leagues (issue 35): a league with its divisions and seasons, the teams, the fixture
list of match days, each team's line-up (a draft its captain may change, hidden until both are
locked), the games of a match day (each a race to N frames, singles or doubles, counted from
``games.Game`` frames or scored by the home captain and confirmed by the away one) and what
the captains are told of them (``Notice``).

A league is a club's (``club``) or the network's (no club), as a series is (``season``): a
club's is that club's alone, the network's is shown at every club and run by the network's
admins. Every row of a league is read through ``league_manager``: the rows of the club in
scope's leagues and of the network's. Each team has a home club (a club's league: its club);
a match day is played at its home team's club (``MatchDay.club``): that club's pages list it,
its desk acts on it (``MatchDay.hosted``, the walls of ``clubs.scoping``), its tables are
booked for it (``MatchDay.reservation``) and its marker's games count for it.

The fixtures, dates and standings are computed by the pure engine ``leagues.fixtures``.
"""

import datetime as dt

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.scoping import ClubInScope, ClubManager, club_in_scope, club_manager, walls_down
from games.models import default_variant, variant_choices
from leagues import fixtures
from players.models import Player
from tables.models import TableKind

TIE_BREAK_LABELS = {
    fixtures.POINTS: _("points"),
    fixtures.HEAD_TO_HEAD: _("head-to-head"),
    fixtures.FRAMES_DIFFERENCE: _("frames difference"),
    fixtures.FRAMES_WON: _("frames won"),
    fixtures.MATCHES_WON: _("matches won"),
}


def default_tie_breaks():
    return [fixtures.POINTS, fixtures.HEAD_TO_HEAD, fixtures.FRAMES_DIFFERENCE]


def default_format():
    return [{"race_to": 2} for _game in range(5)]


class CapKind(models.TextChoices):
    NONE = "none", _("No cap")
    RATING = "rating", _("Sum of ratings")
    CLASS = "class", _("Sum of class points")


class LeagueRowsManager(models.Manager):
    """The rows of the leagues shown at the club in scope: its own and the network's (by the
    league's ``club``, or, ``via``, by the club of the league they belong to). ``via`` is a
    class attribute, so that Django's related managers (subclasses made without arguments)
    keep it, as ``clubs.scoping.ClubManager`` does."""

    via = None

    def get_queryset(self):
        queryset = super().get_queryset()
        if walls_down():
            return queryset
        club = f"{self.via}__club" if self.via else "club"
        return queryset.filter(Q(**{club: ClubInScope()}) | Q(**{f"{club}__isnull": True}))

    def own(self):
        """The club in scope's own leagues' rows (not the network's)."""
        club = f"{self.via}__club" if self.via else "club"
        return self.get_queryset().filter(**{club: ClubInScope()})


def league_manager(via=None):
    name = f"LeagueRowsManagerVia{via.title().replace('_', '')}" if via else "LeagueRowsManager"
    return type(name, (LeagueRowsManager,), {"via": via})()


def default_starts_at():
    return dt.time(19, 0)


class League(models.Model):
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
        editable=False,
        help_text=_("Empty: the network's league."),
    )
    name = models.CharField(_("name"), max_length=100)
    variant = models.CharField(
        _("game"), max_length=40, choices=variant_choices, default=default_variant
    )
    win_points = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    draw_points = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    loss_points = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    frame_points = models.PositiveSmallIntegerField(_("points per frame won"), default=0)
    forfeit_penalty = models.PositiveSmallIntegerField(_("forfeit penalty (points)"), default=1)
    tie_breaks = models.JSONField(_("tie-breaks"), default=default_tie_breaks)
    cap_kind = models.CharField(
        _("team cap"), max_length=10, choices=CapKind.choices, default=CapKind.NONE
    )
    cap_limit = models.PositiveIntegerField(_("cap limit"), default=0)
    # The games of a match day, in order: each a race to N frames of the league's game,
    # singles ({"race_to": N}) or doubles ({"race_to": N, "doubles": true}).
    format = models.JSONField(_("format"), default=default_format)
    # The league night at the home club: a table booked from this time for these hours.
    starts_at = models.TimeField(_("league night starts at"), default=default_starts_at)
    hours = models.PositiveSmallIntegerField(
        _("hours booked"), default=3, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    table_kind = models.CharField(
        _("table kind"),
        max_length=16,
        choices=TableKind.choices,
        blank=True,
        help_text=_("Empty: any table."),
    )

    objects = league_manager()
    # Every club's leagues, for what works across the network on purpose (a backup).
    everywhere = models.Manager()  # noqa: DJ012 (after the default manager, on purpose)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name", "pk"]

    _for_network = False  # League(network=True): made as the network's

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if self._state.adding and self.club_id is None and not self._for_network:
            self.club_id = club_in_scope().pk
        super().save(*args, **kwargs)

    @property
    def network(self):
        """The network's league (no club): run by the network's admins, shown at every club.
        ``League(network=True)`` makes one; a league made without it is the club in scope's."""
        return self.club_id is None and (self._for_network or not self._state.adding)

    @network.setter
    def network(self, value):
        self._for_network = bool(value)

    @property
    def rules(self):
        return fixtures.Rules(
            win=self.win_points,
            draw=self.draw_points,
            loss=self.loss_points,
            per_frame=self.frame_points,
            forfeit_penalty=self.forfeit_penalty,
            tie_breaks=tuple(self.tie_breaks),
        )

    @property
    def games_per_match_day(self):
        return len(self.format)

    @property
    def has_doubles(self):
        return any(fixtures.is_doubles(game) for game in self.format)


class Division(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=100)

    objects = league_manager(via="league")

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["league", "name", "pk"]

    def __str__(self):
        return self.name


class Season(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    weekday = models.PositiveSmallIntegerField(_("weekday"), default=2)  # 0 = Monday
    holidays = models.JSONField(_("holidays"), default=list, blank=True)  # ISO dates
    double = models.BooleanField(_("double round robin"), default=False)

    objects = league_manager(via="league")

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-starts_on", "pk"]

    def __str__(self):
        return self.name


class Team(models.Model):
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="teams", verbose_name=_("season")
    )
    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="teams", verbose_name=_("division")
    )
    name = models.CharField(_("name"), max_length=100)
    captain = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("captain")
    )
    members = models.ManyToManyField("players.Player", related_name="+", verbose_name=_("members"))
    # Where it plays its home match days: a club's league's club; one of the network's clubs
    # for the network's league.
    home_club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, related_name="+", verbose_name=_("home club")
    )

    objects = league_manager(via="season__league")

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if self.home_club_id is None:
            self.home_club_id = self.season.league.club_id
        super().save(*args, **kwargs)

    def people(self):
        """Its members, persons of the network wherever their rosters are (``members.all()``
        reads the club in scope's roster only)."""
        through = Team.members.through.objects.filter(team_id=self.pk).values("player_id")
        return Player.everywhere.filter(pk__in=through)


class MatchDayStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    REVEALED = "revealed", _("Line-ups revealed")
    CLOSED = "closed", _("Closed")
    FORFEITED = "forfeited", _("Forfeited")


class MatchDay(models.Model):
    """One fixture: two teams on a date, at the home team's club (``club``), on the table
    booked for it there (``reservation``, a ``billing.Reservation``; ``table``: its table)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="match_days", verbose_name=_("season")
    )
    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="match_days", verbose_name=_("division")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    home = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("home team")
    )
    away = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("away team")
    )
    date = models.DateField(_("date"))
    table = models.ForeignKey(
        "tables.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=12, choices=MatchDayStatus.choices, default=MatchDayStatus.SCHEDULED
    )
    home_frames = models.PositiveSmallIntegerField(_("home team's frames"), default=0)
    away_frames = models.PositiveSmallIntegerField(_("away team's frames"), default=0)
    forfeit_by = models.ForeignKey(
        Team,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("forfeited by"),
    )
    # A postponement: a new date one captain proposes and the other accepts.
    proposed_date = models.DateField(null=True, blank=True)
    proposed_by = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    postponed_from = models.DateField(_("postponed from"), null=True, blank=True)
    # The home team's club: where it is played, listed and run.
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, related_name="+", verbose_name=_("club")
    )
    # The table booked at the club for the league night; kept (cancelled) for the history.
    reservation = models.ForeignKey(
        "billing.Reservation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reservation"),
    )
    # No table of the league's kind was free that evening when one was looked for.
    no_free_table = models.BooleanField(default=False)

    objects = league_manager(via="season__league")
    # The match days played at the club in scope (its desk's, its TV's, its marker's).
    hosted = ClubManager()

    class Meta:
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        ordering = ["date", "round", "pk"]

    def __str__(self):
        return f"{self.home} – {self.away}"

    @property
    def done(self):
        return self.status in (MatchDayStatus.CLOSED, MatchDayStatus.FORFEITED)


class LineUp(models.Model):
    """A team's players for a match day, in the order of the format's games. Hidden from
    everyone but its own captain until both line-ups are locked; before it is locked it is
    his draft (``saved_at``), which he may change."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="line_ups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    # One entry a game, in order: a player id for a singles game, a pair [id, id] for a
    # doubles game (a draft may leave a choice out: null).
    players = models.JSONField(default=list)
    cap_total = models.PositiveIntegerField(default=0)  # each distinct player counted once
    saved_at = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)

    objects = league_manager(via="match_day__season__league")

    class Meta:
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [
            models.UniqueConstraint(fields=["match_day", "team"], name="one_line_up_per_team")
        ]

    def __str__(self):
        return f"{self.team} · {self.match_day}"


class GameStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    SCORED = "scored", _("Scored, awaiting confirmation")
    CONFIRMED = "confirmed", _("Confirmed")


class MatchDayGame(models.Model):
    """One game of a match day: a race to N frames between a home and an away player, or
    between two pairs (doubles: the partners are set)."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="games")
    order = models.PositiveSmallIntegerField(_("game number"))
    race_to = models.PositiveSmallIntegerField(_("race to"), default=1)
    home_player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    away_player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    home_partner = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    away_partner = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    home_frames = models.PositiveSmallIntegerField(_("home frames"), default=0)
    away_frames = models.PositiveSmallIntegerField(_("away frames"), default=0)
    # The last frame played at a table (a games.Game counted here), if any.
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.WAITING)

    objects = league_manager(via="match_day__season__league")

    class Meta:
        verbose_name = _("match day game")
        verbose_name_plural = _("match day games")
        ordering = ["match_day", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match_day", "order"], name="one_game_per_order")
        ]

    def __str__(self):
        return f"{self.match_day} · {self.order}"

    @property
    def winner(self):
        if self.home_frames >= self.race_to:
            return "home"
        if self.away_frames >= self.race_to:
            return "away"
        return None

    @property
    def doubles(self):
        return self.home_partner_id is not None

    @property
    def home_names(self):
        """The home player's name, or the pair's: «Лена / Сокол»."""
        return _names(self.home_player, self.home_partner)

    @property
    def away_names(self):
        return _names(self.away_player, self.away_partner)


def _names(player, partner):
    if partner is None:
        return player.display_name
    return f"{player.display_name} / {partner.display_name}"


class NoticeKind(models.TextChoices):
    OPPONENT_LOCKED = "locked", _("the opponent locked the line-up")
    REVEALED = "revealed", _("the line-ups revealed")
    TO_CONFIRM = "confirm", _("a game to confirm")
    DATE_PROPOSED = "proposed", _("a new date proposed")
    DATE_ACCEPTED = "accepted", _("the new date accepted")
    FORFEIT = "forfeit", _("a forfeit")
    REMINDER = "reminder", _("a reminder to lock the line-up")


class Notice(models.Model):
    """What a captain is told of his match days: on his page, and once through the Telegram
    bot (``sent_at``; ``me.telegram`` delivers it as it does the ladders', club by club: a
    notice at its match day's club, ``hosted``). Said in words when read
    (``leagues.selectors.notice_text``), in the reader's language."""

    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, related_name="+", verbose_name=_("match day")
    )
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="+", verbose_name=_("captain")
    )
    kind = models.CharField(_("what"), max_length=10, choices=NoticeKind.choices)
    game = models.ForeignKey(
        MatchDayGame,
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        verbose_name=_("game"),
    )
    date = models.DateField(_("date"), null=True, blank=True)  # the date it speaks of
    at = models.DateTimeField(_("when"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent by the bot"), null=True, blank=True)

    objects = league_manager(via="match_day__season__league")
    # The notices of the match days played at the club in scope: the bot, going through
    # every club in turn, says each once (a network league's at its match day's club).
    hosted = club_manager(via="match_day")
    everywhere = models.Manager()  # noqa: DJ012 (ruff takes the manager above for a field)

    class Meta:
        verbose_name = _("league notice")
        verbose_name_plural = _("league notices")
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.player}: {self.kind}"
