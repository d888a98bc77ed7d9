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

from clubsite.parsing import parse_id
from games import rules
from games.i18n import render_message
from games.models import default_variant, variant_choices
from players.models import Player
from tables.models import Table
from tables.selectors import free_tables

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
        return forms.IntegerField(
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

    def __init__(self, token, name, guest):
        self.token, self.name, self.guest = token, name, guest


class StartGameForm(forms.Form):
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
        self.fixed_table = table
        table_field = self.fields["table"]
        if table is not None:
            table_field.queryset = Table.objects.filter(pk=table.pk)
            table_field.initial = table.pk
            table_field.widget = forms.HiddenInput()
        else:
            table_field.queryset = free_tables()
        self.rules_variant = rules.get_variant(self._variant_key())
        self.setting_names = []
        for setting in self.rules_variant.settings_fields:
            if setting.name == "players":
                continue
            self.fields[SETTING_PREFIX + setting.name] = setting_form_field(setting)
            self.setting_names.append(setting.name)
        self._entries = None

    # --- the chosen game and the seats ---------------------------------------------------

    def _variant_key(self):
        key = self.data.get("variant") if self.is_bound else None
        key = key or self.initial.get("variant")
        return key if key in rules.VARIANTS else default_variant()

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

    def setting_fields(self):
        """The bound fields of the game's settings, for the template.

        A choice of seat ("Player 1" / "Player 2": who gives the handicap, who takes the cue)
        also names the player in that seat, as the marker has seated them.
        """
        names = [entry.name for entry in self.seat_entries]
        for setting in self.rules_variant.settings_fields:
            if setting.name in self.setting_names and setting.choices == rules.SEAT_CHOICES:
                self.fields[SETTING_PREFIX + setting.name].choices = [
                    (value, seat_label(label, names)) for value, label in setting.choices
                ]
        return [self[SETTING_PREFIX + name] for name in self.setting_names]

    # --- validation ----------------------------------------------------------------------

    def clean_seats(self):
        seats = seats_from_tokens(self.data.getlist("seats"))
        if None in seats:
            raise ValidationError(_("Unknown player."), code="unknown_player")
        if not seats:
            raise ValidationError(_("Add the players."), code="no_players")
        return seats

    def start_arguments(self):
        """Keyword arguments for ``services.start_game`` (after ``is_valid()``)."""
        data = self.cleaned_data
        return {
            "table": data["table"],
            "variant": data["variant"],
            "seats": data["seats"],
            "settings": {name: data[SETTING_PREFIX + name] for name in self.setting_names},
        }

    def add_service_errors(self, error):
        """Shows a ValidationError from ``services.start_game`` next to the right fields."""
        for key, messages in error.message_dict.items():
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
        settings). Anything else just re-renders.
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
        if action != "variant":
            for name in form.setting_names:
                key = SETTING_PREFIX + name
                if key in data:
                    form.initial[key] = data.get(key)
                elif isinstance(form.fields[key], forms.BooleanField):
                    form.initial[key] = False
        return form
