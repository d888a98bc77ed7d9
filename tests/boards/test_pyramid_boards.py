"""The boards of the pyramid games: each player's shelf as balls (the handicap's outlined),
the balls left on the table, the target and the handicap; for the classic game the points
and the numbered balls still on the table, the ace and the last ball marked."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.rules import Pocket
from tests.factories import ev, record, start

pytestmark = pytest.mark.django_db


def board(client, table):
    with translation.override("en"):
        return client.get(reverse("games:board", args=[table.number]), HTTP_ACCEPT_LANGUAGE="en")


def shelf_balls(html, seat):
    shelf = re.search(rf'data-shelf="{seat}">(.*?)</div>', html, re.S).group(1)
    return re.findall(r'class="mini-ball( is-handicap)?"', shelf)


def test_a_free_pyramid_board_shows_the_shelves_as_balls_and_the_handicap(
    client, table, players, marker_user
):
    game = start(table, "pyramid_free", players[:2], marker_user, weaker_seat=1, head_start=2)
    record(game, marker_user, ev("pot", count=3))
    html = board(client, table).content.decode()
    assert re.findall(r"data-score>(\d+)<", html) == ["3", "2"]
    assert shelf_balls(html, 0) == ["", "", ""]
    assert shelf_balls(html, 1) == [" is-handicap", " is-handicap"]  # "8–6": outlined
    assert re.search(r"data-on-table>11<", html)
    assert "8–6" in html and players[1].display_name in html
    assert "to 8" in html


def test_a_classic_board_shows_the_points_and_the_balls_left(client, table, players, marker_user):
    game = start(table, "pyramid_classic", players[:2], marker_user)
    called = [ev("pot", ball=b, pocket=Pocket.FAR_LEFT) for b in range(2, 11)]  # 54
    game = record(game, marker_user, *called, ev("stroke"))
    called = [ev("pot", ball=b, pocket=Pocket.FAR_LEFT) for b in range(11, 15)]  # 50
    game = record(game, marker_user, *called)
    html = board(client, table).content.decode()
    assert re.search(r"data-points-left>36<", html)  # 11 (the ace) + 15 + the last ball's 10
    assert on_table(html) == [(" is-ace", "1"), ("", "15")]
    assert "to 71" in html
    record(game, marker_user, ev("pot", ball=15, pocket=Pocket.NEAR_LEFT))
    html = board(client, table).content.decode()
    assert on_table(html) == [(" is-ace is-last", "1")]  # the ace, and the last ball: 11 + 10
    assert re.search(r"data-points-left>21<", html)


def on_table(html):
    balls = re.search(r'class="shelf on-table">(.*?)</div>', html, re.S).group(1)
    return re.findall(r'class="mini-ball([^"]*)"[^>]*>(\d+)<', balls)


def test_the_result_heads_the_panel_and_the_shelves_stay_in_sight(
    client, table, players, marker_user
):
    """Issue 12: the end-of-frame banner took the whole panel, hiding the shelves that
    decided the frame."""
    game = start(table, "pyramid_free", players[:2], marker_user)
    game = record(game, marker_user, ev("pot", count=5), ev("stroke"), ev("pot", count=2))
    game = record(game, marker_user, ev("stroke"), ev("pot", count=3))  # 8 : 2, won
    services.finish_game(game=game, expected_seq=game.last_seq, user=marker_user)
    html = board(client, table).content.decode()
    panel = html.split('<aside class="panel has-banner">')[1].split("</aside>")[0]
    assert "data-banner>Winner: " in panel
    assert len(shelf_balls(panel, 0)) == 8 and len(shelf_balls(panel, 1)) == 2


@pytest.mark.parametrize(
    ("variant", "chosen", "text"),
    [
        ("pyramid_dynamic", {"returned_pots": 1}, "{strong}: первый забитый шар возвращается"),
        ("pyramid_free", {"returned_pots": 2}, "{strong}: первые 2 забитых шара возвращаются"),
        ("pyramid_classic", {"head_start": 1}, "{weak} начинает с 1 очком"),
        ("in_order", {"head_start": 5}, "{weak} начинает с 5 очками"),
    ],
)
def test_the_handicap_reads_right_in_russian(
    client, table, players, marker_user, variant, chosen, text
):
    """«первые 2 шаров», «с 1 очков» were the board's Russian."""
    start(table, variant, players[:2], marker_user, weaker_seat=1, **chosen)
    with translation.override("ru"):
        html = client.get(reverse("games:board", args=[table.number])).content.decode()
    names = {"strong": players[0].display_name, "weak": players[1].display_name}
    assert text.format(**names) in html
