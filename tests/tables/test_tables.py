import csv
import io

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from games.models import Game, GameStatus
from tables.models import Table, TableStatus
from tables.selectors import tables_with_status
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db


def start_game(table):
    return Game.objects.create(table=table, variant="cork", status=GameStatus.IN_PROGRESS)


def status_by_number(active_only=True):
    return {table.number: table.status for table in tables_with_status(active_only)}


# --- model and status -----------------------------------------------------------------------


def test_table_numbers_are_unique():
    TableFactory(number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(number=1)


def test_status_is_free_in_play_or_out_of_service():
    TableFactory(number=1)
    start_game(TableFactory(number=2))
    TableFactory(number=3, out_of_service=True)
    TableFactory(number=4, is_active=False)
    Game.objects.create(table=TableFactory(number=5), variant="cork", status=GameStatus.FINISHED)
    assert status_by_number() == {
        1: TableStatus.FREE,
        2: TableStatus.IN_PLAY,
        3: TableStatus.OUT_OF_SERVICE,
        5: TableStatus.FREE,
    }
    assert status_by_number(active_only=False)[4] == TableStatus.OUT_OF_SERVICE


def test_str_names_the_table():
    assert str(TableFactory.build(number=3, name="У окна")) == "№3 У окна"


# --- permissions ----------------------------------------------------------------------------


@pytest.fixture
def table(db):
    return TableFactory(number=7, name="Турнирный")


def page_urls(table):
    return [
        reverse("tables:list"),
        reverse("tables:create"),
        reverse("tables:edit", args=[table.pk]),
        reverse("tables:export"),
    ]


def post_urls(table):
    return [
        reverse(name, args=[table.pk])
        for name in [
            "tables:activate",
            "tables:deactivate",
            "tables:out_of_service",
            "tables:back_in_service",
        ]
    ]


def test_anonymous_visitors_are_sent_to_log_in(client, table):
    for url in page_urls(table):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    for url in post_urls(table):
        assert client.post(url).status_code == 302, url


@pytest.mark.parametrize("who", ["plain_user", "marker_user"])
def test_staff_without_the_roster_role_are_refused(client, table, who, request):
    client.force_login(request.getfixturevalue(who))
    for url in page_urls(table):
        assert client.get(url).status_code == 403, url
    for url in post_urls(table):
        assert client.post(url).status_code == 403, url
    table.refresh_from_db()
    assert table.is_active and not table.out_of_service


def test_admins_see_every_tables_page(admin_client, table):
    for url in page_urls(table):
        assert admin_client.get(url).status_code == 200, url
    for url in post_urls(table):
        assert admin_client.get(url).status_code == 405, url


def test_posts_need_the_csrf_token(admin_user, table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin_user)
    assert client.post(reverse("tables:deactivate", args=[table.pk])).status_code == 403
    table.refresh_from_db()
    assert table.is_active


# --- pages ----------------------------------------------------------------------------------


def test_list_shows_every_table_with_status(admin_client, table):
    start_game(TableFactory(number=8))
    TableFactory(number=9, is_active=False)
    html = admin_client.get(reverse("tables:list")).content.decode()
    assert "Турнирный" in html
    assert "status-in_play" in html and "status-free" in html and "status-out_of_service" in html
    assert reverse("tables:activate", args=[Table.objects.get(number=9).pk]) in html


def test_create_and_edit_a_table(admin_client):
    response = admin_client.post(
        reverse("tables:create"), {"number": "5", "name": "Малый", "kind": "pyramid_10"}
    )
    assert response.status_code == 302
    table = Table.objects.get(number=5)
    assert (table.name, table.kind) == ("Малый", "pyramid_10")
    admin_client.post(
        reverse("tables:edit", args=[table.pk]),
        {"number": "6", "name": "Большой", "kind": "pyramid_12"},
    )
    table.refresh_from_db()
    assert (table.number, table.name) == (6, "Большой")


@pytest.mark.parametrize(
    "data, field",
    [
        ({"number": "7", "name": "", "kind": "pyramid_12"}, "number"),  # taken
        ({"number": "0", "name": "", "kind": "pyramid_12"}, "number"),
        ({"number": "", "name": "", "kind": "pyramid_12"}, "number"),
        ({"number": "8", "name": "", "kind": "snooker"}, "kind"),
    ],
)
def test_bad_input_is_shown_inline_and_nothing_saved(admin_client, table, data, field):
    response = admin_client.post(reverse("tables:create"), data)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert 'class="errorlist' in response.content.decode()
    assert Table.objects.count() == 1


def test_deactivate_and_activate(admin_client, table):
    admin_client.post(reverse("tables:deactivate", args=[table.pk]))
    table.refresh_from_db()
    assert not table.is_active
    admin_client.post(reverse("tables:activate", args=[table.pk]))
    table.refresh_from_db()
    assert table.is_active


def test_out_of_service_toggle(admin_client, table):
    admin_client.post(reverse("tables:out_of_service", args=[table.pk]))
    assert status_by_number()[7] == TableStatus.OUT_OF_SERVICE
    admin_client.post(reverse("tables:back_in_service", args=[table.pk]))
    assert status_by_number()[7] == TableStatus.FREE


def test_a_table_in_play_cannot_be_deactivated_or_put_out_of_service(admin_client, table):
    start_game(table)
    for name in ["tables:deactivate", "tables:out_of_service"]:
        response = admin_client.post(reverse(name, args=[table.pk]), follow=True)
        assert [m.level_tag for m in response.context["messages"]] == ["error"]
    table.refresh_from_db()
    assert table.is_active and not table.out_of_service


def test_export_csv(admin_client, table):
    TableFactory(number=2, name="Зелёный", out_of_service=True)
    response = admin_client.get(reverse("tables:export"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == [
        ["number", "name", "kind", "active", "out_of_service", "status"],
        ["2", "Зелёный", "pyramid_12", "1", "1", "out_of_service"],
        ["7", "Турнирный", "pyramid_12", "1", "0", "free"],
    ]
