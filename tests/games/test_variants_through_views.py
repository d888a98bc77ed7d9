"""Every game played from the start form to the result page through the console's views."""

import re

import pytest
from django.urls import reverse

from games.models import Game, GameStatus
from tests.helpers import HX, console_html, scores, start_form_data, start_via_form, state_of, tap


def default_pocket(html):
    """The pocket the console preselects for the pot (the designated one)."""
    return re.search(r'name="pocket" value="([a-z_]+)" required checked', html).group(1)


def offered_kinds(html):
    return set(re.findall(r'name="kind" value="([^"]+)"', html))


def finish(client, game):
    game.refresh_from_db()
    response = client.post(
        reverse("games:finish", args=[game.pk]), {"seq": game.last_seq}, headers=HX
    )
    assert response.headers["HX-Redirect"] == reverse("games:result", args=[game.pk])
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    page = client.get(reverse("games:result", args=[game.pk]))
    assert page.status_code == 200
    return [(seat.outcome, seat.score) for seat in game.seats.order_by("position")], page


def test_cork_from_start_to_result(marker_client, table, players):
    game = start_via_form(marker_client, table, "cork", players[:3], target=10)
    tap(marker_client, game, "foul", fouls=["miss", "touched"])  # P1: 1 − 3 = −2, bank 6
    tap(marker_client, game, "stroke")  # P2
    html = tap(marker_client, game, "score").content.decode()  # P3: 1 + 6 = 7, bank 12
    assert scores(html) == [-2, 1, 7]
    html = tap(marker_client, game, "score").content.decode()  # P3 again: 7 + 12 = 19
    assert offered_kinds(html) == set()
    outcome, page = finish(marker_client, game)
    assert outcome == [("loss", -2), ("loss", 1), ("win", 19)]
    assert players[2].display_name in page.content.decode()


def test_clockwise_from_start_to_result(marker_client, table, players):
    game = start_via_form(marker_client, table, "clockwise", players[:2])
    assert offered_kinds(console_html(marker_client, game)) == {"break", "foul"}
    tap(marker_client, game, "break")  # player 1 breaks; player 2 nominates and plays
    html = console_html(marker_client, game)
    assert offered_kinds(html) == {"nominate"}
    assert len(re.findall(r'name="pocket" value="[a-z_]+" class="pocket-button"', html)) == 6
    tap(marker_client, game, "nominate", pocket="right_middle")
    html = console_html(marker_client, game)
    assert default_pocket(html) == "right_middle"  # ball 1 goes where it was nominated
    tap(marker_client, game, "pot", ball=1, pocket=default_pocket(html))
    html = console_html(marker_client, game)
    assert default_pocket(html) == "near_right"  # ball 2: the next pocket clockwise
    tap(marker_client, game, "pot", ball=2, pocket="near_right")
    # Ball 3 into the wrong pocket: it goes back and the turn passes.
    html = tap(marker_client, game, "pot", ball=3, pocket="far_left").content.decode()
    assert scores(html) == [0, 3]
    html = tap(marker_client, game, "foul", fouls=["miss"]).content.decode()  # P1: −3 (ball 3)
    assert scores(html) == [-3, 3]
    tap(marker_client, game, "pot", ball=3, pocket="near_left")  # P2: 6
    # Order error found: ball 3 really went into the left middle; 4 now goes far left.
    html = tap(marker_client, game, "order_error", pocket="left_middle").content.decode()
    assert default_pocket(html) == "far_left"
    for ball in range(4, 12):  # 6 + 4 + 5 + … + 11 = 66 > 60
        html = console_html(marker_client, game)
        assert f'name="ball" value="{ball}"' in html
        html = tap(marker_client, game, "pot", ball=ball, pocket=default_pocket(html)).content
    assert scores(html.decode()) == [-3, 66]
    assert state_of(game).finished
    outcome, _page = finish(marker_client, game)
    assert outcome == [("loss", -3), ("win", 66)]
    stats = game.seats.get(position=1).stats
    assert stats == {"balls": 11, "points": 66, "wrong_pockets": 1, "fouls": 0}


def test_cue_run_with_a_handicap_from_start_to_result(marker_client, table, players):
    game = start_via_form(
        marker_client,
        table,
        "cue_run",
        players[:2],
        handicap="extra_strokes",
        handicap_strokes=2,
        strong_seat="0",
    )
    assert game.settings["handicap"] == "extra_strokes"
    # Player 1 (stronger): 16 balls in 18 strokes (a ball off the table, a foul).
    tap(marker_client, game, "ball_off")
    tap(marker_client, game, "foul_pot", fouls=["double_hit"])
    for _ in range(15):
        tap(marker_client, game, "pot")
    state = state_of(game)
    assert state.adjusted[0] == 18 and state.turn == 1
    # Player 2 (weaker, 2 extra strokes): 16 balls in 19 strokes → 17 with the handicap.
    for _ in range(3):
        tap(marker_client, game, "stroke")
    for _ in range(16):
        html = tap(marker_client, game, "pot").content.decode()
    assert offered_kinds(html) == set()
    outcome, _page = finish(marker_client, game)
    assert outcome == [("loss", 18), ("win", 17)]


def test_cue_run_decided_early_and_a_run_stopped(marker_client, table, players):
    game = start_via_form(marker_client, table, "cue_run", players[:2])
    for _ in range(16):
        tap(marker_client, game, "pot")  # player 1: perfect, 16 in 16
    html = tap(marker_client, game, "stroke").content.decode()  # player 2 can no longer win
    assert "stop" in offered_kinds(html)
    assert 'class="outcome card"' in html and "data-finish" not in html
    html = tap(marker_client, game, "stop").content.decode()
    assert "data-finish" in html
    outcome, _page = finish(marker_client, game)
    assert outcome == [("win", 16), ("loss", 17)]  # a stopped run: 1 stroke + 16 balls left


def test_cue_run_normal_draw(marker_client, table, players):
    game = start_via_form(marker_client, table, "cue_run", players[:2])
    for _ in range(32):
        tap(marker_client, game, "pot")
    outcome, page = finish(marker_client, game)
    assert outcome == [("draw", 16), ("draw", 16)]


def test_cue_vs_hand_from_start_to_result(marker_client, table, players):
    game = start_via_form(marker_client, table, "cue_vs_hand", players[:2], target=3)
    html = console_html(marker_client, game)
    assert offered_kinds(html) == {"position", "pot", "stroke", "foul"}
    tap(marker_client, game, "position")  # cue ball off a cushion behind the pyramid
    tap(marker_client, game, "pot")  # a ball dropped on the break: back, he plays on
    tap(marker_client, game, "stroke")  # nothing dropped: the hand player's turn
    html = console_html(marker_client, game)
    assert 'name="count" value="6"' in html  # one button per number of balls
    html = tap(marker_client, game, "pot", count=2).content.decode()  # hand: 2
    assert scores(html) == [0, 2]
    html = tap(marker_client, game, "foul", fouls=["miss"]).content.decode()  # returns one
    assert scores(html) == [0, 1]
    html = tap(marker_client, game, "pot", count=3).content.decode()  # cue: 3 → wins
    assert offered_kinds(html) == set()
    outcome, _page = finish(marker_client, game)
    assert outcome == [("win", 3), ("loss", 1)]
    assert game.seats.get(position=0).stats["role"] == "cue"


@pytest.mark.parametrize(
    ("variant", "options", "field"),
    [
        ("clockwise", {"foul_penalty_points": 500}, "s_foul_penalty_points"),
        ("cue_run", {"handicap": "extra_strokes", "handicap_strokes": 0}, "s_handicap_strokes"),
        ("cue_run", {"handicap": "start", "players": 3}, "s_handicap"),
        ("cue_vs_hand", {"target": 9}, "s_target"),
    ],
)
def test_each_games_bad_settings_show_inline(
    marker_client, table, players, variant, options, field
):
    seats = players[: options.pop("players", 2)]
    data = start_form_data(table, variant, seats, **options)
    response = marker_client.post(reverse("games:table", args=[table.number]), data, headers=HX)
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not Game.objects.exists()
