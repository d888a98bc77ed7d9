"""The desk's forms of a series: its settings, and a stage to add."""

import re

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from players.models import Player, SkillClass
from season.models import Criterion, PointsTable, Series, Stage

MAX_TIE_BREAKS = 4
NORM = re.compile(r"^\s*(.+?)\s*:\s*(\d+)\s*[-–]\s*(\d+)\s*$")
# A class as the desk types it in a norm («КМС: 7-16»); its code is accepted too.
SHORT_CLASS = {
    SkillClass.NOVICE: _("no class"),
    SkillClass.THIRD: "3",
    SkillClass.SECOND: "2",
    SkillClass.FIRST: "1",
    SkillClass.CANDIDATE_MASTER: _("CMS"),
    SkillClass.MASTER: _("MS"),
}


def _class_of(text):
    """The class code a norm's line names: its short name in the page's language, in
    Russian or in English, or its code; None for anything else."""
    wanted = text.strip().lower()
    for code, short in SHORT_CLASS.items():
        names = {str(code)}
        for language in ("ru", "en"):
            with translation.override(language):
                names.add(str(short).lower())
        names.add(str(short).lower())
        if wanted in names:
            return str(code)
    return None


def _numbers(text, *, field_error):
    values = []
    for part in re.split(r"[\s,;]+", text.strip()):
        if not part:
            continue
        if not part.isdigit() or len(part) > 5:
            raise forms.ValidationError(field_error)
        values.append(int(part))
    return values


class SeriesForm(forms.ModelForm):
    tie_break_1 = forms.ChoiceField(label=_("Tie-break 1"), required=False)
    tie_break_2 = forms.ChoiceField(label=_("Tie-break 2"), required=False)
    tie_break_3 = forms.ChoiceField(label=_("Tie-break 3"), required=False)
    tie_break_4 = forms.ChoiceField(label=_("Tie-break 4"), required=False)
    norms_text = forms.CharField(
        label=_("Class norms"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    network = forms.BooleanField(
        label=_("The network's series (several clubs' tournaments)"), required=False
    )

    class Meta:
        model = Series
        fields = [
            "name",
            "season",
            "best_n",
            "per_month",
            "best_months",
            "final_size",
            "wildcards",
            "finished",
        ]
        widgets = {"wildcards": forms.SelectMultiple(attrs={"size": 6})}

    def __init__(self, *args, may_be_network=False, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [
            (value, label) for value, label in Criterion.choices if value != Criterion.POINTS
        ]
        chain = [c for c in (self.instance.chain or []) if c != Criterion.POINTS]
        for number in range(1, MAX_TIE_BREAKS + 1):
            field = self.fields[f"tie_break_{number}"]
            field.choices = choices
            if number <= len(chain):
                field.initial = chain[number - 1]
        if "wildcards" in self.fields:  # the admin shows the network's, read-only
            self.fields["wildcards"].queryset = Player.objects.filter(is_active=True)
        self.fields["norms_text"].help_text = _(
            "One a line, a class and its places, e.g. «%(example)s» (classes: %(classes)s)."
        ) % {
            "example": f"{SHORT_CLASS[SkillClass.CANDIDATE_MASTER]}: 7-16",
            "classes": ", ".join(str(short) for short in SHORT_CLASS.values()),
        }
        self.fields["norms_text"].initial = "\n".join(
            f"{SHORT_CLASS.get(n['class'], n['class'])}: {n['places'][0]}-{n['places'][1]}"
            for n in self.instance.norms or []
        )
        if not may_be_network or self.instance.pk is not None:
            del self.fields["network"]

    def clean_norms_text(self):
        norms = []
        for line in self.cleaned_data["norms_text"].splitlines():
            if not line.strip():
                continue
            found = NORM.match(line)
            code = _class_of(found[1]) if found else None
            if code is None or not 1 <= int(found[2]) <= int(found[3]):
                raise forms.ValidationError(
                    _("Write each norm as «class: first-last», e.g. «%(example)s».")
                    % {"example": f"{SHORT_CLASS[SkillClass.CANDIDATE_MASTER]}: 7-16"}
                )
            norms.append({"class": code, "places": [int(found[2]), int(found[3])]})
        return norms

    def clean(self):
        cleaned = super().clean()
        chain = [Criterion.POINTS.value]
        for number in range(1, MAX_TIE_BREAKS + 1):
            value = cleaned.get(f"tie_break_{number}")
            if value and value not in chain:
                chain.append(value)
        cleaned["chain"] = chain
        if cleaned.get("best_months") and not cleaned.get("per_month"):
            self.add_error("best_months", _("Say how many results of a month count first."))
        return cleaned


class StageForm(forms.ModelForm):
    points_text = forms.CharField(
        label=_("Own points, from the 1st place"),
        required=False,
        help_text=_("With the own table: e.g. «25, 18, 15, 12, 10»."),
    )

    class Meta:
        model = Stage
        fields = ["tournament", "number", "table", "scaled", "is_final"]

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        field.queryset = field.queryset.model.everywhere.filter(pk__in=[t.pk for t in tournaments])
        field.label_from_instance = lambda t: f"{t.date:%d.%m.%Y} · {t.name}"

    def clean_points_text(self):
        text = self.cleaned_data["points_text"]
        return _numbers(text, field_error=_("Points are whole numbers, separated by commas."))

    def clean(self):
        cleaned = super().clean()
        stages = self.instance.series.stages.all()
        if stages.filter(number=cleaned.get("number")).exists():
            self.add_error("number", _("The series has a stage of this number."))
        if stages.filter(tournament=cleaned.get("tournament")).exists():
            self.add_error("tournament", _("This tournament is a stage already."))
        if cleaned.get("table") == PointsTable.CUSTOM:
            if not cleaned.get("points_text"):
                self.add_error("points_text", _("Give the points of the own table."))
            self.instance.custom_points = cleaned.get("points_text") or []
        return cleaned
