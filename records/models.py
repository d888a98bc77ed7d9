"""The ratings, kept up to date game by game (``records.rating``).

A rating is a pure function of the finished games in order; these rows are that function's
value as of the last game the ledger names, brought up to date as each game finishes (so no
page recomputes them: a player page reads his rows). The ledger's figures (how many games,
the sum of their ids, the last one) tell when the stored games changed in another way (a
finish taken back): then they are recomputed from all the games.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.models import Player


class Rating(models.Model):
    """A player's current skill in a family of games (Glicko-2: the rating, its deviation and
    volatility), his rated games in it and when he last played one."""

    family = models.CharField(_("rating family"), max_length=32)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("deviation"), default=350.0)
    volatility = models.FloatField(_("volatility"), default=0.06)
    games = models.PositiveIntegerField(_("rated games"))
    last_played = models.DateTimeField(_("last rated game"), null=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["family", "player"], name="unique_rating_per_family")
        ]

    def __str__(self):
        return f"{self.family}: {self.player_id} {self.rating:.0f}"


class RatingPoint(models.Model):
    """A player's rating after one game (his rating's history, for the player page)."""

    family = models.CharField(_("rating family"), max_length=32)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game_id = models.PositiveIntegerField(_("game"))
    finished_at = models.DateTimeField(_("finished"))
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("deviation"), default=350.0)
    volatility = models.FloatField(_("volatility"), default=0.06)

    class Meta:
        verbose_name = _("rating history point")
        verbose_name_plural = _("rating history")
        indexes = [models.Index(fields=["family", "player", "finished_at", "game_id"])]

    def __str__(self):
        return f"{self.family}: {self.player_id} after {self.game_id}: {self.rating:.0f}"


class RatingLedger(models.Model):
    """What one family's stored ratings are up to: the games applied, in order."""

    family = models.CharField(_("rating family"), max_length=32, primary_key=True)
    count = models.PositiveIntegerField(default=0)  # games applied
    id_sum = models.BigIntegerField(default=0)  # the sum of their ids
    last_finished_at = models.DateTimeField(null=True)  # the last one applied
    last_game_id = models.PositiveIntegerField(null=True)
    stamp = models.CharField(max_length=64, blank=True)  # the newest finished game then

    class Meta:
        verbose_name = _("rating ledger")
        verbose_name_plural = _("rating ledgers")

    def __str__(self):
        return f"{self.family}: {self.count} games"


class PersonMerge(models.Model):
    """Two records of one person made one by a network admin: every row that named the
    ``source`` (his seats, entries, bills' payers, memberships…) names the ``target`` now,
    and ``moved`` says which ({"app.model.field": [ids]}), so that a second merge record
    (``undoes``) can move exactly those back. Nothing is deleted, neither way."""

    source = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("merged person")
    )
    target = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("into")
    )
    moved = models.JSONField(_("rows moved"), default=dict, editable=False)
    # The rows that could not move (the target has one of his own: both on one club's roster)
    kept = models.JSONField(_("rows kept"), default=dict, editable=False)
    undoes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="undone_by",
        verbose_name=_("undoes"),
    )
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    merged_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-merged_at", "-pk"]
        verbose_name = _("merge of two people")
        verbose_name_plural = _("merges of people")

    def __str__(self):
        return f"{self.source_id} → {self.target_id}"

    @property
    def rows(self):
        return sum(len(ids) for ids in self.moved.values())
