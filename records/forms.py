"""The player page's handicap question: which game, against whom."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import variant_label
from players.models import Player
from records import handicap
from toolbox import forms as ascii_forms
from toolbox.forms import RosterChoiceField


class HandicapAdviceForm(forms.Form):
    """GET ``game`` and ``opponent``: the handicap the two players' records suggest."""

    game = forms.ChoiceField(label=_("Game"))
    # The club's roster as (pk, name) pairs from one query: a network's club has a thousand
    # members, and a model choice field builds a model instance for each (50 ms a page).
    opponent = RosterChoiceField(label=_("Against"), coerce=int)

    def __init__(self, player, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player
        self.fields["game"].choices = [
            (key, variant_label(key)) for key in handicap.advised_variants()
        ]
        roster = (
            Player.objects.filter(is_active=True)
            .exclude(pk=player.pk)
            .order_by("full_name")
            .values_list("pk", "nickname", "full_name")
        )
        self.fields["opponent"].set_roster(
            [(pk, nickname or full_name) for pk, nickname, full_name in roster],
            _("Choose a player"),
        )

    def advice(self):
        """The suggested handicap (a ``handicap.Hint``), or None while the form is not valid."""
        if not self.is_valid():
            return None
        seats = [f"p:{self.player.pk}", f"p:{self.cleaned_data['opponent']}"]
        return handicap.suggest(self.cleaned_data["game"], seats)


class MergeForm(forms.Form):
    """The network admin's merge: the person merged (his record closed) into the one kept."""

    source = ascii_forms.IntegerField(label=_("Merge (number)"), min_value=1)
    target = ascii_forms.IntegerField(label=_("into (number)"), min_value=1)

    def clean(self):
        data = super().clean()
        people = Player.everywhere.in_bulk([data.get("source"), data.get("target")])
        for name in ("source", "target"):
            if name in data and data[name] not in people:
                self.add_error(name, _("No person has this number."))
        if self.errors:
            return data
        if data["source"] == data["target"]:
            raise forms.ValidationError(_("A person cannot be merged into himself."))
        data["source"], data["target"] = people[data["source"]], people[data["target"]]
        return data
