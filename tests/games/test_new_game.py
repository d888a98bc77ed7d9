"""A game added in one rules module and one presentation entry works everywhere.

``tests/games/race_game.py`` is registered for these tests only (the engine's ``VARIANTS``
and ``games.presentation.PRESENTATIONS``): its console, board, wall tile, game page,
leaderboard, player page and rules page work with no other module knowing of it.
"""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import presentation, rules
from games.models import Game
from players.models import Player
from records import rating
from tests.games import race_game
from tests.helpers import HX, console_html, figures, scores, start_via_form, tap
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def race_game_registered(monkeypatch):
    monkeypatch.setitem(rules.VARIANTS, "race", race_game.VARIANT)
    monkeypatch.setitem(presentation.PRESENTATIONS, "race", race_game.PRESENTATION)
    cache.clear()
    rating.forget()
    yield
    cache.clear()
    rating.forget()


@pytest.fixture
def finished_race(race_game_registered, marker_client, table, players):
    """A race to 2 won by the first player, played on the console and finished."""
    game = start_via_form(marker_client, table, "race", players[:2], target=2)
    for kind in ("pot", "miss", "miss", "pot"):
        tap(marker_client, game, kind)
    game.refresh_from_db()
    response = marker_client.post(
        reverse("games:finish", args=[game.pk]), {"seq": game.last_seq}, headers=HX
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def test_its_console_offers_its_actions_and_shows_its_figures(
    race_game_registered, marker_client, table, players
):
    game = start_via_form(marker_client, table, "race", players[:3], target=4)
    tap(marker_client, game, "pot")
    tap(marker_client, game, "miss")
    html = console_html(marker_client, game)
    assert scores(html) == [1, 0, 0]
    assert figures(html) == ["4"]
    assert "misses: <b>1</b>" in html  # the first player's own figure
    assert 'value="pot"' in html and 'value="miss"' in html
    assert "Player 1 missed" in html


def test_its_board_and_wall_tile_show_the_game(
    race_game_registered, client, marker_user, table, players
):
    client.force_login(marker_user)
    started = start_via_form(client, table, "race", players[:2], target=5)
    tap(client, started, "pot")
    client.logout()
    board = client.get(reverse("games:board", args=[table.number])).content.decode()
    assert "Race to the target" in board
    assert re.findall(r"data-score>(\d+)<", board) == ["1", "0"]
    assert "Player 1 potted" in board  # the ticker
    wall = client.get(reverse("games:wall")).content.decode()
    assert "Race to the target" in wall
    assert re.search(r"<b>5</b>", wall)  # "first to 5": the game's target


def test_its_game_page_shows_the_log_with_its_figures(finished_race, client):
    html = client.get(reverse("games:detail", args=[finished_race.pk])).content.decode()
    assert "Race to the target" in html
    assert "Misses in all" in html
    assert html.count("Player 1 potted") == 2
    assert html.count("Player 2 missed") == 1


def test_its_leaderboard_and_player_page_count_it(finished_race, client, players):
    url = reverse("games:leaderboard") + "?variant=race&min_games=1"
    html = client.get(url).content.decode()
    assert "Misses per game" in html
    assert players[0].full_name in html and players[1].full_name in html
    page = client.get(reverse("players:detail", args=[players[0].pk])).content.decode()
    assert "Race to the target" in page
    assert Game.objects.filter(variant="race", status="finished").count() == 1


def test_the_rules_page_explains_it(race_game_registered, client):
    html = client.get(reverse("games:rules")).content.decode()
    assert 'id="race"' in html
    assert "Whoever pots the target first wins." in html
    assert "A miss passes the turn." in html


def test_its_handicap_is_advised_as_its_variant_says(race_game_registered, client):
    """``handicap_advice`` on its Variant is all it takes: the player page's advice offers
    it and gives the weaker player his head start."""
    strong = Player.objects.create(full_name="Андрей Сокол", skill_class="cms")
    weak = Player.objects.create(full_name="Пётр Громов", skill_class="2")
    url = reverse("players:detail", args=[strong.pk])
    advice = client.get(url).content.decode().split('id="handicap-advice"')[1]
    assert '<option value="race">Race to the target</option>' in advice.split("</select>")[0]
    response = client.get(url, {"game": "race", "opponent": weak.pk})
    advice = response.content.decode().split('id="handicap-advice"')[1].split("</section>")[0]
    assert re.search(r"3–[12]", advice), advice  # first to 3: the weaker one starts ahead
    assert weak.full_name in advice


def test_it_is_played_as_a_match(race_game_registered, marker_client, table, players):
    """``plays_matches`` (true unless the game says otherwise): the match form offers it and
    a race-to-2 match of it starts."""
    form = marker_client.get(reverse("tournaments:match_new") + f"?table={table.number}")
    assert '<option value="race"' in form.content.decode()
    match = tournament_services.start_match(
        table=table, a=players[0], b=players[1], marker=None, variant="race", race_to=2
    )
    assert match.variant == "race"
    assert Game.objects.get(match_frame__match=match).variant == "race"
