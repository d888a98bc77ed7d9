from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.scoping import ClubOwned


class TableKind(models.TextChoices):
    PYRAMID_12 = "pyramid_12", _("Pyramid, 12 ft")
    PYRAMID_11 = "pyramid_11", _("Pyramid, 11 ft")
    PYRAMID_10 = "pyramid_10", _("Pyramid, 10 ft")
    PYRAMID_9 = "pyramid_9", _("Pyramid, 9 ft")


class TableStatus(models.TextChoices):
    FREE = "free", _("Free")
    IN_PLAY = "in_play", _("In play")
    OUT_OF_SERVICE = "out_of_service", _("Out of service")


class Table(ClubOwned):
    number = models.PositiveSmallIntegerField(
        _("number"),
        validators=[MinValueValidator(1)],
    )
    name = models.CharField(_("name"), max_length=80, blank=True)
    kind = models.CharField(
        _("kind"), max_length=16, choices=TableKind.choices, default=TableKind.PYRAMID_12
    )
    is_active = models.BooleanField(_("active"), default=True)
    out_of_service = models.BooleanField(_("out of service"), default=False)
    # The MQTT topic of the relay that switches the table's light (Tasmota's "Topic", e.g.
    # "table3"); empty: no relay (the lights app drives the relays).
    light_topic = models.CharField(
        _("light relay topic"),
        max_length=64,
        blank=True,
        validators=[
            RegexValidator(
                r"^[A-Za-z0-9_-]+$",
                _("Letters, digits, - and _ only, as the relay's Topic is set (e.g. table3)."),
            )
        ],
        help_text=_("The Topic set on the table's light relay (Tasmota), e.g. table3."),
    )

    class Meta:
        ordering = ["number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "number"],
                name="unique_table_number_per_club",
                violation_error_message=_("A table with this number already exists."),
            ),
            models.UniqueConstraint(
                fields=["light_topic"],
                condition=~models.Q(light_topic=""),
                name="unique_light_topic",
                violation_error_message=_("Another table's light has this relay topic."),
            ),
        ]

    def __str__(self):
        return f"№{self.number} {self.name}".strip()
