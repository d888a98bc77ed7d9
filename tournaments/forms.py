"""Forms: a match (two players, the game and its settings, the race, the break, a head
start) and a tournament (name, date, game, format, races per stage, the handicap and the
game's settings of every frame), an entrant."""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.forms import SETTING_PREFIX, GameSettingsMixin, SeatsFormMixin
from games.i18n import render_message
from games.models import default_variant
from players.models import Player
from toolbox import forms as ascii_forms
from toolbox.parsing import parse_int, parse_kopecks
from tournaments import prizes, selectors
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


# The regulation of fees and prizes (``tournaments.prizes.Regulation``, stored as JSON).
REGULATION_FIELDS = (
    "reg_fee",
    "reg_bands",
    "reg_split",
    "reg_prize",
    "reg_final",
    "reg_preset",
    "reg_tables",
    "reg_per_win",
    "reg_unit",
)
_PERCENT = re.compile(r"([0-9]{1,3})(?:[.,]([0-9]{1,2}))?", re.ASCII)
_PLACES = re.compile(r"([0-9]{1,3})(?:\s*[-–]\s*([0-9]{1,3}))?", re.ASCII)


def parse_percent(text):
    """«70», «17,5», «6.25» as basis points (1 % = 100), or None."""
    match = _PERCENT.fullmatch((text or "").strip())
    if match is None:
        return None
    return int(match.group(1)) * 100 + int((match.group(2) or "0").ljust(2, "0"))


def percent_text(points):
    whole, rest = divmod(points, 100)
    return str(whole) if not rest else f"{whole},{rest:02d}".rstrip("0")


def _items(text):
    return [item.strip() for item in re.split(r"[;\n]", text or "") if item.strip()]


def parse_bands(text):
    """«1400: 700; 1800: 900» (rating up to: fee in roubles) as [(1400, 70000), …]."""
    bands = []
    for item in _items(text):
        limit, _colon, fee = item.partition(":")
        limit, fee = parse_int(limit, signed=False, max_digits=4), parse_kopecks(fee)
        if limit is None or fee is None:
            raise ValidationError(
                _("Write each band as «rating up to: fee», e.g. «1400: 700»."), code="bands"
            )
        bands.append((limit, fee))
    bands.sort()
    if len({limit for limit, _fee in bands}) != len(bands):
        raise ValidationError(_("Two bands have the same rating."), code="bands")
    return tuple(bands)


def bands_text(bands):
    return "; ".join(f"{limit}: {ascii_forms.roubles_text(fee)}" for limit, fee in bands)


def parse_tables(text):
    """One table a line: «12: 1=50, 2=30, 3=15» (up to 12 entrants: places and their
    percent each), «*: 1=40, 2=25, 3-4=12,5» for any number."""
    tables = []
    for line in _items(text):
        up_to, _colon, rows_text = line.partition(":")
        up_to = up_to.strip()
        limit = None if up_to == "*" else parse_int(up_to, signed=False, max_digits=4)
        rows = []
        for cell in (c for c in rows_text.split(",") if c.strip()) if _colon else ["?"]:
            places, _equals, share = cell.partition("=")
            match, points = _PLACES.fullmatch(places.strip()), parse_percent(share)
            if match is None or points is None:
                rows = None
                break
            best = int(match.group(1))
            rows.append(prizes.Row(best, int(match.group(2) or best), points))
        if (limit is None and up_to != "*") or not rows:
            raise ValidationError(
                _(
                    "Write each table as «up to N entrants: place=percent, …», e.g. «12: 1=50, "
                    "2=30, 3-4=10», and «*» for any number of entrants."
                ),
                code="tables",
            )
        tables.append(prizes.Table(limit, tuple(rows)))
    tables.sort(key=lambda table: (table.up_to is None, table.up_to or 0))
    return tuple(tables)


def tables_text(tables):
    def places(row):
        return str(row.best) if row.best == row.worst else f"{row.best}-{row.worst}"

    return "\n".join(
        ("*" if table.up_to is None else str(table.up_to))
        + ": "
        + ", ".join(f"{places(row)}={percent_text(row.share)}" for row in table.rows)
        for table in tables
    )


def preset_choices():
    return [
        ("evening", _("Club evening: ≤ 12: 50/30/15 %; ≤ 16: 40/25/17,5/12,5 %; ≤ 32 and more")),
        ("semifinals", _("Final and semi-finals: 30/20 %, the semi-finalists 25 % each")),
        ("winner", _("All to the winner")),
        ("", _("The tables written below")),
    ]


class RegulationFormMixin:
    """The tournament's fee (one, or by rating band), its split, the payout tables and the
    return per win, as form fields read into ``Tournament.regulation``."""

    def add_regulation_fields(self):
        try:
            regulation = prizes.Regulation.from_json(self.instance.regulation)
        except prizes.RegulationError:
            regulation = None
        self.fields.update(
            {
                "reg_fee": ascii_forms.RoublesField(
                    label=_("Entry fee, ₽"),
                    required=False,
                    help_text=_("Empty or 0: no fee."),
                ),
                "reg_bands": forms.CharField(
                    label=_("Fees by rating"),
                    required=False,
                    max_length=500,
                    help_text=_(
                        "«rating up to: fee», separated by «;», e.g. «1400: 700; 1800: 900»; "
                        "a higher rating, or none, pays the fee above."
                    ),
                ),
                "reg_split": forms.ChoiceField(
                    label=_("Each fee is split"),
                    choices=[
                        (prizes.PERCENT, _("in percent")),
                        (prizes.FIXED, _("in roubles per fee")),
                    ],
                    initial=prizes.PERCENT,
                    required=False,
                ),
                "reg_prize": forms.CharField(
                    label=_("to the prize fund"), initial="100", max_length=20, required=False
                ),
                "reg_final": forms.CharField(
                    label=_("to the series final's fund"),
                    initial="0",
                    required=False,
                    max_length=20,
                    help_text=_("The club's costs take the rest, the kopecks of rounding too."),
                ),
                "reg_preset": forms.ChoiceField(
                    label=_("Payout table"),
                    choices=preset_choices(),
                    required=False,
                    initial="evening",
                ),
                "reg_tables": forms.CharField(
                    label=_("Your own payout tables"),
                    required=False,
                    max_length=1000,
                    widget=forms.Textarea(attrs={"rows": 3}),
                    help_text=_(
                        "One a line: «12: 1=50, 2=30, 3=15» — up to 12 entrants, each place "
                        "its percent; «3-4=25» gives each of places 3 and 4 a quarter; «*» "
                        "for any number of entrants. What a table leaves goes to the winner."
                    ),
                ),
                "reg_per_win": ascii_forms.RoublesField(
                    label=_("Returned per match won, ₽"),
                    required=False,
                    help_text=_("Paid from the prize fund first."),
                ),
                "reg_unit": forms.TypedChoiceField(
                    label=_("Prizes rounded to"),
                    choices=[(100, _("whole roubles")), (1, _("kopecks"))],
                    coerce=int,
                    initial=100,
                    required=False,
                    help_text=_("The rest of the rounding goes to the winner."),
                ),
            }
        )
        if regulation is not None:
            percent = regulation.split.mode == prizes.PERCENT
            show = percent_text if percent else ascii_forms.roubles_text
            for name, value in {
                "reg_fee": regulation.fee,
                "reg_bands": bands_text(regulation.bands),
                "reg_split": regulation.split.mode,
                "reg_prize": show(regulation.split.prize),
                "reg_final": show(regulation.split.final),
                "reg_preset": regulation.preset,
                "reg_tables": tables_text(regulation.tables),
                "reg_per_win": regulation.per_win or None,
                "reg_unit": regulation.unit,
            }.items():
                self.fields[name].initial = value

    def regulation_fields(self):
        return [self[name] for name in REGULATION_FIELDS]

    def clean_regulation(self, data):
        """The regulation as JSON into ``data["regulation"]`` ({} without a fee); errors on
        their fields."""
        fee = data.get("reg_fee") or 0
        try:
            bands = parse_bands(data.get("reg_bands"))
        except ValidationError as error:
            self.add_error("reg_bands", error)
            bands = ()
        if not fee and not bands:
            data["regulation"] = {}
            return
        mode = data.get("reg_split") or prizes.PERCENT
        shares = {}
        for name in ("reg_prize", "reg_final"):
            text = data.get(name) or "0"
            value = parse_percent(text) if mode == prizes.PERCENT else parse_kopecks(text)
            if value is None or (mode == prizes.PERCENT and value > prizes.WHOLE):
                self.add_error(
                    name,
                    _("Write a percent, e.g. 70 or 17,5.")
                    if mode == prizes.PERCENT
                    else _("Enter an amount in roubles, such as 450 or 3 000,50."),
                )
            shares[name] = value or 0
        if mode == prizes.PERCENT and shares["reg_prize"] + shares["reg_final"] > prizes.WHOLE:
            self.add_error("reg_final", _("The prize fund and the final's fund exceed 100 %."))
        preset = data.get("reg_preset") or ""
        tables = ()
        if not preset:
            try:
                tables = parse_tables(data.get("reg_tables"))
                if not tables:
                    raise ValidationError(_("Write at least one payout table."), code="tables")
                prizes.check_tables(tables)
            except ValidationError as error:
                self.add_error("reg_tables", error)
            except prizes.RegulationError:
                self.add_error(
                    "reg_tables",
                    _(
                        "A table's places must not overlap, its percents add up to at most "
                        "100 and the numbers of entrants rise."
                    ),
                )
        if self.errors:
            return
        regulation = prizes.Regulation(
            fee=fee,
            bands=bands,
            split=prizes.Split(mode, shares["reg_prize"], shares["reg_final"]),
            preset=preset,
            tables=tables,
            per_win=data.get("reg_per_win") or 0,
            unit=data.get("reg_unit") or 1,
        )
        try:
            regulation.check()
        except prizes.RegulationError:
            self.add_error("reg_fee", _("This regulation cannot be used: check its figures."))
            return
        data["regulation"] = regulation.to_json()


# Left out of a post (an older form, a script): the model's default.
CLOCK_AND_ENTRY_DEFAULTS = (
    "checkin_minutes",
    "absent_policy",
    "no_show_minutes",
    "slow_minutes",
    "too_slow_minutes",
)


class TournamentForm(RegulationFormMixin, GameSettingsMixin, ascii_forms.ModelForm):
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
            "slow_minutes",
            "too_slow_minutes",
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
        for name in CLOCK_AND_ENTRY_DEFAULTS:
            self.fields[name].required = False  # left out: the model's default
        key = (self.data.get("variant") if self.is_bound else None) or self.initial.get("variant")
        key = key or self.instance.variant
        if key not in keys:
            key = default_variant() if default_variant() in keys else keys[0]
        self.fields["variant"].initial = key
        stored = self.instance.settings if key == self.instance.variant else None
        self.add_setting_fields(key, stored)
        self.label_seat_choices(seat_role)
        self.add_regulation_fields()

    def tournament_fields(self):
        """The bound fields of the tournament itself (not its handicap or game settings)."""
        skip = {
            *self.HANDICAP_FIELDS,
            *ENTRY_FIELDS,
            *REGULATION_FIELDS,
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
        for name in CLOCK_AND_ENTRY_DEFAULTS:
            if data.get(name) in (None, ""):
                data[name] = Tournament._meta.get_field(name).default
        if data["too_slow_minutes"] <= data["slow_minutes"]:
            self.add_error(
                "too_slow_minutes", _("Too slow comes after slow: more minutes per frame.")
            )
        if data.get("checkin_minutes") and not data.get("start_time"):
            self.add_error("start_time", _("A check-in needs the start time."))
        self.check_game_settings(players=2)
        self.clean_regulation(data)
        return data

    def save(self, commit=True):
        self.instance.settings = self.game_settings()
        if "regulation" in self.cleaned_data:
            self.instance.regulation = self.cleaned_data["regulation"]
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
