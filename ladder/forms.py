"""The ladder's form (its rules) and the desk's choice of a roster player to put on it."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import variant_choices
from ladder.models import Ladder
from players.models import Player
from toolbox import forms as ascii_forms


class LadderForm(ascii_forms.ModelForm):
    variant = forms.ChoiceField(label=_("game"), choices=variant_choices)

    class Meta:
        model = Ladder
        fields = [
            "name",
            "variant",
            "reach",
            "accept_days",
            "play_days",
            "max_open",
            "rematch_days",
            "inactive_days",
            "active",
        ]


class AddPlayerForm(forms.Form):
    player = forms.ModelChoiceField(
        label=_("player"), queryset=Player.objects.order_by("full_name")
    )
