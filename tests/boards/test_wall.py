"""The club wall: every active table as a tile with its mini-scoreboard, on one screen."""

import re

import pytest
from django.urls import reverse

from boards.content import wall_grid
from tables.models import Table
from tests.factories import ev, record, start

pytestmark = pytest.mark.django_db


def tiles(html):
    """{table number: tile html}"""
    found = re.findall(
        r'<article class="tile([^"]*)"\s+data-table="(\d+)"[^>]*>(.*?)</article>', html, re.S
    )
    return {int(number): (classes.split(), body) for classes, number, body in found}


def test_every_active_table_is_a_tile(client, marker_user):
    cork_table = Table.objects.create(number=1)
    clockwise_table = Table.objects.create(number=2)
    Table.objects.create(number=3)
    Table.objects.create(number=4, out_of_service=True)
    Table.objects.create(number=5, is_active=False)
    game = start(cork_table, "cork", ["Аня", "Борис", "Вера"], marker_user)
    record(game, marker_user, ev("foul", fouls=("miss",)))  # Аня −2, bank 6, Борис to play
    game = start(clockwise_table, "clockwise", ["Глеб", "Дина"], marker_user)
    record(game, marker_user, ev("break"))

    html = client.get(reverse("games:wall")).content.decode()
    shown = tiles(html)
    assert sorted(shown) == [1, 2, 3, 4]
    classes, body = shown[1]
    assert "variant-cork" in classes
    assert re.findall(r'mini-name">([^<]*)<.*?data-score>([^<]*)<', body, re.S) == [
        ("Аня", "−2"),
        ("Борис", "1"),
        ("Вера", "1"),
    ]
    assert re.search(r'mini-seat is-turn">\s*<span class="mini-name">Борис', body)
    assert "Банк <b>6</b>" in body
    classes, body = shown[2]
    assert "variant-clockwise" in classes and "Очередной шар <b>1</b>" in body
    assert "is-free" in shown[3][0] and "Свободен" in shown[3][1]
    assert "is-out" in shown[4][0]


def test_a_finished_game_leaves_its_table_free_with_the_result_in_small_type(client, marker_user):
    from games import services

    table = Table.objects.create(number=7)
    game = start(table, "cork", ["Аня", "Борис"], marker_user, target=3)
    game = record(game, marker_user, ev("score"))
    services.finish_game(game=game, user=marker_user)
    classes, body = tiles(client.get(reverse("games:wall")).content.decode())[7]
    assert "is-free" in classes and "is-finished" not in classes
    assert "Свободен" in body
    last = re.search(r'<p class="tile-last" data-last-result>(.*?)</p>', body, re.S)[1]
    assert "Пробка" in last and "Победитель: Аня" in last and "Аня 3" in last
    assert "mini-seat" not in body  # never the old game as if it were being played


def test_a_game_over_by_the_rules_but_not_closed_stays_on_its_tile(client, marker_user):
    table = Table.objects.create(number=7)
    game = start(table, "cork", ["Аня", "Борис"], marker_user, target=3)
    record(game, marker_user, ev("score"))  # Аня reaches 3; the marker has not closed it yet
    classes, body = tiles(client.get(reverse("games:wall")).content.decode())[7]
    assert "is-finished" in classes and "Победитель: Аня" in body and "mini-seat" in body


@pytest.mark.parametrize(
    "count, grid",
    [(0, (1, 1)), (1, (1, 1)), (2, (2, 1)), (4, (2, 2)), (6, (3, 2)), (9, (3, 3)), (12, (4, 3))],
)
def test_up_to_twelve_tables_fit_one_screen(count, grid):
    assert wall_grid(count) == grid


def test_more_tables_still_fit_by_adding_rows(db):
    columns, rows = wall_grid(17)
    assert columns * rows >= 17 and columns == 5


def test_twelve_tables_lay_out_in_four_columns_and_three_rows(client, db):
    Table.objects.bulk_create(Table(number=n) for n in range(1, 13))
    html = client.get(reverse("games:wall")).content.decode()
    assert "--columns: 4; --rows: 3" in html
    assert len(tiles(html)) == 12


def test_wall_theme(client, db):
    assert "theme-light" in client.get(reverse("games:wall"), {"theme": "light"}).content.decode()
    assert "theme-dark" in client.get(reverse("games:wall")).content.decode()


def test_a_table_of_more_than_six_players_gets_a_tile_two_columns_wide(client, marker_user):
    """Whole names: ten players' names in one tile's width were cut («Константин Преобр…»)."""
    crowded = start(
        Table.objects.create(number=1), "cork", [f"Игрок-{n}" for n in range(10)], marker_user
    )
    start(Table.objects.create(number=2), "cork", [f"Гость {n}" for n in range(6)], marker_user)
    for number in (3, 4):
        Table.objects.create(number=number)
    html = client.get(reverse("games:wall")).content.decode()
    shown = tiles(html)
    assert "wide" in shown[1][0] and "wide" not in shown[2][0]
    assert crowded.seats.count() == 10
    # five cells for four tables: a 3 × 2 grid, not 2 × 2
    assert 'style="--columns: 3; --rows: 2"' in html
