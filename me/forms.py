"""The player's start form: a two-player game at this table against another player of the
roster, who breaks; the game's own settings are the rules' defaults."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games import rules
from games.i18n import render_message
from players.models import Player
from toolbox.forms import IntegerField


def two_player_games():
    return [
        (variant.key, render_message(variant.name))
        for variant in rules.VARIANTS.values()
        if variant.min_seats <= 2 <= variant.max_seats
    ]


class OwnGameForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"))
    opponent = IntegerField(label=_("Opponent"), min_value=1, required=False)
    breaks = forms.ChoiceField(
        label=_("Breaks"),
        choices=[("me", _("I break")), ("opponent", _("My opponent breaks"))],
        initial="me",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, player, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player
        self.fields["variant"].choices = two_player_games()

    def clean_opponent(self):
        pk = self.cleaned_data.get("opponent")
        opponent = (
            Player.objects.filter(pk=pk, is_active=True).exclude(pk=self.player.pk).first()
            if pk
            else None
        )
        if opponent is None:
            raise forms.ValidationError(_("Choose your opponent from the roster."))
        return opponent
