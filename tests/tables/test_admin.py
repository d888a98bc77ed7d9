"""The Django admin obeys the tables pages' rule: a table in play stays active and in service."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tables.models import Table
from tests.factories import GameFactory, TableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    client.force_login(User.objects.create_superuser("root", password="pass-1234"))
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def change_form_data(table, **changes):
    data = {
        "number": table.number,
        "name": table.name,
        "kind": table.kind,
        "is_active": "on" if table.is_active else "",
        "out_of_service": "on" if table.out_of_service else "",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value != ""}


def flags(table):
    table.refresh_from_db()
    return table.is_active, table.out_of_service


@pytest.mark.parametrize("change", [{"out_of_service": "on"}, {"is_active": ""}])
def test_the_change_form_refuses_to_take_a_table_in_play_out_of_use(superuser_client, change):
    table = TableFactory(number=4, name="У окна")
    GameFactory(table=table)
    url = reverse("admin:tables_table_change", args=[table.pk])
    response = superuser_client.post(url, change_form_data(table, name="Новое имя", **change))
    assert response.status_code == 200  # the form again, with the error
    assert "Table 4 has a game in progress." in response.content.decode()
    assert flags(table) == (True, False)
    assert table.name == "У окна"  # nothing saved


def test_the_change_form_saves_a_table_that_is_free(superuser_client):
    table = TableFactory(number=4)
    url = reverse("admin:tables_table_change", args=[table.pk])
    response = superuser_client.post(url, change_form_data(table, out_of_service="on"))
    assert response.status_code == 302
    assert flags(table) == (True, True)
    # A table in play may still be renamed.
    other = TableFactory(number=5)
    GameFactory(table=other)
    url = reverse("admin:tables_table_change", args=[other.pk])
    assert superuser_client.post(url, change_form_data(other, name="Центр")).status_code == 302
    other.refresh_from_db()
    assert other.name == "Центр"


def changelist_data(tables, out_of_service):
    data = {
        "form-TOTAL_FORMS": str(len(tables)),
        "form-INITIAL_FORMS": str(len(tables)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    for index, table in enumerate(tables):
        data[f"form-{index}-id"] = str(table.pk)
        if table.pk in out_of_service:
            data[f"form-{index}-out_of_service"] = "on"
    return data


def test_the_list_s_editable_column_refuses_a_table_in_play(superuser_client):
    free, busy = TableFactory(number=1), TableFactory(number=2)
    GameFactory(table=busy)
    url = reverse("admin:tables_table_changelist")
    tables = list(Table.objects.order_by("number"))  # the list's order
    response = superuser_client.post(url, changelist_data(tables, {free.pk, busy.pk}))
    assert response.status_code == 200
    assert "Table 2 has a game in progress." in response.content.decode()
    assert flags(busy) == (True, False)
    assert flags(free) == (True, False)  # the list is saved all or nothing
    response = superuser_client.post(url, changelist_data(tables, {free.pk}))
    assert response.status_code == 302
    assert flags(free) == (True, True) and flags(busy) == (True, False)
