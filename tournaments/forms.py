"""Forms: a match (two players, the game and its settings, the race, the break, a head
start) and a tournament (name, date, game, format, races per stage, the handicap and the
game's settings of every frame), an entrant."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.forms import SETTING_PREFIX, GameSettingsMixin, SeatsFormMixin
from games.i18n import render_message
from games.models import default_variant
from players.models import Player
from toolbox import forms as ascii_forms
from tournaments import selectors
from tournaments.models import MAX_RACE, BreakRule, Side, Tournament


def match_variant_choices():
    return [(v.key, render_message(v.name)) for v in selectors.match_variants()]


class MatchForm(SeatsFormMixin, forms.Form):
    """A match: the table, the game and its settings, the two players picked like the start
    form's seats (a roster search or a guest by name: A, then B), the race and the break."""

    table = forms.ModelChoiceField(
        queryset=None,
        label=_("Table"),
        empty_label=None,
        error_messages={"invalid_choice": _("This table is not free.")},
    )
    variant = forms.ChoiceField(label=_("Game"))
    seats = forms.Field(required=False, widget=forms.MultipleHiddenInput)
    race_to = ascii_forms.IntegerField(
        label=_("Race to (frames)"), min_value=1, max_value=MAX_RACE, initial=3
    )
    first_break = forms.ChoiceField(label=_("Breaks first"), choices=Side.choices, initial="a")
    break_rule = forms.ChoiceField(
        label=_("Then"), choices=BreakRule.choices, initial=BreakRule.ALTERNATE
    )
    head_start_a = ascii_forms.IntegerField(
        label=_("Head start of A (frames)"), min_value=0, max_value=MAX_RACE - 1, initial=0
    )
    head_start_b = ascii_forms.IntegerField(
        label=_("Head start of B (frames)"), min_value=0, max_value=MAX_RACE - 1, initial=0
    )
    MATCH_FIELDS = ("race_to", "first_break", "break_rule", "head_start_a", "head_start_b")

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = match_variant_choices()
        self.setup_table_and_settings(table)
        self.fields["variant"].initial = self.rules_variant.key

    def variant_keys(self):
        return [v.key for v in selectors.match_variants()]

    @property
    def seat_entries(self):
        entries = super().seat_entries
        for entry, mark in zip(
            entries, (pgettext("match side", "A"), pgettext("match side", "B")), strict=False
        ):
            entry.mark = mark
        return entries

    @property
    def seats_full(self):
        return len(self.seat_entries) >= 2

    def match_fields(self):
        return [self[name] for name in self.MATCH_FIELDS]

    def clean_seats(self):
        seats = super().clean_seats()
        if len(seats) != 2:
            raise ValidationError(_("A match is between two players: add both."), code="two")
        return seats

    def start_arguments(self):
        data = self.cleaned_data
        arguments = {name: data[name] for name in ("table", "variant", *self.MATCH_FIELDS)}
        arguments["a"], arguments["b"] = data["seats"]
        return arguments | {"settings": self.game_settings()}

    def add_service_errors(self, error, aliases=None):
        aliases = {"player_a": "seats", "player_b": "seats", "head_start": "head_start_b"}
        super().add_service_errors(error, aliases)


def seat_role(label):
    """A tournament's choice of seat names the role, not a player: seat 1 is the stronger."""
    if label.params.get("seat") == 1:
        return gettext("the stronger player (player A without a handicap)")
    return gettext("the weaker player (player B without a handicap)")


# Players sign themselves up from the tournament's page, and check in (``me``).
ENTRY_FIELDS = (
    "start_time",
    "registration_open",
    "registration_limit",
    "registration_deadline",
    "registration_approval",
    "checkin_minutes",
    "absent_policy",
    "no_show_minutes",
)


class TournamentForm(GameSettingsMixin, ascii_forms.ModelForm):
    """A tournament: name, date, game, format, races, the break, the handicap and the game's
    settings for every frame. Choosing another game (``op=variant``) shows its settings."""

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "variant",
            "format",
            "groups",
            "advance",
            "race_upper",
            "race_lower",
            "race_final",
            "race_group",
            "break_rule",
            "handicap",
            "head_start",
            "rules",
            *ENTRY_FIELDS,
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "rules": forms.Textarea(attrs={"rows": 4}),
            "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "registration_deadline": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    HANDICAP_FIELDS = ("handicap", "head_start")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        keys = [v.key for v in selectors.match_variants()]
        self.fields["variant"] = forms.ChoiceField(label=_("Game"), choices=match_variant_choices())
        self.fields["groups"].min_value = 1
        self.fields["groups"].widget.attrs["min"] = 1
        for name in ("checkin_minutes", "absent_policy", "no_show_minutes"):
            self.fields[name].required = False  # left out: the model's default
        key = (self.data.get("variant") if self.is_bound else None) or self.initial.get("variant")
        key = key or self.instance.variant
        if key not in keys:
            key = default_variant() if default_variant() in keys else keys[0]
        self.fields["variant"].initial = key
        stored = self.instance.settings if key == self.instance.variant else None
        self.add_setting_fields(key, stored)
        self.label_seat_choices(seat_role)

    def tournament_fields(self):
        """The bound fields of the tournament itself (not its handicap or game settings)."""
        skip = {
            *self.HANDICAP_FIELDS,
            *ENTRY_FIELDS,
            *(SETTING_PREFIX + n for n in self.setting_names),
        }
        return [field for field in self if field.name not in skip]

    def handicap_fields(self):
        return [self[name] for name in self.HANDICAP_FIELDS]

    def entry_fields(self):
        return [self[name] for name in ENTRY_FIELDS]

    def clean(self):
        data = super().clean()
        fmt = data.get("format")
        if fmt != "round_robin":
            data["groups"], data["advance"] = 1, 0
        elif (data.get("groups") or 1) > 1 and not data.get("advance"):
            self.add_error("advance", _("Several groups need a number going on to the knockout."))
        for name in ("checkin_minutes", "absent_policy", "no_show_minutes"):
            if data.get(name) in (None, ""):
                data[name] = Tournament._meta.get_field(name).default
        if data.get("checkin_minutes") and not data.get("start_time"):
            self.add_error("start_time", _("A check-in needs the start time."))
        self.check_game_settings(players=2)
        return data

    def save(self, commit=True):
        self.instance.settings = self.game_settings()
        return super().save(commit)


class EntrantForm(forms.Form):
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), required=False, label=_("Player"), empty_label="—"
    )
    guest_name = forms.CharField(required=False, max_length=150, label=_("or a guest"))

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        entered = tournament.entrants.exclude(player=None).values("player") if tournament else []
        self.fields["player"].queryset = (
            Player.objects.filter(is_active=True).exclude(pk__in=entered).order_by("full_name")
        )
