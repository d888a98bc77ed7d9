"""Bad input never gives a 500: the requests a fuzzer found, each refused and changing nothing.

The property-based sweep over every URL is ``tests/clubsite/test_fuzz.py``.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.models import Event, Game
from players.models import Player
from tests.factories import GameFactory, PlayerFactory, TableFactory
from toolbox.parsing import parse_id, parse_int

pytestmark = pytest.mark.django_db
FORM = "application/x-www-form-urlencoded"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12),
        (" 7 ", 7),
        ("-53", -53),
        ("+4", 4),
        ("0012", 12),
        ("²", None),
        ("٣", None),  # an Arabic-Indic three: str.isdigit() says yes, int() reads 3
        ("1²", None),
        ("9" * 18, 10**18 - 1),
        ("9" * 19, None),
        ("9" * 5000, None),
        ("", None),
        ("-", None),
        ("1.5", None),
        ("1e3", None),
        ("1_000", None),
        ("a\x001", None),
        (None, None),
        (12, None),
    ],
)
def test_parse_int_takes_ascii_digits_only_and_caps_their_length(text, expected):
    assert parse_int(text) == expected


def test_parse_id_refuses_a_sign():
    assert parse_id("12") == 12
    assert parse_id("-12") is None and parse_id("+12") is None


def snapshot():
    return (
        list(Game.objects.order_by("pk").values()),
        list(Event.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
    )


@pytest.fixture
def anonymous():
    return Client(raise_request_exception=False)


@pytest.fixture
def marker(marker_user):
    client = Client(raise_request_exception=False)
    client.force_login(marker_user)
    return client


@pytest.fixture
def admin(admin_user):
    admin_user.is_staff = True
    admin_user.save()
    client = Client(raise_request_exception=False)
    client.force_login(admin_user)
    return client


def test_the_handicap_hint_with_a_superscript_two_is_no_500(anonymous, marker):
    PlayerFactory()
    url = reverse("games:handicap_hint") + "?variant=cue_run&seats=p:%C2%B2&seats=p:1"
    assert anonymous.get(url).status_code == 302  # to the login page: markers only
    response = marker.get(url, headers={"Accept-Language": "en"})
    assert response.status_code == 200  # an unknown seat suggests nothing, like a guest
    assert "No handicap is suggested" in response.content.decode()


@pytest.mark.parametrize("seq", ["%C2%B2", "9" * 5000, "-1", "", "1%00"])
def test_a_tap_with_a_malformed_sequence_number_is_refused(marker, seq):
    game = GameFactory()
    before = snapshot()
    url = reverse("games:record", args=[game.pk])
    response = marker.post(url, f"seq={seq}&kind=stroke", content_type=FORM)
    assert response.status_code == 400
    assert snapshot() == before


@pytest.mark.parametrize("op", ["add:%C2%B2", "add:" + "9" * 5000, "up:%D9%A3", "remove:-1"])
def test_a_malformed_seat_operation_re_renders_the_form_unchanged(marker, op):
    TableFactory()
    before = snapshot()
    response = marker.post(reverse("games:start"), f"op={op}&seats=g:Ann", content_type=FORM)
    assert response.status_code == 200
    assert "Ann" in response.content.decode()
    assert snapshot() == before


def test_a_guest_name_with_a_nul_byte_is_a_400(marker):
    table = TableFactory()
    before = snapshot()
    body = f"op=start&variant=cork&table={table.pk}&seats=g:a%00b&seats=g:Bob"
    response = marker.post(reverse("games:start"), body, content_type=FORM)
    assert response.status_code == 400
    assert snapshot() == before


@pytest.mark.parametrize("name", ["games:player_search", "players:list"])
def test_a_search_with_a_nul_byte_is_a_400(marker, admin, name):
    client = admin if name == "players:list" else marker
    response = client.get(reverse(name) + "?q=a%00", headers={"Accept-Language": "ru"})
    assert response.status_code == 400
    assert "Неверный запрос" in response.content.decode()


def test_a_seat_token_with_unicode_digits_in_the_search_is_ignored(marker):
    PlayerFactory(full_name="Анна Каренина")
    response = marker.get(reverse("games:player_search") + "?q=анна&seats=p:%C2%B2")
    assert response.status_code == 200
    assert "Анна Каренина" in response.content.decode()


def test_the_admin_search_with_a_nul_byte_is_a_400(admin):
    assert admin.get("/admin/players/player/?q=a%00").status_code == 400


def test_a_csv_with_a_nul_byte_is_a_file_error_and_imports_nothing(admin):
    before = snapshot()
    file = SimpleUploadedFile(
        "players.csv", b"full_name,notes\nAnn,x\nBo\x00b,y\n", content_type="text/csv"
    )
    response = admin.post(reverse("players:import"), {"file": file})
    assert response.status_code == 200
    html = response.content.decode()
    assert "NUL" in html and "3" in html
    assert snapshot() == before
    # The preview's confirm button posts the text back: a NUL there is refused as well.
    response = admin.post(reverse("players:import_confirm"), {"csv_text": "full_name\nA\x00"})
    assert response.status_code == 400
    assert snapshot() == before


@pytest.mark.parametrize("number", ["99999", "9" * 30])
def test_a_poll_of_a_table_that_does_not_exist_is_a_404_and_caches_nothing(anonymous, number):
    from django.core.cache import cache

    cache.clear()
    TableFactory(number=1)
    response = anonymous.get(f"/tables/{number}/board/?fp=x", headers={"HX-Request": "true"})
    assert response.status_code == 404
    assert anonymous.get(f"/tables/{number}/board/").status_code == 404
    assert not any("t" + number in str(key) for key in getattr(cache, "_cache", {}))


def test_a_poll_of_a_table_that_exists_still_answers(anonymous):
    TableFactory(number=3)
    response = anonymous.get("/tables/3/board/?fp=x", headers={"HX-Request": "true"})
    assert response.status_code == 200
    fp = response["X-Board-Fingerprint"]
    response = anonymous.get(f"/tables/3/board/?fp={fp}", headers={"HX-Request": "true"})
    assert response.status_code == 204
