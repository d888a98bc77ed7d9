from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

phone_validator = RegexValidator(
    r"^\+?[0-9][0-9 ()\-]{5,20}$",
    _("Enter a phone number of digits, spaces, brackets and dashes, e.g. +7 912 345-67-89."),
)


class SkillClass(models.TextChoices):
    """Sports classification used by Russian billiards clubs (спортивные разряды и звания)."""

    NOVICE = "novice", _("No class (novice)")
    THIRD = "3", _("3rd class")
    SECOND = "2", _("2nd class")
    FIRST = "1", _("1st class")
    CANDIDATE_MASTER = "cms", _("Candidate for Master of Sport")
    MASTER = "ms", _("Master of Sport")


class Player(models.Model):
    full_name = models.CharField(_("full name"), max_length=150)
    nickname = models.CharField(
        _("nickname"), max_length=50, blank=True, help_text=_("Shown on the boards when set.")
    )
    phone = models.CharField(_("phone"), max_length=32, blank=True, validators=[phone_validator])
    email = models.EmailField(_("email"), blank=True)
    skill_class = models.CharField(
        _("skill class"), max_length=8, choices=SkillClass.choices, default=SkillClass.NOVICE
    )
    is_active = models.BooleanField(_("active"), default=True)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["full_name", "nickname"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["full_name", "nickname"],
                condition=Q(is_active=True),
                name="unique_active_player_name",
                violation_error_message=_(
                    "An active player with this full name and nickname already exists."
                ),
            )
        ]

    def __str__(self):
        return self.display_name

    @property
    def display_name(self):
        """What the boards show: the nickname when set, else the full name."""
        return self.nickname or self.full_name
