from django import forms
from django.utils.translation import gettext_lazy as _

from lights.services import MAX_CLEANING_MINUTES
from toolbox import forms as ascii_forms


class LightWithoutClockForm(forms.Form):
    minutes = ascii_forms.IntegerField(
        label=_("For, minutes"), min_value=1, max_value=MAX_CLEANING_MINUTES, initial=30
    )
    reason = forms.CharField(label=_("Why"), max_length=200)
