"""Numbers mean ASCII digits (issue 27 item 4): every numeric and date field of every form —
the pages' forms, the model forms, every Django admin page's form — reads them through the
one parser (``toolbox.parsing``) and refuses «١٠٠», «１００», «१००», «1E2», «+5», «.5»."""

import importlib
import pkgutil

import pytest
from django import forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from hypothesis import given
from hypothesis import strategies as st

from games import rules
from games.forms import setting_form_field
from toolbox import forms as ascii_forms

PACKAGES = ["billing", "boards", "clubsite", "games", "players", "records", "tables"]
PACKAGES += ["toolbox", "tournaments"]
REFUSED = ["١٠٠", "１００", "१००", "1E2", "1e2", "+5", ".5", "5.", "1_000", "²", "0x10", "5 5"]
DATES = (forms.DateField, forms.TimeField, forms.DateTimeField)
# Dates and times half in other digits, which Django's own fields read.
REFUSED_DATES = ["٢٠٢٦-12-03", "03.12.٢٠٢٦", "2026-12-03 ١٠:٠٠", "١٠:٠٠", "１０:００"]
NUMERIC = (forms.IntegerField, forms.DateField, forms.TimeField, forms.DateTimeField)
NUMERIC += (forms.FloatField, ascii_forms.RoublesField)


def project_forms():
    """Every form class the project's modules define."""
    for package in PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            if ".migrations" not in info.name and ".management" not in info.name:
                importlib.import_module(info.name)
    found, todo = set(), [forms.BaseForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.split(".")[0] in PACKAGES:
                found.add(sub)
    return sorted(found, key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


def admin_forms():
    """The form class of every Django admin page (and of its inlines), as a superuser."""
    request = RequestFactory().get("/admin/")
    request.user = User(is_superuser=True, is_staff=True, is_active=True)
    for model_admin in admin.site._registry.values():
        if not (
            model_admin.has_add_permission(request) or model_admin.has_change_permission(request)
        ):
            continue  # read-only: no form takes input
        yield f"admin {model_admin}", model_admin.get_form(request)
        for inline in model_admin.get_inline_instances(request):
            yield f"inline {inline}", inline.get_formset(request).form


def numeric_fields(form_class):
    for name, field in form_class.base_fields.items():
        if isinstance(field, NUMERIC) and not isinstance(field, forms.ChoiceField):
            yield name, field
        if isinstance(field, forms.SplitDateTimeField):
            yield from ((f"{name}[{i}]", sub) for i, sub in enumerate(field.fields))


def refuses(field, text):
    try:
        field.clean(text)
    except ValidationError:
        return True
    return False


@pytest.mark.django_db
def test_every_numeric_field_of_every_form_refuses_other_digits():
    checked = []
    every = [(f"{c.__module__}.{c.__qualname__}", c) for c in project_forms()]
    for label, form_class in [*every, *admin_forms()]:
        for name, field in numeric_fields(form_class):
            texts = REFUSED_DATES if isinstance(field, DATES) else REFUSED
            accepted = [text for text in texts if not refuses(field, text)]
            assert not accepted, f"{label}.{name} accepts {accepted}"
            checked.append(f"{label}.{name}")
    assert len(checked) > 10  # the walk found the forms


def test_every_game_setting_field_refuses_other_digits():
    for variant in rules.VARIANTS.values():
        for setting in variant.settings_fields:
            field = setting_form_field(setting)
            if setting.kind == "int":
                assert all(refuses(field, text) for text in REFUSED), setting.name


def test_djangos_own_field_would_accept_them():
    """What the walk above guards against: Django's plain field reads «١٠٠» as 100."""
    assert forms.IntegerField().clean("١٠٠") == 100
    assert not refuses(forms.DateField(), "٢٠٢٦-12-03")
    assert not refuses(forms.DateTimeField(), "2026-12-03 ١٠:٠٠")


@given(st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=6))
def test_only_ascii_digits_make_a_number(text):
    field = ascii_forms.IntegerField(required=False, min_value=0)
    if text.isascii():
        assert field.clean(text) == int(text)
    else:
        assert refuses(field, text)
        assert refuses(ascii_forms.DateField(required=False), f"2026-12-{text}")


def test_a_sign_where_the_field_allows_it():
    assert ascii_forms.IntegerField(min_value=-10).clean("-5") == -5
    assert refuses(ascii_forms.IntegerField(min_value=0), "-5")
    assert refuses(ascii_forms.IntegerField(), "+5")
    assert ascii_forms.IntegerField().clean(" 12 ") == 12


@pytest.mark.parametrize(
    ("typed", "kopecks"),
    [("450", 45000), ("3 000,50", 300050), ("3000.50", 300050), ("3\u00a0000,5", 300050)],
)
def test_money_is_typed_in_roubles_and_kept_in_kopecks(typed, kopecks):
    assert ascii_forms.RoublesField().clean(typed) == kopecks


def test_money_out_of_range_says_the_limit_in_roubles():
    field = ascii_forms.RoublesField(min_kopecks=1, max_kopecks=100_000)
    with pytest.raises(ValidationError, match="1000"):
        field.clean("1 000,01")
    assert refuses(field, "0")
    assert field.prepare_value(300050) in ("3000,50", "3000.50")


def test_a_roster_select_says_what_djangos_select_says():
    """``RosterSelect`` writes the options out in Python: the same options, the same choice
    kept, the same attributes, names escaped."""
    choices = [("", "Choose"), ("1", "Сокол"), ("2", 'Лена <"the" best>'), ("3", "Гость")]

    def rendered(widget):
        field = forms.ChoiceField(choices=choices, widget=widget)
        form = type("Asked", (forms.Form,), {"who": field})({"who": "2"})
        return str(form["who"])

    def normal(html):
        html = " ".join(html.split()).replace("> <", "><")
        return sorted(
            t for t in html.replace("<", "\n<").split("\n") if not t.startswith("<select")
        )

    ours = rendered(ascii_forms.RosterSelect)
    assert '<option value="2" selected>Лена &lt;&quot;the&quot; best&gt;</option>' in ours
    assert normal(ours) == normal(rendered(forms.Select))  # its <select …> tag aside
    for attribute in ('name="who"', 'id="id_who"', "required"):
        assert attribute in ours


def test_a_roster_choice_takes_a_member_and_refuses_anyone_else():
    field = ascii_forms.RosterChoiceField(coerce=int)
    field.set_roster([(7, "Лена"), (9, "Павел")], "Choose a player")
    assert field.clean("9") == 9
    assert refuses(field, "8") and refuses(field, "") and refuses(field, "9 OR 1")
    html = field.widget.render("who", "7")
    assert html.startswith('<select name="who">')
    assert '<option value="">Choose a player</option>' in html
    assert '<option value="7" selected>Лена</option><option value="9">Павел</option>' in html
