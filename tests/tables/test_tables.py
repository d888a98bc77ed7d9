import csv
import io
import re
from pathlib import Path

import pytest
import segno
from django.conf import settings as django_settings
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
        reverse("tables:qr_sheet"),
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


# --- the boards' addresses and the QR sheet --------------------------------------------------


def test_list_links_each_tables_board(admin_client, table):
    TableFactory(number=8)
    html = admin_client.get(reverse("tables:list")).content.decode()
    for number in (7, 8):
        assert f'href="{reverse("games:board", args=[number])}" data-board' in html
    assert reverse("tables:qr_sheet") in html


def qr_cards(html):
    return re.findall(r'<figure class="qr-card" data-table="(\d+)">(.*?)</figure>', html, re.S)


def modules_drawn(svg, border=2):
    """The dark modules of a segno SVG (lines of ``h`` runs along each row), as a matrix."""
    size = int(re.search(r'viewBox="0 0 (\d+) ', svg)[1]) - 2 * border
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg)[1]
    dark, x, y = set(), 0.0, 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            dark.update((int(y - 0.5) - border, int(x) + i - border) for i in range(int(a)))
            x += float(a)
    return [tuple(int((row, col) in dark) for col in range(size)) for row in range(size)]


def test_the_qr_sheet_has_one_card_per_active_table_encoding_its_board_address(
    admin_client, settings
):
    settings.ALLOWED_HOSTS = ["club.example"]
    for number in (1, 2, 12):
        TableFactory(number=number, name=f"Стол {number}")
    TableFactory(number=3, out_of_service=True)  # still stands in the hall
    TableFactory(number=4, is_active=False)  # gone: no card
    response = admin_client.get(reverse("tables:qr_sheet"), HTTP_HOST="club.example")
    assert response.status_code == 200
    cards = qr_cards(response.content.decode())
    assert [number for number, _card in cards] == ["1", "2", "3", "12"]
    for number, card in cards:
        url = f"http://club.example/tables/{number}/board/"
        assert f"№ {number}" in card and f'href="{url}"' in card
        svg = re.search(r"<svg.*?</svg>", card, re.S)[0]
        # The code drawn is the one of the board's absolute address, module by module.
        assert modules_drawn(svg) == [tuple(row) for row in segno.make(url, error="m").matrix]
        assert modules_drawn(svg) != [
            tuple(row) for row in segno.make(url.replace(number, "99"), error="m").matrix
        ]


def test_the_qr_sheet_prints_codes_at_least_6_cm_wide():
    css = (Path(django_settings.BASE_DIR) / "static/css/roster.css").read_text()
    printed = re.search(r"@media print \{(.*)\}", css, re.S)[1]
    width = re.search(r"\.qr-code svg \{ width: (\d+)mm", printed)
    assert width and int(width[1]) >= 60
