import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.current import current_club, only_club
from clubs.scoping import ClubInScope, ClubOwned, all_clubs, walls_down

PHONE_CHARS = re.compile(r"^\+?[0-9 ()\-]+$")
NOTES_MAX_LENGTH = 2000  # a few paragraphs; the forms, the admin and the CSV import refuse more


def validate_phone(value):
    """A phone number: an optional leading +, then 7 to 15 digits with spaces, () and -."""
    digits = sum(char.isdigit() for char in value)
    if not PHONE_CHARS.match(value) or not 7 <= digits <= 15:
        raise ValidationError(
            _(
                "Enter a phone number of 7 to 15 digits; spaces, brackets and dashes "
                "are allowed, e.g. +7 912 345-67-89."
            ),
            code="invalid_phone",
        )


def normalize_name(value):
    """Trim a name and collapse runs of whitespace, so "Иван  Петров " == "Иван Петров"."""
    return " ".join((value or "").split())


def search_key(*parts):
    """Lower-cased text for searching: Unicode-aware (SQLite's LIKE is not) and ё == е."""
    return " ".join(part for part in parts if part).casefold().replace("ё", "е")


def name_key_for(full_name, nickname):
    """Who a player is on the roster: his names, whatever their case, spacing or ё/е."""
    return f"{search_key(normalize_name(full_name))}|{search_key(normalize_name(nickname))}"


class SkillClass(models.TextChoices):
    """Sports classification used by Russian billiards clubs (спортивные разряды и звания)."""

    NOVICE = "novice", _("No class (novice)")
    THIRD = "3", _("3rd class")
    SECOND = "2", _("2nd class")
    FIRST = "1", _("1st class")
    CANDIDATE_MASTER = "cms", _("Candidate for Master of Sport")
    MASTER = "ms", _("Master of Sport")


class PlayerOrGuest(models.Model):
    """A place taken by a player from the roster (the subclass's ``player`` link) or by a guest
    by name; the subclass's constraints require one of the two."""

    guest_name = models.CharField(_("guest"), max_length=150, blank=True)

    class Meta:
        abstract = True

    def __str__(self):
        return self.name

    @property
    def name(self):
        return self.player.display_name if self.player_id else self.guest_name


class MembersManager(models.Manager):
    """The people of the club in scope's roster: its members (``Membership``). A person of
    the network is one ``Player`` with a membership in each club he plays at; a club reads,
    edits and exports only its members (their phones, e-mails and notes), and within
    ``all_clubs()`` every person. ``Player.everywhere`` is the network's people, for what is
    public across clubs (a player's page, his records) and the network admin's merges."""

    def get_queryset(self):
        queryset = super().get_queryset()
        if walls_down():
            return queryset
        return queryset.filter(
            models.Exists(
                Membership.everywhere.filter(player=models.OuterRef("pk"), club=ClubInScope())
            )
        )

    def bulk_create(self, objs, *args, **kwargs):
        """New people made in bulk join the club in scope's roster, as those saved one by
        one (``Player.save``); an "insert or update" of existing people changes no roster."""
        objs = super().bulk_create(objs, *args, **kwargs)
        club = None if kwargs.get("update_conflicts") else current_club() or only_club()
        if club is not None and club.pk is not None:
            Membership.everywhere.bulk_create(
                [Membership(club=club, player=obj) for obj in objs if obj.pk],
                batch_size=1000,
                ignore_conflicts=True,
            )
        return objs


class Player(models.Model):
    full_name = models.CharField(_("full name"), max_length=150)
    nickname = models.CharField(
        _("nickname"), max_length=50, blank=True, help_text=_("Shown on the boards when set.")
    )
    phone = models.CharField(_("phone"), max_length=32, blank=True, validators=[validate_phone])
    email = models.EmailField(_("email"), blank=True)
    skill_class = models.CharField(
        _("skill class"), max_length=8, choices=SkillClass.choices, default=SkillClass.NOVICE
    )
    is_active = models.BooleanField(_("active"), default=True)
    notes = models.TextField(
        _("notes"),
        blank=True,
        max_length=NOTES_MAX_LENGTH,  # for the forms; the validator for anything else
        validators=[MaxLengthValidator(NOTES_MAX_LENGTH)],
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # The player's own account, for his phone (``me``: made by a sign-in link from the desk).
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="player",
        verbose_name=_("account"),
    )
    # Derived on save from the name, nickname, phone and email: what the live search matches.
    search_text = models.CharField(max_length=400, blank=True, editable=False, db_index=True)
    # Derived on save and on clean: two active players may not share it (see name_key_for()).
    name_key = models.CharField(max_length=210, blank=True, editable=False)

    objects = MembersManager()
    everywhere = models.Manager()  # noqa: DJ012 (after the default manager, on purpose)

    class Meta:
        base_manager_name = "everywhere"  # a seat's player is found wherever he is a member
        ordering = ["full_name", "nickname"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["name_key"],
                condition=Q(is_active=True),
                name="unique_active_player_name",
                violation_error_message=_(
                    "An active player with this full name and nickname already exists."
                ),
            )
        ]

    def __str__(self):
        return self.display_name

    def save(self, *args, **kwargs):
        self.derive_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "search_text", "name_key"}
        adding = self._state.adding
        super().save(*args, **kwargs)
        if adding:
            join_club(self)

    def derive_keys(self):
        """What the search and the unique name match: set on every save (call it yourself
        before bulk_create or bulk_update, which do not save)."""
        self.search_text = search_key(self.full_name, self.nickname, self.phone, self.email)
        self.name_key = name_key_for(self.full_name, self.nickname)

    @property
    def display_name(self):
        """What the boards show: the nickname when set, else the full name."""
        return self.nickname or self.full_name

    def validate_constraints(self, exclude=None):
        # The unique active name is the network's: checked against every club's people.
        with all_clubs():
            super().validate_constraints(exclude=exclude)

    def clean(self):
        self.full_name = normalize_name(self.full_name)
        self.nickname = normalize_name(self.nickname)
        self.name_key = name_key_for(self.full_name, self.nickname)
        if not self.full_name:
            raise ValidationError({"full_name": _("Enter the player's full name.")})

    @property
    def has_played(self):
        """A player who sat at a game is kept for the records: deactivate, never delete."""
        return self.seats.exists()


class Membership(ClubOwned):
    """A person on a club's roster: a member, or a guest who played there (``is_guest``)."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    is_guest = models.BooleanField(_("guest"), default=False)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["club", "player"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")
        ]

    def __str__(self):
        return f"{self.player} @ {self.club}"


def join_club(player, club=None, guest=False):
    """Put ``player`` on the roster of ``club`` (the club in scope by default) unless he is
    on it; returns the membership, or None outside any club (a network's process)."""
    club = club or current_club() or only_club()
    if club is None or club.pk is None:
        return None
    membership, _created = Membership.everywhere.get_or_create(
        club=club, player=player, defaults={"is_guest": guest}
    )
    return membership
