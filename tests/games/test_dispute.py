"""«Спорный момент» through the views: the marker marks the last stroke as disputed, the
boards and the wall show it being checked (no winner), strokes wait, the marker confirms or
undoes it; every step in the game's log. Bad posts are refused and change nothing."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import rules, selectors
from games.models import Event, Game
from tests.factories import start
from tests.helpers import HX, console_html, scores, tap

pytestmark = pytest.mark.django_db


def post(client, game, name, seq=None):
    game.refresh_from_db()
    data = {"seq": game.last_seq if seq is None else seq}
    return client.post(reverse(f"games:{name}", args=[game.pk]), data, headers=HX)


@pytest.fixture
def game(table, marker_user):
    return start(table, "cork", ["Аня", "Борис"], marker_user)


def test_a_disputed_stroke_is_checked_then_confirmed(marker_client, client, game):
    tap(marker_client, game, "score")  # «Пробка сбита»: Аня +2 = 3
    html = post(marker_client, game, "dispute").content.decode()
    assert "data-disputed" in html and "data-confirm-stroke" in html
    assert 'class="actions"' not in html  # no stroke until it is resolved
    assert "data-dispute " not in html  # (its own button is gone meanwhile)

    board = client.get("/tables/3/board/").content.decode()
    assert "is-disputed" in board and "Проверяется удар" in board
    wall = client.get("/board/").content.decode()
    assert "is-disputed" in wall and "Проверяется удар" in wall
    live = client.get("/api/v1/tables/3/").json()["live"]
    assert live["disputed"] is True and live["result"] == ""

    # A stroke meanwhile is refused with the reason, and nothing is written.
    response = tap(marker_client, game, "score", expect=409)
    assert "Последний удар проверяется" in response.content.decode()
    game.refresh_from_db()
    assert game.last_seq == 2

    html = post(marker_client, game, "confirm_stroke").content.decode()
    assert "data-disputed" not in html and 'class="actions"' in html
    assert "is-disputed" not in client.get("/tables/3/board/").content.decode()
    assert client.get("/api/v1/tables/3/").json()["live"]["disputed"] is False
    assert scores(html) == [3, 1]
    kinds = list(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["score", rules.DISPUTE, rules.CONFIRM]
    log = console_html(marker_client, game)
    assert "Спорный момент: событие 1" in log and "Подтверждено после проверки: событие 1" in log


def test_a_disputed_stroke_undone_is_gone(marker_client, client, game):
    tap(marker_client, game, "foul", fouls="miss")  # Аня −1
    tap(marker_client, game, "score")  # Борис +2 = 3
    post(marker_client, game, "dispute")
    html = post(marker_client, game, "undo").content.decode()
    assert "data-disputed" not in html and scores(html) == [-1, 1]
    assert "is-disputed" not in client.get("/tables/3/board/").content.decode()
    state = selectors.game_state(Game.objects.get(pk=game.pk))
    assert state.scores == (-1, 1)


def test_no_winner_while_the_winning_stroke_is_checked(marker_client, client, table, marker_user):
    game = start(table, "cork", ["Аня", "Борис"], marker_user, target=3)
    tap(marker_client, game, "score")  # 3: the game is over
    assert "data-banner" in client.get("/tables/3/board/").content.decode()
    html = post(marker_client, game, "dispute").content.decode()
    assert "data-finish" not in html  # no finishing while it is checked
    board = client.get("/tables/3/board/").content.decode()
    assert "data-banner" not in board and "is-winner" not in board
    assert "data-disputed" in board
    overlay = client.get("/tables/3/overlay/").content.decode()
    assert "is-winner" not in overlay and "data-disputed" in overlay
    response = post(marker_client, game, "finish")
    assert response.status_code == 409
    game.refresh_from_db()
    assert game.status == "in_progress"
    post(marker_client, game, "confirm_stroke")
    assert "data-banner" in client.get("/tables/3/board/").content.decode()


@pytest.mark.parametrize(
    ("steps", "name", "reason"),
    [
        ([], "dispute", "Ещё нет удара для проверки"),  # nothing recorded yet
        ([("score", {})], "confirm_stroke", "Ни один удар не проверяется"),  # nothing checked
        ([("score", {}), ("dispute", None)], "dispute", "Этот удар уже проверяется"),
    ],
)
def test_a_dispute_that_cannot_be_is_refused_and_changes_nothing(
    marker_client, game, steps, name, reason
):
    for kind, details in steps:
        if details is None:
            post(marker_client, game, kind)
        else:
            tap(marker_client, game, kind, **details)
    game.refresh_from_db()
    before = game.last_seq
    response = post(marker_client, game, name)
    assert response.status_code == 409 and reason in response.content.decode()
    game.refresh_from_db()
    assert game.last_seq == before


def test_bad_dispute_posts_are_refused(marker_client, game):
    tap(marker_client, game, "score")
    url = reverse("games:dispute", args=[game.pk])
    assert marker_client.post(url, {"seq": "x"}, headers=HX).status_code == 400
    assert marker_client.post(url, {}, headers=HX).status_code == 400
    assert marker_client.get(url).status_code == 405
    assert post(marker_client, game, "dispute", seq=0).status_code == 409  # stale
    assert Client().post(url, {"seq": 1}).status_code in (302, 403)  # not a marker
    missing = reverse("games:dispute", args=[99999])
    assert marker_client.post(missing, {"seq": 0}, headers=HX).status_code == 404
    game.refresh_from_db()
    assert game.last_seq == 1 and selectors.replayed(game).disputed is None


def test_the_offline_state_lists_the_dispute_events(marker_client, game):
    tap(marker_client, game, "score")
    post(marker_client, game, "dispute")
    url = reverse("games:offline_state", args=[game.pk])
    state = json.loads(marker_client.get(url).content)
    assert [e["kind"] for e in state["events"]] == ["score", rules.DISPUTE]
