"""The desk's forms (a league, a season, a team) and the captains' (a line-up, a game's score,
a new date)."""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from leagues import fixtures
from leagues.models import TIE_BREAK_LABELS, Division, League, Season, Team
from players.models import Player
from toolbox import forms as ascii_forms

MAX_GAMES = 9
MAX_RACE = 9
WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


class LeagueForm(ascii_forms.ModelForm):
    games = ascii_forms.IntegerField(
        label=_("Singles games a match day"), min_value=1, max_value=MAX_GAMES, initial=5
    )
    doubles = ascii_forms.IntegerField(
        label=_("Doubles games a match day (played after the singles)"),
        min_value=0,
        max_value=MAX_GAMES,
        initial=0,
        required=False,
    )
    race_to = ascii_forms.IntegerField(
        label=_("Each a race to (frames)"), min_value=1, max_value=MAX_RACE, initial=2
    )
    tie_break_chain = forms.MultipleChoiceField(
        label=_("Tie-breaks, in this order"),
        choices=[(key, TIE_BREAK_LABELS[key]) for key in fixtures.TIE_BREAKS],
        initial=[fixtures.POINTS, fixtures.HEAD_TO_HEAD, fixtures.FRAMES_DIFFERENCE],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    divisions = forms.CharField(
        label=_("Divisions (one a line)"), widget=forms.Textarea(attrs={"rows": 2}), initial="A"
    )
    network = forms.BooleanField(
        label=_("The network's league (teams of several clubs)"), required=False
    )

    class Meta:
        model = League
        fields = [
            "name",
            "variant",
            "win_points",
            "draw_points",
            "loss_points",
            "frame_points",
            "forfeit_penalty",
            "cap_kind",
            "cap_limit",
            "starts_at",
            "hours",
            "table_kind",
        ]
        widgets = {"starts_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}

    def __init__(self, *args, may_be_network=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not may_be_network:
            del self.fields["network"]

    def clean_divisions(self):
        names = [line.strip() for line in self.cleaned_data["divisions"].splitlines()]
        names = [name[:100] for name in names if name]
        if not names:
            raise ValidationError(_("Name at least one division."))
        return names

    def clean(self):
        data = super().clean()
        data["doubles"] = data.get("doubles") or 0
        if data.get("games", 0) + data["doubles"] > MAX_GAMES:
            raise ValidationError(
                _("A match day has %(n)s games at most."), params={"n": MAX_GAMES}
            )
        return data

    def save(self, commit=True, network=False):
        """The league (the club in scope's, or the network's) with its divisions."""
        league = super().save(commit=False)
        league.network = network
        race = self.cleaned_data["race_to"]
        league.format = [{"race_to": race}] * self.cleaned_data["games"] + [
            {"race_to": race, "doubles": True}
        ] * self.cleaned_data["doubles"]
        league.tie_breaks = self.cleaned_data["tie_break_chain"] or [fixtures.POINTS]
        league.save()
        for name in self.cleaned_data["divisions"]:
            Division.objects.create(league=league, name=name)
        return league


class SeasonForm(ascii_forms.ModelForm):
    weekday = forms.TypedChoiceField(label=_("Weekday"), choices=WEEKDAYS, coerce=int, initial=2)
    holiday_list = forms.CharField(
        label=_("Holidays (dates, one a line: 2026-12-31)"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
    )

    class Meta:
        model = Season
        fields = ["name", "starts_on", "weekday", "double"]

    def clean_holiday_list(self):
        days = []
        for line in self.cleaned_data["holiday_list"].split():
            try:
                days.append(dt.date.fromisoformat(line.strip()).isoformat())
            except ValueError:
                raise ValidationError(
                    _("“%(value)s” is not a date (2026-12-31)."), params={"value": line[:20]}
                ) from None
        return days

    def save(self, commit=True):
        season = super().save(commit=False)
        season.holidays = self.cleaned_data["holiday_list"]
        if commit:
            season.save()
        return season


class TeamForm(forms.Form):
    """A team: a club's league's from the club's roster, at its club; the network's from the
    network's people, at the home club chosen among the network's clubs."""

    name = forms.CharField(label=_("Team"), max_length=100)
    division = forms.ModelChoiceField(queryset=Division.objects.none(), label=_("Division"))
    home_club = forms.ModelChoiceField(queryset=Club.objects.none(), label=_("Home club"))
    captain = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Captain"))
    members = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(), label=_("Members"), widget=forms.SelectMultiple
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = Division.objects.filter(league=league)
        people = Player.everywhere if league.network else Player.objects
        roster = people.filter(is_active=True).order_by("full_name")
        self.fields["captain"].queryset = roster
        self.fields["members"].queryset = roster
        if league.network:
            self.fields["home_club"].queryset = Club.objects.order_by("city", "name")
        else:
            del self.fields["home_club"]

    def save(self, season):
        data = self.cleaned_data
        team = Team.objects.create(
            season=season,
            division=data["division"],
            name=data["name"],
            captain=data["captain"],
            home_club=data.get("home_club") or season.league.club,
        )
        team.members.set(set(data["members"]) | {data["captain"]})
        return team


class LineUpForm(forms.Form):
    """One choice of the team's members per singles game of the format, two per doubles
    game, in order; the captain's draft, if he saved one, chosen already. A choice may be
    left out of a draft (the lock refuses it: ``leagues.services``)."""

    def __init__(self, *args, team, league, draft=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.format = league.format
        members = team.people().order_by("full_name")
        draft = list(draft) + [None] * (len(self.format) - len(draft))
        for order, (game, chosen) in enumerate(zip(self.format, draft, strict=False), start=1):
            if fixtures.is_doubles(game):
                pair = chosen if isinstance(chosen, list) else [None, None]
                self.fields[f"player_{order}"] = self._choice(
                    members, _("Game %(n)s, doubles: a player") % {"n": order}, pair[0]
                )
                self.fields[f"partner_{order}"] = self._choice(
                    members, _("Game %(n)s, doubles: the partner") % {"n": order}, pair[1]
                )
            else:
                chosen = None if isinstance(chosen, list) else chosen
                self.fields[f"player_{order}"] = self._choice(
                    members, _("Game %(n)s") % {"n": order}, chosen
                )

    @staticmethod
    def _choice(members, label, initial):
        return forms.ModelChoiceField(
            queryset=members, label=label, initial=initial, required=False
        )

    def _pk(self, name):
        player = self.cleaned_data.get(name)
        return player.pk if player is not None else None

    def player_ids(self):
        """The line-up's entries: a player id a singles game, a pair a doubles game (None
        where nobody is chosen)."""
        return [
            [self._pk(f"player_{order}"), self._pk(f"partner_{order}")]
            if fixtures.is_doubles(game)
            else self._pk(f"player_{order}")
            for order, game in enumerate(self.format, start=1)
        ]


class ScoreForm(forms.Form):
    home_frames = ascii_forms.IntegerField(label=_("Home"), min_value=0, max_value=MAX_RACE)
    away_frames = ascii_forms.IntegerField(label=_("Away"), min_value=0, max_value=MAX_RACE)


class DateForm(forms.Form):
    date = ascii_forms.DateField(
        label=_("New date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
