"""The network's page, ``/network/`` (issue 32 item 4): every club by city, its address, the
link to its own site (its first host name, with the scheme and port of the request), its
tables and which are in play now — who plays and the score. The same at every club's
address; linked from the home page's foot when there are several clubs; a site of one club
lists that club."""

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.current import only_club, using_club
from clubs.models import Club
from tests.factories import PlayerFactory, TableFactory, UserFactory, ev, record, start

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "neva.example"


def text(response):
    """The main part's visible text in one line (tags dropped, spaces folded)."""
    assert response.status_code == 200
    body = response.content.decode().split("<main", 1)[1].split("</main>", 1)[0]
    words = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))
    return words.replace(" ,", ",")


@pytest.fixture
def first_club(db, settings):
    return Club.objects.order_by("pk").first() or only_club()


@pytest.fixture
def two_cities(first_club, settings):
    """Луза in Moscow (testserver: a free table, one in play, one retired) and Нева in
    St Petersburg (neva.example: a table in play, one out of service)."""
    settings.ALLOWED_HOSTS = [HOME, OTHER]
    first_club.name, first_club.city, first_club.address = "Луза", "Москва", "ул. Тверская, 1"
    first_club.hosts = [HOME]
    first_club.save()
    neva = Club.objects.create(
        name="Нева", slug="neva", hosts=[OTHER, "www.neva.example"], time_zone="Europe/Moscow",
        city="Санкт-Петербург", address="Невский пр-т, 28",
    )  # fmt: skip
    sokol = PlayerFactory(full_name="Иван Соколов", nickname="Сокол", phone="+7 912 345-67-89")
    lena = PlayerFactory(full_name="Елена Лебедева", nickname="Лена")
    with using_club(first_club):
        TableFactory(number=1, name="Зелёный")
        busy = TableFactory(number=2, name="Турнирный")
        TableFactory(number=3, name="Списанный", is_active=False)
        record(start(busy, "pyramid_free", [sokol, lena], UserFactory()), UserFactory(),
               ev("pot", count=2), ev("stroke"))  # fmt: skip
    with using_club(neva):
        table = TableFactory(number=1, name="Невский")
        TableFactory(number=2, name="Сломанный", out_of_service=True)
        game = start(table, "cork", [lena, "Гость Борис", sokol], UserFactory())
        record(game, UserFactory(), ev("score"))
    return first_club, neva


def test_the_clubs_by_city_with_their_tables_and_games(client, two_cities):
    page = text(client.get("/network/"))
    assert "Клубы сети" in page
    # Moscow, then St Petersburg; each club with its address and its tables.
    moscow, petersburg = page.index("Москва"), page.index("Санкт-Петербург")
    luza = page.index("Луза Вы на сайте этого клуба. ул. Тверская, 1")
    neva = page.index("Нева Невский пр-т, 28")
    assert moscow < luza < petersburg < neva
    luza_part, neva_part = page[luza:petersburg], page[neva:]
    assert "Столов: 2 · идёт партий: 1" in luza_part
    assert "Стол 1 Зелёный · Свободен" in luza_part
    assert "Стол 2 Турнирный Идёт игра Свободная пирамида («Американка»): Сокол – Лена, 2 : 0" in (
        luza_part
    )
    assert "Списанный" not in page
    assert "Столов: 2 · идёт партий: 1" in neva_part
    # A game of three: each name with its score.
    assert re.search(r"Стол 1 Невский Идёт игра Пробка: Лена \d+ · Гость Борис \d+ · Сокол \d+",
                     neva_part)  # fmt: skip
    assert "Стол 2 Сломанный · Не работает" in neva_part
    assert "Вы на сайте" not in neva_part
    assert "912" not in page  # a player's phone: names only


def test_each_club_links_to_its_own_site_as_the_request_was_made(client, two_cities):
    html = client.get("/network/").content.decode()
    assert 'href="http://neva.example/"' in html
    assert 'href="http://neva.example/tables/1/board/"' in html
    assert 'href="http://testserver/tables/2/board/"' in html
    secure = client.get("/network/", headers={"host": "neva.example:8443"}, secure=True)
    html = secure.content.decode()
    assert 'href="https://neva.example:8443/"' in html
    assert 'href="https://testserver:8443/"' in html
    # At the other club's address the page is the same network, that club being «here».
    page = text(client.get("/network/", headers={"host": OTHER}))
    assert page.index("Луза") < page.index("Нева") < page.index("Вы на сайте этого клуба.")


def test_the_home_page_links_the_network_when_there_are_several_clubs(client, first_club):
    assert 'href="/network/"' not in client.get("/").content.decode()
    page = text(client.get("/network/"))  # one club: still a page, of that club
    assert first_club.name in page and "Столов пока нет." in page


def test_with_several_clubs_the_home_page_links_the_network(client, two_cities):
    home = client.get("/").content.decode()
    assert 'href="/network/"' in home and "Все клубы сети" in home
    assert 'href="/network/"' in client.get("/", headers={"host": OTHER}).content.decode()


def test_a_site_of_one_club_lists_that_club(client, first_club, settings):
    settings.ALLOWED_HOSTS = ["*"]
    first_club.city = ""
    first_club.save()
    with using_club(first_club):
        TableFactory(number=1)
        busy = TableFactory(number=4, name="У окна")
        start(busy, "pyramid_free", ["Гость А", "Гость Б"], UserFactory())
    response = client.get("/network/", headers={"host": "anything.example:8000"})
    html, page = response.content.decode(), text(response)
    assert 'href="/"' in html and 'href="/tables/4/board/"' in html  # no host: its own
    assert f"{first_club.name} Вы на сайте этого клуба." in page
    playing = "Стол 4 У окна Идёт игра Свободная пирамида («Американка»): Гость А – Гость Б, 0 : 0"
    assert playing in page
    assert "Другие клубы" not in page  # no city: no heading for one group


def test_the_page_costs_the_same_queries_however_many_clubs(client, two_cities):
    client.get("/network/")  # the process reads the clubs by host once (a club was saved)
    with CaptureQueriesContext(connection) as two:
        client.get("/network/")
    assert len(two) == 4  # the clubs, the tables, the games, their seats
    third = Club.objects.create(
        name="Сокол", slug="sokol", hosts=["sokol.example"], time_zone="Europe/Moscow"
    )
    with using_club(third):
        for number in range(1, 6):
            start(TableFactory(number=number), "pyramid_free", ["А", "Б"], UserFactory())
    client.get("/network/")
    with CaptureQueriesContext(connection) as three:
        page = text(client.get("/network/"))
    assert len(three) == len(two)
    assert "Другие клубы Сокол" in page and "Столов: 5 · идёт партий: 5" in page
