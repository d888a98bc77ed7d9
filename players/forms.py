from django import forms
from django.utils.translation import gettext_lazy as _

from players.models import Player
from players.selectors import ACTIVE, ALL, INACTIVE
from toolbox import forms as ascii_forms

PLAYER_FIELDS = ["full_name", "nickname", "phone", "email", "skill_class", "notes"]


class PlayerForm(ascii_forms.ModelForm):
    class Meta:
        model = Player
        fields = PLAYER_FIELDS
        widgets = {
            "notes": forms.Textarea(attrs={"rows": 3}),
            "phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "off"}),
        }

    # A new player's name another club's roster holds: that person, to link rather than make
    # again (the form offers to put him on this club's roster; his details stay his clubs').
    network_person = None

    def validate_unique(self):
        super().validate_unique()
        # Django's own check skips the "unique active name" constraint: it is on
        # ``name_key``, which no form edits (the model derives it from the names).
        try:
            self.instance.validate_constraints()
        except forms.ValidationError as error:
            self._update_errors(self.name_taken(error))

    def name_taken(self, error):
        """The unique name's error; when the name is a person's of another club's roster,
        said so (the form then offers to add him to this club's roster)."""
        self.network_person = person_elsewhere(self.instance)
        if self.network_person is None:
            return error
        return forms.ValidationError(
            _(
                "%(name)s already plays at another club of the network: add that record "
                "to this club's roster (below), or give this player a nickname."
            )
            % {"name": self.network_person.full_name}
        )


def person_elsewhere(player):
    """The active person of the network with ``player``'s name who is not on this club's
    roster; None when there is none (or he is on it)."""
    person = Player.everywhere.filter(name_key=player.name_key, is_active=True).first()
    if person is None or person.pk == player.pk or Player.objects.filter(pk=person.pk).exists():
        return None
    return person


class PlayerFilterForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False)
    status = forms.ChoiceField(
        label=_("Show"),
        required=False,
        choices=[(ACTIVE, _("Active")), (INACTIVE, _("Inactive")), (ALL, _("All"))],
    )

    def values(self):
        """(query, status); an unknown status falls back to active players."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return data.get("q", ""), data.get("status") or ACTIVE


class CSVUploadForm(forms.Form):
    # The confirm step posts the text back (multipart): keep it under Django's 2.5 MB limit
    # even when a Windows-1251 file doubles in size as UTF-8.
    MAX_BYTES = 1024 * 1024

    file = forms.FileField(label=_("CSV file"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return upload
