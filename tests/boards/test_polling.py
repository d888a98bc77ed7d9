"""The boards poll every second; an unchanged board costs one small query and no rendering."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.models import Game
from tests.factories import ev, record, start
from tests.helpers import poll, seats, shown_fp, text_of

pytestmark = pytest.mark.django_db

BOARD = "/tables/3/board/"


def test_the_board_polls_itself_every_second_with_its_fingerprint(client, table):
    html = client.get(BOARD).content.decode()
    assert 'hx-trigger="every 1s"' in html
    assert f'hx-get="{BOARD}"' in html
    assert 'hx-vals=\'{"fp": "free"}\'' in html


@pytest.mark.parametrize("signed_in", [False, True])
def test_an_unchanged_board_gets_an_empty_204_from_one_small_query(
    client, table, marker_user, django_assert_max_num_queries, monkeypatch, signed_in
):
    if signed_in:  # a session cookie must not cost a session or user query on this path
        client.force_login(marker_user)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    record(game, marker_user, ev("stroke"))
    fp = shown_fp(client.get(BOARD).content.decode())

    def no_replay(*args, **kwargs):
        raise AssertionError("an unchanged poll must not replay the game")

    monkeypatch.setattr(selectors, "game_log", no_replay)
    monkeypatch.setattr(selectors, "game_state", no_replay)
    with django_assert_max_num_queries(2) as queries:
        response = poll(client, BOARD, fp)
    assert response.status_code == 204
    assert response.content == b""
    assert response.templates == []  # nothing rendered
    assert len(queries) == 1
    assert "no-store" in response["Cache-Control"]


def test_a_changed_board_gets_the_new_figures(client, table, marker_user):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    old_fp = shown_fp(client.get(BOARD).content.decode())
    record(game, marker_user, ev("foul", fouls=("miss",)))  # Аня: 1 − 2 = −1, bank 4
    response = poll(client, BOARD, old_fp)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="board"')  # the fragment, not the page
    assert [score for _, _, score in seats(html)] == ["−1", "1"]
    assert text_of(html, "data-bank") == "4"
    new_fp = shown_fp(html)
    assert new_fp != old_fp and response["X-Board-Fingerprint"] == new_fp
    assert poll(client, BOARD, new_fp).status_code == 204


def test_a_game_starting_on_a_free_table_reaches_its_board(client, table, marker_user):
    assert poll(client, BOARD, "free").status_code == 204
    start(table, "cork", ["Аня", "Борис"], marker_user)
    response = poll(client, BOARD, "free")
    assert response.status_code == 200
    assert [name for _, name, _ in seats(response.content.decode())] == ["Аня", "Борис"]


def test_a_finished_game_stays_on_the_board_for_a_while_then_the_table_is_free(
    client, table, marker_user
):
    game = start(table, "cork", ["Аня", "Борис"], marker_user, target=3)
    game = record(game, marker_user, ev("score"))
    playing_fp = shown_fp(client.get(BOARD).content.decode())
    services.finish_game(game=game, user=marker_user)
    response = poll(client, BOARD, playing_fp)
    assert response.status_code == 200  # the status changed: the banner comes up
    finished_fp = shown_fp(response.content.decode())
    assert "Победитель: Аня" in response.content.decode()
    assert poll(client, BOARD, finished_fp).status_code == 204
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(minutes=20))
    response = poll(client, BOARD, finished_fp)
    assert response.status_code == 200
    assert "Стол свободен" in response.content.decode()


def test_the_same_change_is_rendered_once_for_every_tv(
    client, table, marker_user, monkeypatch, django_assert_max_num_queries
):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    old_fp = shown_fp(client.get(BOARD).content.decode())
    record(game, marker_user, ev("stroke"))
    first = poll(client, BOARD, old_fp)
    with django_assert_max_num_queries(1):  # the second TV gets the cached render
        second = poll(client, BOARD, old_fp)
    assert second.status_code == 200 and second.content == first.content


def test_a_plain_request_with_a_fingerprint_still_gets_the_page(client, table):
    response = client.get(BOARD, {"fp": "free"})
    assert response.status_code == 200
    assert b"<!doctype html>" in response.content


def test_the_wall_polls_the_same_way(client, table, marker_user, django_assert_max_num_queries):
    wall = reverse("games:wall")
    html = client.get(wall).content.decode()
    assert 'hx-trigger="every 1s"' in html
    fp = shown_fp(html)
    with django_assert_max_num_queries(2):
        response = poll(client, wall, fp)
    assert response.status_code == 204 and response.content == b""
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    response = poll(client, wall, fp)
    assert response.status_code == 200
    fp = shown_fp(response.content.decode())
    assert poll(client, wall, fp).status_code == 204
    record(game, marker_user, ev("foul", fouls=("miss",)))
    response = poll(client, wall, fp)
    assert response.status_code == 200
    assert "data-score>−1<" in response.content.decode()


def test_the_board_page_loads_its_scripts_and_the_reconnecting_mark(client, table):
    html = client.get(BOARD).content.decode()
    assert "/static/js/htmx.min.js" in html and "/static/js/board.js" in html
    assert 'class="reconnecting"' in html and "hidden" in html.split('class="reconnecting"')[1][:80]
    assert 'class="fullscreen-button"' in html
    assert "hx-request='{\"timeout\": 5000}'" in html


def test_a_poll_is_only_a_get_of_an_existing_board(client, table, marker_user):
    start(table, "cork", ["Аня", "Борис"], marker_user)
    assert poll(client, "/tables/3/board/extra", "free").status_code == 404
    assert client.get(BOARD, {"fp": "x"}).status_code == 200  # not htmx: the page
    response = client.post(BOARD + "?fp=free", headers={"HX-Request": "true"})
    assert response.status_code == 405  # a post is never a poll
    assert poll(client, "/tables/77/board/", "free").status_code == 404  # no such table


def test_a_change_already_rendered_for_one_tv_is_sent_to_the_next(
    client, table, marker_user, monkeypatch, django_assert_max_num_queries
):
    from boards import fragments

    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    old_fp = shown_fp(client.get(BOARD).content.decode())
    record(game, marker_user, ev("foul", fouls=("miss",)))
    first = poll(client, BOARD, old_fp)  # renders it

    def no_render(*args, **kwargs):
        raise AssertionError("the second TV must get the cached board")

    monkeypatch.setattr(fragments, "table_context", no_render)
    with django_assert_max_num_queries(1):
        second = poll(client, BOARD, old_fp)
    assert second.status_code == 200 and second.content == first.content
    assert second["X-Board-Fingerprint"] == first["X-Board-Fingerprint"]
    assert second["Content-Language"] == "ru"
    monkeypatch.undo()
    english = client.get(
        BOARD, {"fp": old_fp}, headers={"HX-Request": "true", "Accept-Language": "en"}
    )
    assert english.status_code == 200 and b"Bank" in english.content  # cached per language
