"""A series (a cup, a championship, a ranking): its stages, each a tournament, and the
rules that add their places up into a table (``season.standings``).

A series is a club's (``club``) or the network's (no club): a club's is edited by that
club's admins only, the network's by the network's admins; its pages are public. A network
series may group tournaments of several clubs: its stages are read across the walls on
purpose (``season.selectors``)."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.scoping import club_in_scope
from season import standings


class PointsTable(models.TextChoices):
    CHAMPIONSHIP = "championship", _("Championship (100, 80, 65, 65, 50…)")
    RANKING = "ranking", _("Ranking stage (50, 40, 32, 32, 25…)")
    CLUB = "club", _("Club evening (10, 8, 6, 6, 4…)")
    CUSTOM = "custom", _("Own table")


class Criterion(models.TextChoices):
    POINTS = "points", _("points")
    BEST_PLACE = "best_place", _("best place")
    HEAD_TO_HEAD = "head_to_head", _("head-to-head")
    RATING = "rating", _("rating")
    EVENTS = "events", _("number of events")


class SeriesQuerySet(models.QuerySet):
    def visible(self):
        """The series shown at the club in scope: its own and the network's."""
        return self.filter(Q(club__isnull=True) | Q(club=club_in_scope()))


class Series(models.Model):
    name = models.CharField(_("name"), max_length=150)
    season = models.CharField(_("season"), max_length=40, help_text=_("e.g. 2026 or 2026/27"))
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
        editable=False,
        help_text=_("Empty: the network's series."),
    )
    best_n = models.PositiveSmallIntegerField(
        _("best results that count"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Empty: every result counts."),
    )
    per_month = models.PositiveSmallIntegerField(
        _("best results a month"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(31)],
        help_text=_("Instead of the best results: the best of each month…"),
    )
    best_months = models.PositiveSmallIntegerField(
        _("…of the best months"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
    )
    chain = models.JSONField(_("tie-breaks"), default=list, blank=True)
    final_size = models.PositiveSmallIntegerField(
        _("players in the final"),
        default=8,
        validators=[MinValueValidator(1), MaxValueValidator(128)],
    )
    wildcards = models.ManyToManyField(
        "players.Player", blank=True, related_name="+", verbose_name=_("wildcards")
    )
    norms = models.JSONField(_("class norms"), default=list, blank=True)
    finished = models.BooleanField(_("finished"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SeriesQuerySet.as_manager()

    class Meta:
        ordering = ["-season", "name", "pk"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self):
        return f"{self.name} {self.season}"


class Stage(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="stages")
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(_("stage"), validators=[MinValueValidator(1)])
    table = models.CharField(
        _("points table"), max_length=16, choices=PointsTable.choices, default=PointsTable.RANKING
    )
    custom_points = models.JSONField(_("own points"), default=list, blank=True)
    scaled = models.BooleanField(
        _("scale by the event's value"),
        default=False,
        help_text=_("The points times the field's strength and the race's length."),
    )
    is_final = models.BooleanField(_("the final"), default=False)

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="one_stage_per_number"),
            models.UniqueConstraint(
                fields=["series", "tournament"], name="one_stage_per_tournament"
            ),
        ]

    def __str__(self):
        return f"{self.series} · {self.number}"

    def points(self):
        """The points by position (the preset's or the admin's own)."""
        if self.table == PointsTable.CUSTOM:
            return standings.points_table(self.custom_points or [0])
        return standings.points_table(self.table)
