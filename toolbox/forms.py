"""Form fields that read numbers and dates the one way the site reads them: ASCII digits.

Django's own fields accept what ``int()`` and ``strptime`` accept: «١٠٠», «１００», «१००»,
«1E2», «+5». These read every number through ``toolbox.parsing`` (the parser the console
uses) and refuse anything else with the field's usual translated message, so that the
promise of docs/admin.md holds on every page and in the Django admin: a number in digits other than
0–9 is refused and changes nothing.

Every form of the site takes its numeric and date fields from here: declared fields by name,
model forms and the Django admin through ``formfield`` (``ModelForm``, ``AsciiAdminMixin``).
``tests/toolbox/test_forms.py`` walks every form and every admin page's form to check it.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.utils import flatatt
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from toolbox.parsing import parse_int, parse_kopecks


class IntegerField(forms.IntegerField):
    """A whole number in ASCII digits; a minus sign only where the field allows negatives,
    never a plus."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value  # an initial value, not typed
        text = str(value).strip()
        negatives = self.min_value is None or self.min_value < 0
        number = None if text.startswith("+") else parse_int(text, signed=negatives)
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class RoublesField(forms.Field):
    """Money typed in roubles, with kopecks or not («450», «3 000,50», «3000.50»), cleaned
    to integer kopecks; shown back in roubles. Refused: «1e3», «+5», «.5», other digits."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})
    default_error_messages = {
        "invalid": _("Enter an amount in roubles, such as 450 or 3 000,50."),
        "min_value": _("The amount must be at least %(limit)s ₽."),
        "max_value": _("The amount must be at most %(limit)s ₽."),
    }

    def __init__(self, *, min_kopecks=0, max_kopecks=100_000_000, **kwargs):
        self.min_kopecks, self.max_kopecks = min_kopecks, max_kopecks
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return roubles_text(value)
        return value

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        kopecks = parse_kopecks(str(value))
        if kopecks is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return kopecks

    def validate(self, value):
        super().validate(value)
        if value is None:
            return
        for code, limit, broken in (
            ("min_value", self.min_kopecks, value < self.min_kopecks),
            ("max_value", self.max_kopecks, value > self.max_kopecks),
        ):
            if broken:
                raise ValidationError(
                    self.error_messages[code], code=code, params={"limit": roubles_text(limit)}
                )


class RosterSelect(forms.Select):
    """A select of the club's roster (hundreds of options, no groups), written out in Python:
    Django renders each option through a template of its own (12 ms for 200 players) and
    builds a dict for each first (6 ms for 800)."""

    def render(self, name, value, attrs=None, renderer=None):
        values, options, found = set(self.format_value(value)), [], False
        for option_value, label in self.choices:
            option_value = "" if option_value is None else str(option_value)
            selected = not found and option_value in values  # the first, as Django's
            found = found or selected
            options.append((option_value, mark_safe(" selected") if selected else "", label))
        return format_html(
            '<select name="{}"{}>{}</select>',
            name,
            flatatt(self.build_attrs(self.attrs, attrs)),
            format_html_join("", '<option value="{}"{}>{}</option>', options),
        )


class RosterChoiceField(forms.TypedChoiceField):
    """A choice of one of the club's roster, given as (pk, name) pairs from one query
    (``set_roster``): kept as given and checked against a set — Django's choice field
    normalises each of a thousand pairs and looks a value up through them all."""

    widget = RosterSelect

    def set_roster(self, pairs, empty_label):
        pairs = [("", empty_label), *pairs]
        self._choices = self.widget.choices = pairs  # (value, label) pairs already
        self._values = {str(value) for value, _label in pairs}

    def valid_value(self, value):
        return str(value) in self._values


def roubles_text(kopecks):
    """Kopecks as a form shows them back: «450», «3000,50» (the language's decimal mark)."""
    whole, cents = divmod(kopecks, 100)
    return str(whole) if not cents else number_format(kopecks / 100, decimal_pos=2)


class _AsciiDigits:
    """Mixed into Django's date and time fields: their text must be ASCII (``strptime``
    reads any Unicode digit)."""

    def to_python(self, value):
        if isinstance(value, str) and not value.isascii():
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class DateField(_AsciiDigits, forms.DateField):
    pass


class TimeField(_AsciiDigits, forms.TimeField):
    pass


class DateTimeField(_AsciiDigits, forms.DateTimeField):
    pass


class SplitDateTimeField(forms.SplitDateTimeField):
    """The Django admin's date and time in two boxes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields = (
            DateField(error_messages=self.fields[0].error_messages),
            TimeField(error_messages=self.fields[1].error_messages),
        )


# The model fields whose form fields read digits, and the ASCII form field of each.
FORM_CLASSES = {
    models.IntegerField: IntegerField,  # and its small, big and positive kinds
    models.DateTimeField: DateTimeField,  # before DateField: it is one
    models.DateField: DateField,
    models.TimeField: TimeField,
}


def formfield(db_field, **kwargs):
    """``db_field.formfield()``, with the ASCII field for a number, a date or a time (not
    for a choice: a select's values are its own)."""
    form_class = None if getattr(db_field, "choices", None) else _form_class(db_field)
    if form_class is not None:
        kwargs.setdefault("form_class", form_class)
    return db_field.formfield(**kwargs)


class ModelForm(forms.ModelForm):
    """A model form whose numbers and dates are read in ASCII digits (its ``Meta`` is given
    ``formfield_callback = formfield`` unless it names one)."""

    def __init_subclass__(cls, **kwargs):
        meta = cls.__dict__.get("Meta")
        if meta is not None and not hasattr(meta, "formfield_callback"):
            meta.formfield_callback = staticmethod(formfield)
        super().__init_subclass__(**kwargs)


class AsciiAdminMixin:
    """Mix into a ModelAdmin or an inline: its numbers and dates are read in ASCII digits
    (the admin's own widgets kept: a date and a time in two boxes, the calendar)."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if isinstance(db_field, models.DateTimeField) and not db_field.choices:
            kwargs.setdefault("form_class", SplitDateTimeField)
        elif not db_field.choices:
            form_class = _form_class(db_field)
            if form_class is not None:
                kwargs.setdefault("form_class", form_class)
        return super().formfield_for_dbfield(db_field, request, **kwargs)


def _form_class(db_field):
    for model_field, form_class in FORM_CLASSES.items():
        if isinstance(db_field, model_field):
            return form_class
    return None
