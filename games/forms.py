"""The marker's start-a-game form: table, game, seats in playing order, the game's settings.

The settings fields are generated from the rules engine's ``variant.settings_fields`` with
their defaults prefilled. Seats are posted as ordered ``seats`` tokens: ``p:<player pk>`` for
a roster player, ``g:<name>`` for a guest. While the marker edits the seats (add, move,
remove) the form is re-rendered unbound from the posted values, so no error shows until he
presses "Start".
"""

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _

from games import rules, selectors
from games.i18n import render_message
from games.models import default_variant, variant_choices
from players.models import Player
from tables.models import Table
from toolbox import forms as ascii_forms
from toolbox.parsing import parse_id

SETTING_PREFIX = "s_"
PLAYER, GUEST = "p:", "g:"


def parse_seat_token(token):
    """``p:<pk>`` -> the pk (int), ``g:<name>`` -> the name (str, stripped, maybe empty),
    anything else -> None. The one reader of the seat tokens the start form posts."""
    if token.startswith(PLAYER):
        return parse_id(token[len(PLAYER) :])  # None for "p:²" or five thousand digits
    if token.startswith(GUEST):
        return token[2:].strip()
    return None


def seated_player_ids(tokens):
    """The roster players' pks among the seat tokens, in order."""
    return [pk for pk in map(parse_seat_token, tokens) if isinstance(pk, int)]


def seats_from_tokens(tokens):
    """What each seat token stands for, in order: a Player, a guest's name (str), or None (a
    malformed token or an unknown player). One query."""
    players = Player.objects.in_bulk(seated_player_ids(tokens))
    seats = []
    for parsed in map(parse_seat_token, tokens):
        seats.append(players.get(parsed) if isinstance(parsed, int) else parsed)
    return seats


def setting_form_field(setting):
    """A form field for one ``rules.SettingField``, its default as the initial value."""
    common = {
        "label": render_message(setting.label),
        "help_text": render_message(setting.help) if setting.help else "",
        "initial": setting.default,
    }
    if setting.kind == "int":
        return ascii_forms.IntegerField(
            min_value=setting.min_value, max_value=setting.max_value, **common
        )
    if setting.kind == "choice":
        choices = [(value, render_message(label)) for value, label in setting.choices]
        return forms.ChoiceField(choices=choices, **common)
    if setting.kind == "bool":
        return forms.BooleanField(required=False, **common)
    raise ValueError(f"unknown setting kind {setting.kind!r}")


def seat_label(label, names):
    """ "Player 1 — Иван" for a seat already taken, "Player 1" for an empty one."""
    seat = label.params["seat"]
    text = render_message(label)
    return f"{text} — {names[seat - 1]}" if seat <= len(names) else text


class SeatEntry:
    """One seat as the form shows it."""

    def __init__(self, token, name, guest, mark=None):
        self.token, self.name, self.guest = token, name, guest
        self.mark = mark  # what the list shows before the name; None: its position


class GameSettingsMixin:
    """A form's fields for the chosen game's own settings (``s_<name>``, the engine's
    ``variant.settings_fields`` but the number of players): the start form, a match's and a
    tournament's."""

    def add_setting_fields(self, variant_key, values=None):
        """Adds the fields of ``variant_key``'s settings; ``values`` (a dict of settings by
        name, e.g. stored ones) become their initial values."""
        self.rules_variant = rules.get_variant(variant_key)
        self.setting_names = []
        for setting in self.rules_variant.settings_fields:
            if setting.name == "players":
                continue
            field = setting_form_field(setting)
            if values and setting.name in values:
                field.initial = values[setting.name]
            self.fields[SETTING_PREFIX + setting.name] = field
            self.setting_names.append(setting.name)

    def setting_fields(self):
        return [self[SETTING_PREFIX + name] for name in self.setting_names]

    def label_seat_choices(self, label):
        """Relabels each choice of a seat ("Player 1" / "Player 2": who gives the handicap,
        who takes the cue) with ``label(message)``."""
        for setting in self.rules_variant.settings_fields:
            if setting.name in self.setting_names and setting.choices == rules.SEAT_CHOICES:
                self.fields[SETTING_PREFIX + setting.name].choices = [
                    (value, label(message)) for value, message in setting.choices
                ]

    def game_settings(self):
        """The settings as cleaned (after ``is_valid()``), by name."""
        return {name: self.cleaned_data[SETTING_PREFIX + name] for name in self.setting_names}

    def check_game_settings(self, players):
        """Has the engine check the cleaned settings for ``players`` players (from
        ``clean()``); what it refuses is shown next to the setting."""
        if any(SETTING_PREFIX + name not in self.cleaned_data for name in self.setting_names):
            return  # a field's own error is shown already
        try:
            self.rules_variant.settings_from_dict({**self.game_settings(), "players": players})
        except rules.SettingsError as error:
            for name, message in error.errors.items():
                key = SETTING_PREFIX + name
                self.add_error(key if key in self.fields else None, render_message(message))


class SeatsFormMixin(GameSettingsMixin):
    """What the start form and a match's form share: the table (fixed, or a free one to
    pick), the seats in playing order posted as ``seats`` tokens and edited without starting
    (``edited``), and the chosen game's settings.

    A form using it declares the fields ``table``, ``variant`` and ``seats`` and calls
    ``setup_table_and_settings`` from its ``__init__``.
    """

    def setup_table_and_settings(self, table):
        self.fixed_table = table
        table_field = self.fields["table"]
        if table is not None:
            table_field.queryset = Table.objects.filter(pk=table.pk)
            table_field.initial = table.pk
            table_field.widget = forms.HiddenInput()
        else:
            table_field.queryset = selectors.free_tables()
        self.add_setting_fields(self._variant_key())
        self._entries = None

    # --- the chosen game and the seats ---------------------------------------------------

    def variant_keys(self):
        """The games this form offers."""
        return rules.VARIANTS

    def _variant_key(self):
        key = self.data.get("variant") if self.is_bound else None
        key = key or self.initial.get("variant")
        if key in self.variant_keys():
            return key
        default = default_variant()
        return default if default in self.variant_keys() else next(iter(self.variant_keys()))

    def seat_tokens(self):
        if self.is_bound:
            return self.data.getlist("seats") if hasattr(self.data, "getlist") else []
        return list(self.initial.get("seats", []))

    @property
    def seat_entries(self):
        """The seats in playing order, players' names resolved in one query."""
        if self._entries is None:
            tokens = self.seat_tokens()
            entries = []
            for token, seat in zip(tokens, seats_from_tokens(tokens), strict=True):
                if isinstance(seat, Player):
                    entries.append(SeatEntry(token, seat.display_name, guest=False))
                elif seat:  # a guest's name
                    entries.append(SeatEntry(token, seat, guest=True))
            self._entries = entries
        return self._entries

    def seated_player_ids(self):
        return seated_player_ids(e.token for e in self.seat_entries)

    @property
    def seats_full(self):
        """True when no seat is left to add (the form then offers no search)."""
        return False

    def setting_fields(self):
        """The bound fields of the game's settings, for the template.

        A choice of seat ("Player 1" / "Player 2": who gives the handicap, who takes the cue)
        also names the player in that seat, as the marker has seated them.
        """
        names = [entry.name for entry in self.seat_entries]
        self.label_seat_choices(lambda label: seat_label(label, names))
        return super().setting_fields()

    # --- validation ----------------------------------------------------------------------

    def clean_seats(self):
        seats = seats_from_tokens(self.data.getlist("seats"))
        if None in seats:
            raise ValidationError(_("Unknown player."), code="unknown_player")
        if not seats:
            raise ValidationError(_("Add the players."), code="no_players")
        return seats

    def add_service_errors(self, error, aliases=None):
        """Shows a ValidationError from a start service next to the right fields
        (``aliases``: the service's key → this form's field)."""
        for key, messages in error.message_dict.items():
            key = (aliases or {}).get(key, key)
            if key == NON_FIELD_ERRORS:
                field = None
            elif key in self.fields:
                field = key
            elif SETTING_PREFIX + key in self.fields:
                field = SETTING_PREFIX + key
            else:
                field = None
            for message in messages:
                self.add_error(field, message)

    # --- editing the seats without starting -----------------------------------------------

    @classmethod
    def edited(cls, data, op, *, table=None):
        """An unbound form showing ``data`` after the editing operation ``op``.

        ``op``: ``add:<pk>`` (a roster player), ``guest`` (the name in ``guest``), ``up:<i>``,
        ``down:<i>``, ``remove:<i>`` (a seat), ``variant`` (another game: its default
        settings). Anything else just re-renders. Every other posted field is kept.
        """
        tokens = list(data.getlist("seats"))
        action, _sep, arg = op.partition(":")
        index = parse_id(arg)
        if action == "add" and index is not None and f"{PLAYER}{index}" not in tokens:
            tokens.append(f"{PLAYER}{index}")
        elif action in ("guest", "enter") and data.get("guest", "").strip():
            tokens.append(GUEST + data["guest"].strip())
        elif index is not None and index < len(tokens):
            if action == "remove":
                del tokens[index]
            elif action == "up" and index > 0:
                tokens[index - 1], tokens[index] = tokens[index], tokens[index - 1]
            elif action == "down" and index + 1 < len(tokens):
                tokens[index + 1], tokens[index] = tokens[index], tokens[index + 1]
        initial = {"variant": data.get("variant"), "seats": tokens}
        if table is None and data.get("table"):
            initial["table"] = data.get("table")
        form = cls(initial=initial, table=table)
        settings = {SETTING_PREFIX + name for name in form.setting_names}
        for key, field in form.fields.items():
            if key in ("table", "variant", "seats") or (action == "variant" and key in settings):
                continue
            if key in data:
                form.initial[key] = data.get(key)
            elif isinstance(field, forms.BooleanField):
                form.initial[key] = False
        return form


class StartGameForm(SeatsFormMixin, forms.Form):
    table = forms.ModelChoiceField(
        queryset=Table.objects.none(),
        label=_("Table"),
        empty_label=None,
        error_messages={"invalid_choice": _("This table is not free.")},
    )
    variant = forms.ChoiceField(label=_("Game"), choices=variant_choices, initial=default_variant)
    seats = forms.Field(required=False, widget=forms.MultipleHiddenInput)

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.setup_table_and_settings(table)

    def start_arguments(self):
        """Keyword arguments for ``services.start_game`` (after ``is_valid()``)."""
        data = self.cleaned_data
        return {
            "table": data["table"],
            "variant": data["variant"],
            "seats": data["seats"],
            "settings": self.game_settings(),
        }
