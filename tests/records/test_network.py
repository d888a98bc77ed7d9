"""The network's records (issue 32 item 4, ``records/network.py``): a person's page across
the network (``/players/<pk>/network/``: every club's games and records of one person) and
the leaderboards' network scope (``/leaderboards/?scope=network``).

Two clubs: Луза at ``testserver`` (Moscow time) and Сокол at ``sokol.example`` (Omsk time,
three hours ahead). Иван plays at both, Олег at Луза only, Лена and Павел at Сокол only."""

import csv
import io
import re

import pytest
from django.test import Client

from billing.services.bills import open_counter_bill
from clubs.current import using_club
from players.models import Membership
from records import network
from records.views.games import LEADERBOARD_PAGE
from tests.factories import T0, PlayerFactory, UserFactory, cork_stats, finished
from tests.me.conftest import account
from toolbox.roles import ADMINS

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "sokol.example"
PHONE, EMAIL, NOTES = "+7 901 234-56-78", "ivan@example.com", "должен за бильярд"


@pytest.fixture
def people(home_and_sokol):
    """Иван wins a cork game at Луза (against Олег) and one at Сокол (against Лена); Павел
    beats Лена at Сокол; Сокол has a bill for Иван."""
    home, other = home_and_sokol
    with using_club(home):
        ivan = PlayerFactory(full_name="Иван Петров", phone=PHONE, email=EMAIL, notes=NOTES)
        oleg = PlayerFactory(full_name="Олег Громов")
        at_home = finished(
            "cork", [(ivan, "win", 5, cork_stats()), (oleg, "loss", 1, cork_stats())]
        )
    Membership.everywhere.create(club=other, player=ivan)
    with using_club(other):
        lena = PlayerFactory(full_name="Лена Соколова", phone="+7 902 000-11-22")
        pavel = PlayerFactory(full_name="Павел Орлов")
        at_sokol = finished(
            "cork", [(ivan, "win", 5, cork_stats()), (lena, "loss", 2, cork_stats())], number=4
        )
        finished(
            "cork",
            [(pavel, "win", 5, cork_stats()), (lena, "loss", 0, cork_stats())],
            at=T0.replace(hour=20),
            number=4,
        )
        open_counter_bill(
            reference="test:ivan", title="Счёт Сокольский", line="Взнос Сокольский",
            amount=123_456, user=UserFactory(), payer_name="Иван Петров", player=ivan,
        )  # fmt: skip
    return home, other, {"ivan": ivan, "oleg": oleg, "lena": lena, "pavel": pavel,
                         "at_home": at_home, "at_sokol": at_sokol}  # fmt: skip


def page(client, url, host=HOME, **query):
    response = client.get(url, query, headers={"host": host})
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- a person's page across the network -------------------------------------------------------


def test_a_persons_network_page_lists_his_games_and_records_at_every_club(client, people):
    home, _other, p = people
    html = page(client, f"/players/{p['ivan'].pk}/network/")
    rows = re.findall(r'<tr class="outcome-win" data-game="(\d+)" data-club="(\w+)">', html)
    assert sorted(rows) == sorted(
        [(str(p["at_home"].pk), home.slug), (str(p["at_sokol"].pk), "sokol")]
    )
    # The game of Сокол is linked at Сокол's address (its page is found there only); the
    # game of this club where it is.
    assert f'href="http://{OTHER}/games/{p["at_sokol"].pk}/"' in html
    assert f'href="/games/{p["at_home"].pk}/"' in html
    # His record over both clubs' games: 2 games, 2 wins; and at each club, one.
    summary = re.search(r'<tr data-variant="cork">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r'<td class="num">([\d,.]+)</td>', summary)[:3] == ["2", "2", "0"]
    for slug in (home.slug, "sokol"):
        by_club = re.search(rf'<tr data-club="{slug}">(.*?)</tr>', html, re.S).group(1)
        assert re.findall(r'<td class="num">([\d,.]+)</td>', by_club)[:2] == ["1", "1"]
    assert 'id="figures-cork"' in html and 'id="rating-cork"' in html
    # His clubs, named; his opponents, each linked to his own network page.
    clubs = re.search(r"data-person-clubs>(.*?)</p>", html, re.S).group(1)
    assert home.name in clubs and "Сокол" in clubs and f'href="http://{OTHER}/"' in clubs
    assert f'href="/players/{p["lena"].pk}/network/"' in html


def test_each_game_s_time_is_its_club_s(client, people):
    _home, _other, p = people
    html = page(client, f"/players/{p['ivan'].pk}/network/")
    # T0 is 18:00 in Moscow: 21:00 in Omsk.
    assert re.search(rf'data-game="{p["at_home"].pk}"[^>]*>\s*<td>10\.03\.2025 18:00</td>', html)
    assert re.search(rf'data-game="{p["at_sokol"].pk}"[^>]*>\s*<td>10\.03\.2025 21:00</td>', html)


@pytest.mark.parametrize("who", [None, "home admin", "other admin"])
def test_the_network_page_shows_no_phone_nor_money_to_anyone(people, who):
    home, other, p = people
    client = Client()
    if who:
        club = home if who == "home admin" else other
        with using_club(club):
            user = UserFactory(username=f"{club.slug}-admin", groups=[ADMINS])
        client.force_login(user)
    for person, host in ((p["ivan"], HOME), (p["ivan"], OTHER), (p["lena"], HOME)):
        html = page(client, f"/players/{person.pk}/network/", host=host)
        assert person.full_name in html
        for private in (PHONE, EMAIL, NOTES, person.phone, "Сокольский", "1 234", "₽"):
            assert private not in html, (who, host, private)
        assert "data-phone-access" not in html


def test_the_network_s_figures_are_cached_apart_from_each_club_s(client, people, settings):
    """With a real cache, a club's records and board and the network's are each their own,
    the second time too (from the cache): neither is served the other's figures."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    _home, _other, p = people
    ivan = p["ivan"].pk

    def cork_games(html):
        row = re.search(r'<tr data-variant="cork">(.*?)</tr>', html, re.S).group(1)
        return re.findall(r'<td class="num">(\d+)</td>', row)[0]

    for _ in range(2):  # the second time from the cache
        assert cork_games(page(client, f"/players/{ivan}/")) == "1"
        assert cork_games(page(client, f"/players/{ivan}/network/")) == "2"
        board = {"variant": "cork", "min_games": 1}
        assert "Лена Соколова" not in page(client, "/leaderboards/", **board)
        assert "Лена Соколова" in page(client, "/leaderboards/", **board, scope="network")


def test_an_unknown_person_is_not_found(client, people):
    assert client.get("/players/999999/network/").status_code == 404
    assert client.get("/players/x/network/").status_code == 404


def test_his_games_come_in_pages(client, people):
    _home, other, p = people
    with using_club(other):
        for hour in range(26):
            finished(
                "cork",
                [(p["ivan"], "loss", 1, cork_stats()), (p["pavel"], "win", 5, cork_stats())],
                at=T0.replace(day=11, hour=hour % 24, minute=hour),
                number=4,
            )
    url = f"/players/{p['ivan'].pk}/network/"
    first = page(client, url)
    assert first.count('<tr class="outcome-') == network.GAMES_PER_PAGE
    assert "Страница 1 из 2" in first
    htmx = {"HX-Request": "true", "HX-Target": "person-games"}
    second = client.get(url, {"page": 2}, headers=htmx)
    body = second.content.decode()
    assert body.lstrip().startswith('<div id="person-games">') and "<h1>" not in body
    # The two oldest: his win at Луза (18:00) and at Сокол (T0 in Omsk) of 10 March.
    assert body.count('<tr class="outcome-') == 3 and "Страница 2 из 2" in body
    assert client.get(url, {"page": "x"}).status_code == 200  # a bad link: page 1


def test_the_player_page_and_me_link_the_network_page(client, people):
    home, _other, p = people
    html = page(client, f"/players/{p['ivan'].pk}/")
    switch = re.search(r'<nav class="scope-switch".*?</nav>', html, re.S).group(0)
    assert f'href="/players/{p["ivan"].pk}/" aria-current="page">{home.name}</a>' in switch
    assert f'href="/players/{p["ivan"].pk}/network/">Все клубы</a>' in switch
    there = page(client, f"/players/{p['ivan'].pk}/network/")
    assert f'href="/players/{p["ivan"].pk}/network/" aria-current="page">Все клубы' in there
    # His own phone's page links it too.
    ivan = p["ivan"]
    account(ivan, "ivan")
    client.force_login(ivan.user)
    me = page(client, "/me/")
    assert f'href="/players/{ivan.pk}/network/" data-network-page' in me


def test_a_single_club_site_links_no_network_page(client):
    ivan = PlayerFactory(full_name="Иван Петров")
    finished("cork", [(ivan, "win", 5, cork_stats()), ("Гость", "loss", 1, cork_stats())])
    html = page(client, f"/players/{ivan.pk}/")
    assert "scope-switch" not in html and "/network/" not in html


# --- the leaderboards of the network ----------------------------------------------------------


def board_rows(html):
    """{name: its row's html} of a leaderboard page."""
    rows = re.findall(r'<tr data-player="\d+"[^>]*>(.*?)</tr>', html, re.S)
    return {re.search(r"<a [^>]*>([^<]+)</a>", row).group(1): row for row in rows}


def test_the_network_scope_ranks_the_people_of_every_club(client, people):
    home, _other, p = people
    query = {"variant": "cork", "min_games": 1}
    club = page(client, "/leaderboards/", **query)
    assert 'data-scope="club"' in club
    assert set(board_rows(club)) == {"Иван Петров", "Олег Громов"}
    assert 'name="scope" value="network"' in club  # the switch, on a site of several clubs

    everyone = page(client, "/leaderboards/", **query, scope="network")
    assert 'data-scope="network"' in everyone
    rows = board_rows(everyone)
    assert set(rows) == {"Иван Петров", "Олег Громов", "Лена Соколова", "Павел Орлов"}
    # One row a person, his games at both clubs counted; each row names his clubs.
    ivan = rows["Иван Петров"]
    assert re.findall(r'<td class="num">(\d+)</td>', ivan)[0] == "2"
    assert f"data-clubs>{home.name}, Сокол</small>" in ivan
    assert re.search(r"data-clubs>Сокол</small>", rows["Лена Соколова"])
    assert f'href="/players/{p["lena"].pk}/network/"' in rows["Лена Соколова"]
    # The sort links and the switch keep the scope.
    assert "scope=network&amp;sort=" in everyone
    assert re.search(r'value="network" checked', everyone)

    # The same board at Сокол's address; its club board is its own.
    there = page(client, "/leaderboards/", host=OTHER, **query, scope="network")
    assert set(board_rows(there)) == set(rows)
    assert set(board_rows(page(client, "/leaderboards/", host=OTHER, **query))) == {
        "Иван Петров", "Лена Соколова", "Павел Орлов",
    }  # fmt: skip


def test_the_network_statistics_download_counts_every_club(client, people):
    response = client.get("/leaderboards/export.csv", {"variant": "cork", "scope": "network"})
    assert response.status_code == 200
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    names = {row[1] for row in list(csv.reader(io.StringIO(body)))[1:]}
    assert names == {"Иван Петров", "Олег Громов", "Лена Соколова", "Павел Орлов"}
    club = b"".join(client.get("/leaderboards/export.csv", {"variant": "cork"}).streaming_content)
    assert "Лена" not in club.decode("utf-8-sig")


def games_on_the_board():
    """{name: games} of the network's board of cork, all time."""
    rows, _sort, _desc = network.leaderboard("cork", "all", 1)
    return {row["name"]: row["games"] for row in rows[0 : len(rows)]}


def pavel_plays_at_sokol(other, p):
    with using_club(other):
        finished(
            "cork",
            [(p["pavel"], "win", 5, cork_stats()), (p["lena"], "loss", 0, cork_stats())],
            at=T0.replace(hour=22),
            number=4,
        )


def test_the_network_board_is_computed_again_at_most_once_a_minute(people, settings, monkeypatch):
    """A game finishes somewhere in a big network every few seconds: the network's board is
    kept, looked at again a minute later, and computed again only if a newer game finished
    meanwhile; a page is read from the cache alone."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    _home, other, p = people
    clock = [1_000_000.0]
    monkeypatch.setattr(network.time, "time", lambda: clock[0])
    computed = []
    compute = network._computed
    monkeypatch.setattr(network, "_computed", lambda *a: computed.append(1) or compute(*a))

    assert games_on_the_board()["Павел Орлов"] == 1 and computed == [1]
    assert games_on_the_board()["Павел Орлов"] == 1 and computed == [1]  # from the cache
    pavel_plays_at_sokol(other, p)
    clock[0] += network.NETWORK_BOARD_SECONDS - 1
    assert games_on_the_board()["Павел Орлов"] == 1 and computed == [
        1
    ]  # within the minute: as it was
    clock[0] += 1
    assert games_on_the_board()["Павел Орлов"] == 2 and computed == [1, 1]  # a newer game: again
    clock[0] += network.NETWORK_BOARD_SECONDS
    assert games_on_the_board()["Павел Орлов"] == 2 and computed == [1, 1]  # none newer: kept
    # A chunk gone from the cache: computed again rather than a page missing its rows.
    rows, _sort, _desc = network.leaderboard("cork", "all", 1)
    network.cache.delete(network.chunk_key(rows.key, 0))
    rows, _sort, _desc = network.leaderboard("cork", "all", 1)
    assert len(rows[0:50]) == 4 and computed == [1, 1, 1]
    # A board of nobody (no game of it yet) is kept too, not computed at each page.
    for _ in range(2):
        rows, _sort, _desc = network.leaderboard("clockwise", "all", 1)
        assert len(rows) == 0 and rows[0:50] == []
    assert computed == [1, 1, 1, 1]


@pytest.mark.django_db(transaction=True)
def test_a_newer_game_is_counted_beside_the_requests_which_are_served_the_board_meanwhile(
    people, settings, monkeypatch
):
    """At network scale the board takes seconds: the request that finds a newer game is
    served the board it had, the board is computed in a thread of its own (its own
    connection: the games are committed), and the next requests read the new one."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    _home, other, p = people
    clock = [1_000_000.0]
    monkeypatch.setattr(network.time, "time", lambda: clock[0])

    assert games_on_the_board()["Павел Орлов"] == 1
    pavel_plays_at_sokol(other, p)
    clock[0] += network.NETWORK_BOARD_SECONDS
    network.refreshing.clear()
    assert games_on_the_board()["Павел Орлов"] == 1  # as it was, while the new one is computed
    computing = network.refreshing.pop(next(iter(network.refreshing)))
    assert games_on_the_board()["Павел Орлов"] in (
        1,
        2,
    )  # asked again meanwhile: no second computation
    assert not network.refreshing
    computing.join(30)
    assert not computing.is_alive()
    assert games_on_the_board()["Павел Орлов"] == 2  # the new board, read from the cache
    assert not network.refreshing  # (none newer)


def test_both_scopes_come_in_pages(client, home_and_sokol):
    home, other = home_and_sokol
    count = LEADERBOARD_PAGE + 3
    with using_club(home):
        here = [PlayerFactory(full_name=f"Луза {i:03}") for i in range(count)]
        for person in here:
            finished("cork", [(person, "win", 5, cork_stats()), ("Гость", "loss", 1, cork_stats())])
    with using_club(other):
        there = [PlayerFactory(full_name=f"Сокол {i:03}") for i in range(count)]
        for person in there:
            finished("cork", [(person, "win", 5, cork_stats()), ("Гость", "loss", 1, cork_stats())])
    query = {"variant": "cork", "min_games": 1, "sort": "games", "dir": "desc"}
    for scope, total in (("club", count), ("network", 2 * count)):
        first = page(client, "/leaderboards/", **query, scope=scope)
        assert len(board_rows(first)) == LEADERBOARD_PAGE, scope
        pages = -(-total // LEADERBOARD_PAGE)
        assert f"Страница 1 из {pages}" in first
        last = client.get(
            "/leaderboards/", query | {"scope": scope, "page": pages}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert len(board_rows(last)) == total - (pages - 1) * LEADERBOARD_PAGE, scope
        if scope == "network":
            assert "scope=network" in last and f"page={pages - 1}" in last
        else:
            assert "&amp;scope=" not in last and "?scope=" not in last


def test_a_single_club_site_has_no_switch_and_keeps_its_board(client):
    ivan = PlayerFactory(full_name="Иван Петров")
    finished("cork", [(ivan, "win", 5, cork_stats()), ("Гость", "loss", 1, cork_stats())])
    for query in ({}, {"scope": "network"}, {"scope": "everywhere"}):
        html = page(client, "/leaderboards/", variant="cork", min_games=1, **query)
        assert 'name="scope"' not in html and "scope-switch" not in html
        assert 'data-scope="club"' in html and "Иван Петров" in html
        assert "scope=network&amp;sort" not in html and "data-clubs" not in html
