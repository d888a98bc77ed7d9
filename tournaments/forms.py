"""Forms: a match (two players, the game and its settings, the race, the break, a head
start) and a tournament (name, date, game, format, races per stage, seeding)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games import rules
from games.forms import SETTING_PREFIX, free_tables, setting_form_field
from players.models import Player
from tournaments import selectors
from tournaments.models import MAX_RACE, BreakRule, Side, Tournament


def match_variant_choices():
    return [(v.key, v.name.render(_translate)) for v in selectors.match_variants()]


def _translate(msgid):
    from django.utils.translation import gettext

    return gettext(msgid)


class SettingsMixin:
    """The chosen game's own settings (its handicap among them) as fields ``s_<name>``."""

    def add_setting_fields(self, variant_key):
        self.rules_variant = rules.get_variant(variant_key)
        self.setting_names = []
        for setting in self.rules_variant.settings_fields:
            if setting.name == "players":
                continue
            self.fields[SETTING_PREFIX + setting.name] = setting_form_field(setting)
            self.setting_names.append(setting.name)

    def setting_fields(self):
        return [self[SETTING_PREFIX + name] for name in self.setting_names]

    def game_settings(self):
        return {name: self.cleaned_data[SETTING_PREFIX + name] for name in self.setting_names}


def _variant_from(data, initial, default):
    key = (data or {}).get("variant") or (initial or {}).get("variant") or default
    keys = [v.key for v in selectors.match_variants()]
    return key if key in keys else (keys[0] if keys else default)


class MatchForm(SettingsMixin, forms.Form):
    table = forms.ModelChoiceField(
        queryset=None,
        label=_("Table"),
        empty_label=None,
        error_messages={"invalid_choice": _("This table is not free.")},
    )
    variant = forms.ChoiceField(label=_("Game"))
    player_a = forms.ModelChoiceField(
        queryset=None, required=False, label=_("Player A"), empty_label="—"
    )
    guest_a = forms.CharField(required=False, max_length=150, label=_("or a guest"))
    player_b = forms.ModelChoiceField(
        queryset=None, required=False, label=_("Player B"), empty_label="—"
    )
    guest_b = forms.CharField(required=False, max_length=150, label=_("or a guest"))
    race_to = forms.IntegerField(
        label=_("Race to (frames)"), min_value=1, max_value=MAX_RACE, initial=3
    )
    first_break = forms.ChoiceField(label=_("Breaks first"), choices=Side.choices, initial="a")
    break_rule = forms.ChoiceField(
        label=_("Then"), choices=BreakRule.choices, initial=BreakRule.ALTERNATE
    )
    head_start_a = forms.IntegerField(
        label=_("Head start of A (frames)"), min_value=0, max_value=MAX_RACE - 1, initial=0
    )
    head_start_b = forms.IntegerField(
        label=_("Head start of B (frames)"), min_value=0, max_value=MAX_RACE - 1, initial=0
    )

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(is_active=True).order_by("full_name")
        self.fields["player_a"].queryset = players
        self.fields["player_b"].queryset = players
        self.fixed_table = table
        if table is not None:
            self.fields["table"].queryset = type(table).objects.filter(pk=table.pk)
            self.fields["table"].initial = table.pk
            self.fields["table"].widget = forms.HiddenInput()
        else:
            self.fields["table"].queryset = free_tables()
        self.fields["variant"].choices = match_variant_choices()
        variant = _variant_from(self.data if self.is_bound else None, self.initial, "clockwise")
        self.fields["variant"].initial = variant
        self.add_setting_fields(variant)

    def _side(self, key):
        player = self.cleaned_data.get(f"player_{key}")
        guest = (self.cleaned_data.get(f"guest_{key}") or "").strip()
        return player if player is not None else guest

    def start_arguments(self):
        data = self.cleaned_data
        return {
            "table": data["table"],
            "variant": data["variant"],
            "a": self._side("a"),
            "b": self._side("b"),
            "race_to": data["race_to"],
            "first_break": data["first_break"],
            "break_rule": data["break_rule"],
            "head_start_a": data["head_start_a"],
            "head_start_b": data["head_start_b"],
            "settings": self.game_settings(),
        }

    def add_service_errors(self, error):
        for key, messages in error.message_dict.items():
            field = key if key in self.fields else None
            if key == "head_start":
                field = "head_start_b"
            for message in messages:
                self.add_error(field, message)


class TournamentForm(forms.ModelForm):
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
            "rules",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "rules": forms.Textarea(attrs={"rows": 4}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"] = forms.ChoiceField(label=_("Game"), choices=match_variant_choices())
        self.fields["groups"].min_value = 1
        self.fields["groups"].widget.attrs["min"] = 1

    def clean(self):
        data = super().clean()
        fmt = data.get("format")
        if fmt != "round_robin":
            data["groups"], data["advance"] = 1, 0
        elif (data.get("groups") or 1) > 1 and not data.get("advance"):
            self.add_error("advance", _("Several groups need a number going on to the knockout."))
        return data


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
