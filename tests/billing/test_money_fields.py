"""Prices are entered in roubles everywhere (issue 21 item 4): every money field of billing,
in the pages and in the Django admin, reads and shows roubles with kopecks and stores
integer kopecks. The bar's price list in the admin asked for kopecks: 100 saved 1,00 ₽."""

import re

import pytest
from django.apps import apps
from django.urls import reverse

from billing.models import BarItem
from tests.factories import UserFactory
from toolbox.forms import RoublesField
from toolbox.roles import ADMINS

pytestmark = pytest.mark.django_db

MONEY_WORDS = {"price", "amount", "cash", "cost", "total", "prepayment", "refund"}


@pytest.fixture
def staff_admin_client(client):
    client.force_login(UserFactory(username="boss", groups=[ADMINS], is_staff=True))
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    return client


@pytest.mark.parametrize(
    "typed, kopecks", [("100", 100_00), ("3 000,50", 3000_50), ("3000.50", 3000_50)]
)
def test_the_bar_price_list_in_the_admin_is_in_roubles(staff_admin_client, typed, kopecks):
    url = reverse("admin:billing_baritem_add")
    page = staff_admin_client.get(url).content.decode()
    assert "Цена, ₽" in page and "копеек" not in page
    response = staff_admin_client.post(url, {"name": "Чай", "price": typed, "is_active": "on"})
    assert response.status_code == 302
    item = BarItem.objects.get()
    assert item.price == kopecks
    change = staff_admin_client.get(reverse("admin:billing_baritem_change", args=[item.pk]))
    shown = {100_00: 'value="100"', 3000_50: 'value="3000,50"'}[kopecks]
    assert shown in change.content.decode()


@pytest.mark.parametrize("typed", ["1e3", "-5", "+5", "ten", "١٠٠"])
def test_the_admin_refuses_a_price_that_is_not_roubles(staff_admin_client, typed):
    url = reverse("admin:billing_baritem_add")
    response = staff_admin_client.post(url, {"name": "Чай", "price": typed, "is_active": "on"})
    assert response.status_code == 200
    assert "Введите сумму в рублях" in response.content.decode()
    assert not BarItem.objects.exists()


def test_every_money_field_of_billing_is_kept_in_kopecks_and_typed_in_roubles():
    """A field named like money (price, amount, cash…) is a MoneyField: its form field, in
    the pages' model forms and in the admin, is the roubles field."""
    integers = []
    for model in apps.get_app_config("billing").get_models():
        for field in model._meta.get_fields():
            if getattr(field, "get_internal_type", None) is None or field.is_relation:
                continue
            named_money = bool(MONEY_WORDS & set(field.name.split("_")))
            if named_money and "Integer" in field.get_internal_type():
                in_roubles = isinstance(field.formfield(), RoublesField)
                integers.append((model.__name__, field.name, in_roubles))
    assert integers and all(is_money for _model, _name, is_money in integers), integers
    for model_name, field_name, _in_roubles in integers:
        field = apps.get_model("billing", model_name)._meta.get_field(field_name)
        assert "₽" in str(field.verbose_name), (model_name, field_name)


def test_the_bar_s_admin_reads_as_russian(staff_admin_client):
    """«Позиция бара "Морс" был успешно добавлен», «Позиция бара с таким Название уже
    существует»: the admin's sentences agree with a masculine noun, and the duplicate's
    message is the model's own."""
    url = reverse("admin:billing_baritem_add")
    posted = {"name": "Морс", "price": "120,50", "is_active": "on"}
    response = staff_admin_client.post(url, posted, follow=True)
    text = re.sub(r"<[^>]+>", "", response.content.decode())
    assert 'Товар бара "Морс" был успешно добавлен.' in text
    response = staff_admin_client.post(url, posted)
    html = response.content.decode()
    assert "Товар бара с таким названием уже есть." in html and "Название уже" not in html
