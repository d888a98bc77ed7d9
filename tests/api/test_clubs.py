"""The API of a network of clubs (issue 32 item 4): each table, game and tournament names its
club; the lists are the club's at the address asked (another club's rows are never listed
nor found there); ``/api/v1/clubs/`` lists the network's clubs, from any club's address,
with their counts of tables and of live games — and nothing else of their rows.

Луза is the demo club (the package's ``demo_club``) at ``testserver``; Сокол, a second club
made by the test at ``sokol.example``, has two active tables and one retired, a game in
progress, a finished one and a tournament, its names marked «Сокольский»."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.current import using_club
from clubs.models import Club
from games.models import Game, GameStatus
from season.models import PointsTable, Series, Stage
from tables.models import Table
from tests.factories import PlayerFactory, TableFactory, UserFactory, ev, finished, record, start
from tournaments.models import Format, Tournament

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "sokol.example"
MARK = "Сокольский"
CLUB_FIELDS = {
    "slug", "name", "city", "time_zone", "url", "address", "hosts", "tables", "live_games",
}  # fmt: skip


@pytest.fixture
def network(demo_club, settings):
    settings.ALLOWED_HOSTS = [HOME, OTHER]
    settings.API_RATE_LIMIT = "1000/min"
    home = Club.objects.order_by("pk").first()
    home.hosts, home.city, home.address = [HOME], "Москва", "ул. Тверская, 1"
    home.save()
    other = Club.objects.create(
        name="Сокол",
        slug="sokol",
        hosts=[OTHER],
        time_zone="Asia/Yekaterinburg",
        city="Екатеринбург",
        address="ул. Ленина, 5",
    )
    with using_club(other):
        marker = UserFactory(username="sokol-api-marker")
        tables = [TableFactory(number=n, name=f"{MARK} {n}") for n in (1, 2, 3)]
        Table.objects.filter(number=3).update(is_active=False)
        rich = PlayerFactory(full_name="Пётр Богатов", phone="+7 999 111-22-33",
                             email="rich@example.com", notes="должен 900 ₽")  # fmt: skip
        live = start(tables[0], "pyramid_free", [rich, "Гость Сокольский"], marker)
        record(live, marker, ev("pot", count=2))
        done = finished(
            "pyramid_free", [(rich, "win", 71, {}), ("Гость Сокольский", "loss", 40, {})], number=2
        )
        cup = Tournament.objects.create(
            name=f"{MARK} кубок", date=date(2026, 12, 1), variant="pyramid_free",
            format=Format.SINGLE,
        )  # fmt: skip
    return home, other, {"live": live, "done": done, "cup": cup}


def get(client, url, host=HOME, **extra):
    answer = client.get(url, headers={"host": host}, **extra)
    assert answer.status_code == 200, (url, host, answer.content[:300])
    return answer.json()


def counts(club):
    with using_club(club):
        return (
            Table.objects.filter(is_active=True).count(),
            Game.objects.filter(status=GameStatus.IN_PROGRESS).count(),
        )


def test_every_table_game_and_tournament_names_its_club(client, network):
    home, other, rows = network
    expected = {
        "slug": home.slug,
        "name": home.name,
        "city": "Москва",
        "time_zone": home.time_zone,
        "url": "http://testserver/",
    }
    tables = get(client, "/api/v1/tables/")["items"]
    games = get(client, "/api/v1/games/?limit=5")["items"]
    tournaments = get(client, "/api/v1/tournaments/")["items"]
    assert tables and games and tournaments
    for item in tables + games + tournaments:
        assert item["club"] == expected
    for url in (
        f"/api/v1/tables/{tables[0]['number']}/",
        f"/api/v1/games/{games[0]['id']}/",
        f"/api/v1/tournaments/{tournaments[0]['id']}/",
    ):
        assert get(client, url)["club"] == expected, url
    # At the other club's address, over HTTPS on a port of its own: its club, its home there.
    theirs = get(client, f"/api/v1/games/{rows['live'].pk}/", host=f"{OTHER}:8443", secure=True)
    assert theirs["club"] == {
        "slug": "sokol",
        "name": "Сокол",
        "city": "Екатеринбург",
        "time_zone": "Asia/Yekaterinburg",
        "url": "https://sokol.example:8443/",
    }
    assert get(client, "/api/v1/tables/1/", host=OTHER)["club"]["slug"] == "sokol"


def test_the_other_clubs_tables_games_and_tournaments_are_not_listed_nor_found(client, network):
    _home, _other, rows = network
    for url in ("/api/v1/tables/", "/api/v1/games/?limit=100", "/api/v1/tournaments/?limit=100"):
        body = client.get(url).content.decode()
        assert MARK not in body, url
        assert '"slug": "sokol"' not in body and '"slug":"sokol"' not in body, url
    ids = {game["id"] for game in get(client, "/api/v1/games/?limit=100")["items"]}
    assert rows["live"].pk not in ids and rows["done"].pk not in ids
    for url in (f"/api/v1/games/{rows['live'].pk}/", f"/api/v1/tournaments/{rows['cup'].pk}/"):
        assert client.get(url).status_code == 404, url
    # At its own address, the other club's lists are its own only.
    tables = get(client, "/api/v1/tables/", host=OTHER)
    assert [t["name"] for t in tables["items"]] == [f"{MARK} 1", f"{MARK} 2"]
    assert tables["items"][0]["status"] == "in_play"
    games = get(client, "/api/v1/games/", host=OTHER)
    assert {g["id"] for g in games["items"]} == {rows["live"].pk, rows["done"].pk}
    tournaments = get(client, "/api/v1/tournaments/", host=OTHER)["items"]
    assert [t["name"] for t in tournaments] == [f"{MARK} кубок"]


def test_the_clubs_are_the_networks_with_their_counts(client, network):
    home, other, _rows = network
    for host in (HOME, OTHER):
        page = get(client, "/api/v1/clubs/", host=host)
        assert page["count"] == 2 and page["limit"] == 50 and page["offset"] == 0
        by_slug = {item["slug"]: item for item in page["items"]}
        assert set(by_slug) == {home.slug, "sokol"}
        for item in page["items"]:
            assert set(item) == CLUB_FIELDS
        # Екатеринбург before Москва: by city
        assert [item["slug"] for item in page["items"]] == ["sokol", home.slug]
        sokol = by_slug["sokol"]
        assert sokol == {
            "slug": "sokol",
            "name": "Сокол",
            "city": "Екатеринбург",
            "time_zone": "Asia/Yekaterinburg",
            "url": "http://sokol.example/",
            "address": "ул. Ленина, 5",
            "hosts": [OTHER],
            "tables": 2,  # the retired table is not counted
            "live_games": 1,  # nor the finished game
        }
        tables, live = counts(home)
        assert tables >= 6 and live >= 1  # the demo club's
        assert by_slug[home.slug]["tables"] == tables
        assert by_slug[home.slug]["live_games"] == live
        assert by_slug[home.slug]["url"] == "http://testserver/"
        assert by_slug[home.slug]["address"] == "ул. Тверская, 1"
    second = get(client, "/api/v1/clubs/?limit=1&offset=1")
    assert second["count"] == 2 and [item["slug"] for item in second["items"]] == [home.slug]
    assert get(client, "/api/v1/clubs/sokol/") == sokol
    assert get(client, f"/api/v1/clubs/{home.slug}/", host=OTHER)["tables"] == tables


def test_a_club_that_is_not_there_is_a_404_and_a_bad_slug_a_400(client, network):
    answer = client.get("/api/v1/clubs/nowhere/", HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 404 and answer.json() == {"detail": "Не найдено."}
    for slug in ("so%20kol", "x" * 51, "сокол"):
        answer = client.get(f"/api/v1/clubs/{slug}/", HTTP_ACCEPT_LANGUAGE="ru")
        assert answer.status_code == 400, slug
        assert answer.json()["detail"] == "Неверный параметр запроса."


def test_nothing_private_of_a_club_is_answered(client, network):
    """The clubs' answer is counts: no player, phone, e-mail, note, money or staff."""
    for host in (HOME, OTHER):
        for url in ("/api/v1/clubs/", "/api/v1/clubs/sokol/"):
            body = client.get(url, headers={"host": host}).content.decode()
            for private in ("999", "rich@", "должен", "900", "Богатов", "marker", "₽", "tariff"):
                assert private not in body, (url, private)


def test_the_clubs_list_costs_the_same_queries_however_many_clubs(client, network):
    get(client, "/api/v1/clubs/")  # the process reads the clubs by host once (a club saved)
    with CaptureQueriesContext(connection) as two:
        get(client, "/api/v1/clubs/")
    assert len(two) == 2  # the count and the page, the counts of rows within it
    third = Club.objects.create(
        name="Нева", slug="neva", hosts=["neva.example"], time_zone="Europe/Moscow", city="СПб"
    )
    with using_club(third):
        tables = [TableFactory(number=n) for n in range(1, 5)]
        for table in tables[:3]:
            start(table, "pyramid_free", ["Гость А", "Гость Б"], UserFactory())
    get(client, "/api/v1/clubs/")
    with CaptureQueriesContext(connection) as three:
        page = get(client, "/api/v1/clubs/")
    assert len(three) == len(two)
    neva = next(item for item in page["items"] if item["slug"] == "neva")
    assert (neva["tables"], neva["live_games"]) == (4, 3)


def test_a_single_club_without_host_names_is_at_any_address(client, table, settings):
    """A site of one club (its host names left empty: it answers any address): its home is
    the site's own, ``/``."""
    settings.ALLOWED_HOSTS = ["*"]
    (club,) = Club.objects.all()
    assert club.hosts == []
    page = get(client, "/api/v1/clubs/", host="anything.example")
    assert page["count"] == 1 and page["items"][0]["url"] == "/"
    assert get(client, "/api/v1/tables/3/")["club"]["url"] == "/"


def test_a_match_and_a_players_tournaments_name_their_club(client, network):
    """A match, its tournament and the tournaments of a player's performances name their
    club, as the tables, games and tournaments do."""
    home, _other, _rows = network
    here = {
        "slug": home.slug, "name": home.name, "city": "Москва", "time_zone": home.time_zone,
        "url": "http://testserver/",
    }  # fmt: skip
    for item in get(client, "/api/v1/tournaments/")["items"]:
        detail = get(client, f"/api/v1/tournaments/{item['id']}/")
        played = [m for m in detail["matches"] if m["match_id"]]
        if not played:
            continue
        match = get(client, f"/api/v1/matches/{played[0]['match_id']}/")
        assert match["club"] == here and match["tournament"]["club"] == here
        player = next(e["player_id"] for e in detail["entrants"] if e["player_id"])
        performances = get(client, f"/api/v1/players/{player}/")["performances"]
        entered = [p["tournament"] for p in performances if p["tournament"]]
        assert entered and all(t["club"] == here for t in entered)
        break
    else:
        pytest.fail("the demo club has no tournament with a match played")


def test_a_network_series_names_the_club_of_each_stage(client, network):
    """A network's series adds up tournaments of several clubs: each stage's tournament names
    its own club (found at that club's address only), wherever the series is asked for."""
    home, other, rows = network
    with using_club(home):
        ours = Tournament.objects.create(
            name="Кубок Лузы", date=date(2026, 11, 1), variant="pyramid_free",
            format=Format.SINGLE,
        )  # fmt: skip
    series = Series.objects.create(name="Кубок сети", season="2026")
    Stage.objects.create(series=series, tournament=ours, number=1, table=PointsTable.CLUB)
    Stage.objects.create(series=series, tournament=rows["cup"], number=2, table=PointsTable.CLUB)
    for host in (HOME, OTHER):
        stages = get(client, f"/api/v1/series/{series.pk}/", host=host)["stages"]
        assert [(s["tournament"]["id"], s["tournament"]["club"]["slug"]) for s in stages] == [
            (ours.pk, home.slug),
            (rows["cup"].pk, "sokol"),
        ]
        assert stages[1]["tournament"]["club"]["url"] == "http://sokol.example/"
    # The stage's tournament is found at the address its club names.
    assert get(client, f"/api/v1/tournaments/{rows['cup'].pk}/", host=OTHER)["name"] == (
        f"{MARK} кубок"
    )
