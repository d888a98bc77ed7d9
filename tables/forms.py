from tables.models import Table
from toolbox import forms as ascii_forms


class TableForm(ascii_forms.ModelForm):
    class Meta:
        model = Table
        fields = ["number", "name", "kind", "light_topic"]
