"""The pyramid games played on the marker's console as a marker plays them: one tap per
stroke ("+1", "+2", "Svoyak", "Nothing pocketed", the fouls), the called pot of the classic
game, the figures the console keeps in sight, refusals, the result and the records."""

import re

import pytest
from django.urls import reverse

from games.models import GameStatus
from tests.helpers import HX, console_html, figures, scores, start_via_form, state_of, tap

from .test_variants_through_views import offered_kinds as kinds

pytestmark = pytest.mark.django_db


def count_buttons(html, kind):
    form = re.search(rf'name="kind" value="{kind}">(.*?)</form>', html, re.S)
    return [int(n) for n in re.findall(r'data-count="(\d+)"', form.group(1))] if form else []


def finish(client, game):
    game.refresh_from_db()
    response = client.post(
        reverse("games:finish", args=[game.pk]), {"seq": game.last_seq}, headers=HX
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return [(seat.outcome, seat.score, seat.stats) for seat in game.seats.order_by("position")]


def test_a_free_pyramid_frame_8_7_on_the_console(marker_client, table, players):
    game = start_via_form(
        marker_client, table, "pyramid_free", players[:2], weaker_seat="1", head_start=1
    )
    html = console_html(marker_client, game)
    assert scores(html) == [0, 1]  # "8–7": the weaker starts with a ball on his shelf
    assert kinds(html) == {"pot", "stroke", "foul"}  # no svoyak in the free pyramid
    # +1 … +6 at hand; +7 … +15 (a break, a full run) behind one tap
    assert count_buttons(html, "pot") == list(range(1, 16))
    more = html.split('<details class="more-counts">')[1].split("</details>")[0]
    assert "+7…+15" in more and 'data-count="6"' not in more
    assert "8–7" in html
    html = tap(marker_client, game, "svoyak", expect=409).content.decode()
    assert "В этой игре свояка нет" in html  # "no svoyak in this game": the console speaks Russian
    html = tap(marker_client, game, "pot", count=3).content.decode()
    assert scores(html) == [3, 1]
    assert figures(html)[:2] == ["8", "12"]  # first to 8, balls on the table
    html = tap(marker_client, game, "foul", fouls=["miss"]).content.decode()
    assert scores(html) == [3, 2]  # the opponent's penalty ball
    html = tap(marker_client, game, "pot", count=6).content.decode()
    assert scores(html) == [3, 8]
    tap(marker_client, game, "pot", count=1, expect=409)  # a stroke after the frame is won
    outcome = finish(marker_client, game)
    assert [(o, s) for o, s, _ in outcome] == [("loss", 3), ("win", 8)]
    assert outcome[1][2]["best_run"] == 6 and outcome[0][2]["fouls"] == 1


def test_a_stroke_of_seven_balls_is_one_tap(marker_client, table, players):
    """Issue 12: strokes of 7 balls or more were unrecordable (the buttons stopped at +6)."""
    game = start_via_form(marker_client, table, "pyramid_dynamic", players[:2])
    html = tap(marker_client, game, "pot", count=7).content.decode()
    assert scores(html) == [7, 0]
    assert count_buttons(html, "pot") == [1, 2, 3, 4, 5, 6, 7, 8]  # 8 balls are left


def test_combined_and_dynamic_pyramids_have_the_svoyak_button(marker_client, table, players):
    game = start_via_form(marker_client, table, "pyramid_dynamic", players[:2])
    html = console_html(marker_client, game)
    assert {"pot", "svoyak", "stroke", "foul"} == kinds(html)
    html = tap(marker_client, game, "svoyak").content.decode()
    assert scores(html) == [1, 0]
    assert "с руки с любого места" in html  # from hand from anywhere
    assert "svoyak" not in kinds(html)  # the premium stroke: no svoyak
    html = tap(marker_client, game, "svoyak", expect=409).content.decode()
    assert "можно забивать только прицельные шары" in html
    html = tap(marker_client, game, "foul", fouls=["cue_ball_pocketed"]).content.decode()
    assert scores(html) == [1, 1] and "с руки из дома" in html


def test_a_classic_frame_with_called_balls(marker_client, table, players):
    game = start_via_form(marker_client, table, "pyramid_classic", players[:2], target=51)
    html = console_html(marker_client, game)
    assert re.findall(r'name="ball" value="(\d+)"', html) == [str(b) for b in range(1, 16)]
    assert len(re.findall(r'name="pocket" value="[a-z_]+" required', html)) == 6
    assert 'data-points="11"' in html  # the ace scores 11
    html = tap(marker_client, game, "pot", ball=1, pocket="far_left", balls=[5]).content.decode()
    assert scores(html) == [16, 0]
    assert 'name="ball" value="1"' not in html and 'name="ball" value="5"' not in html
    # ball 1 is already down
    html = tap(marker_client, game, "pot", ball=1, pocket="far_left", expect=409).content
    assert "Шара 1 нет на столе: он уже забит." in html.decode()
    html = tap(marker_client, game, "pot", ball=7, pocket="left_middle", balls=["2.5"], expect=409)
    assert "Данные события повреждены" in html.content.decode()  # 2.5 is not a ball
    assert scores(html.content.decode()) == [16, 0]  # nothing changed
    tap(marker_client, game, "stroke")
    html = tap(marker_client, game, "foul", fouls=["cue_ball_off_table"]).content.decode()
    assert scores(html) == [16, -5]
    assert state_of(game).turn == 0
    html = tap(
        marker_client, game, "pot", ball=15, pocket="near_right", balls=[14, 6]
    ).content.decode()
    assert scores(html) == [51, -5]
    outcome = finish(marker_client, game)
    assert [(o, s) for o, s, _ in outcome] == [("win", 51), ("loss", -5)]
    page = marker_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    weaker = players[1].display_name  # the weaker seat setting names its player
    assert f"<dt>Получает фору (слабейший)</dt><dd>{weaker}</dd>" in page
    called = "заказ — шар 1, луза: дальняя левая угловая; шары 1, 5: +16 = 16"
    first = f"{players[0].display_name}: {called}"
    assert first in page and "Игрок 1" not in page  # descriptions name the players


def test_in_order_offers_only_the_ball_on(marker_client, table, players):
    game = start_via_form(marker_client, table, "in_order", players[:2])
    html = console_html(marker_client, game)
    assert re.findall(r'name="ball" value="(\d+)"', html) == ["1"]
    html = tap(marker_client, game, "pot", ball=1).content.decode()
    assert scores(html) == [1, 0]
    html = tap(marker_client, game, "pot", ball=3, expect=409).content.decode()
    assert "Шар 3 не очередной: очередной — шар 2." in html


def strip(html):
    """The console's sticky strip: what stays in sight wherever the marker has scrolled."""
    found = re.search(r'<div class="console-strip" data-strip>(.*?)\n  </div>', html, re.S)
    return found.group(1)


@pytest.mark.parametrize(
    ("variant", "events", "figure"),
    [
        ("pyramid_free", [{"kind": "pot", "count": 2}], "Шаров на столе: <b data-strip-figure>14"),
        (
            "pyramid_combined",
            [{"kind": "svoyak"}],
            "Шаров на столе: <b data-strip-figure>14",
        ),
        ("pyramid_dynamic", [{"kind": "stroke"}], "Шаров на столе: <b data-strip-figure>15"),
        (
            "pyramid_classic",
            [{"kind": "pot", "ball": 1, "pocket": "far_left"}],
            "Очков на столе: <b data-strip-figure>129",  # 140 less the ace's 11
        ),
        ("in_order", [{"kind": "pot", "ball": 1}], "Очередной шар: <b data-strip-figure>2"),
    ],
)
def test_the_strip_keeps_what_is_left_on_the_table_in_sight(
    marker_client, table, players, variant, events, figure
):
    game = start_via_form(marker_client, table, variant, players[:2])
    for event in events:
        html = tap(marker_client, game, **event).content.decode()
    assert figure in strip(html)


def test_a_refused_stroke_says_why_in_the_strip_and_changes_nothing(marker_client, table, players):
    game = start_via_form(marker_client, table, "pyramid_free", players[:2])
    tap(marker_client, game, "pot", count=7)
    tap(marker_client, game, "stroke")
    tap(marker_client, game, "pot", count=7)
    html = tap(marker_client, game, "pot", count=3, expect=409).content.decode()
    assert 'role="alert">На столе шаров: 2.</p>' in strip(html)
    assert scores(html) == [7, 7]
    assert state_of(game).on_table == 2


@pytest.mark.parametrize(
    ("variant", "chosen", "shown"),
    [
        ("pyramid_free", {"head_start": 1}, "8–7 · {weak}"),
        ("pyramid_dynamic", {"returned_pots": 2}, "2 из 2 · {strong}"),
        ("pyramid_classic", {"head_start": 10}, "+10 · {weak}"),
        ("in_order", {"head_start": 5}, "+5 · {weak}"),
    ],
)
def test_the_console_names_who_has_the_handicap(
    marker_client, table, players, variant, chosen, shown
):
    """The console's handicap figure said «8–6 · игрок 2» while the board named him."""
    game = start_via_form(marker_client, table, variant, players[:2], weaker_seat="1", **chosen)
    names = {"strong": players[0].display_name, "weak": players[1].display_name}
    assert shown.format(**names) in figures(console_html(marker_client, game))


# --- the log keeps what the marker said (issue 22 item 8) ------------------------------------


def log_lines(html):
    log = html.split('<section class="log">')[1]
    return [" ".join(line.split()) for line in re.findall(r"<li [^>]*>(.*?)</li>", log, re.S)]


def test_the_classic_console_keeps_the_call_of_a_stroke_and_the_balls_of_a_foul(
    marker_client, table, players
):
    """docs/rules/pyramid.md: «Лена: заказ — шар 7, луза: дальняя левая угловая — заказ не
    выполнен; бьёт Сокол». The call is the pot form's: its second button («Заказ не
    выполнен») sends the ball and pocket chosen, or none."""
    players[0].nickname, players[1].nickname = "Лена", "Сокол"
    for player in players[:2]:
        player.save()
    game = start_via_form(marker_client, table, "pyramid_classic", players[:2])
    html = console_html(marker_client, game)
    form = html.split('class="action action-pot called-pot"')[1].split("</form>")[0]
    assert re.search(r'name="kind" value="stroke" formnovalidate[^>]*>Заказ не выполнен<', form)
    assert html.count(">Заказ не выполнен<") == 1  # one button, in the form with the call
    html = tap(marker_client, game, "stroke", ball=7, pocket="far_left").content.decode()
    assert log_lines(html)[0] == (
        "Лена: заказ — шар 7, луза: дальняя левая угловая — заказ не выполнен; бьёт Сокол"
    )
    html = tap(marker_client, game, "stroke").content.decode()  # no call given
    assert log_lines(html)[0] == "Сокол: заказ не выполнен; бьёт Лена"
    # A foul with the balls that fell on it: the "several fouls" form offers them.
    several = html.split('<details class="several">')[1].split("</details>")[0]
    assert "Шары, забитые при ошибке" in several and 'name="balls" value="15"' in several
    html = tap(marker_client, game, "foul", fouls=["miss"], balls=[12, 5]).content.decode()
    assert log_lines(html)[0].endswith("шары, забитые при ошибке, выставлены на стол: 12, 5")
    assert state_of(game).table == tuple(range(1, 16))


def test_the_marker_names_the_ball_the_handicap_puts_back(marker_client, table, players):
    """docs/rules/pyramid.md, worked example: returned pots 1, A (the stronger) pockets 13 as
    called with 12 and 3; the marker names 3 as the ball spotted: 13 + 12 = 25 points."""
    game = start_via_form(
        marker_client, table, "pyramid_classic", players[:2], weaker_seat="1", returned_pots=1
    )
    html = console_html(marker_client, game)
    assert 'class="returned-balls"' in html and 'name="returned" value="3"' in html
    html = tap(
        marker_client, game, "pot", ball=13, pocket="far_left", balls=[12, 3], returned=[3]
    ).content.decode()
    assert scores(html) == [25, 0]
    assert log_lines(html)[0].endswith("возвращены на стол (фора): 3")
    assert 'class="returned-balls"' not in html  # the handicap's ball is back: nothing to name
    tap(marker_client, game, "pot", ball=15, pocket="far_left", returned=[15], expect=409)


def test_a_family_foul_keeps_how_many_balls_fell_and_a_svoyak_needs_a_ball(
    marker_client, table, players
):
    game = start_via_form(marker_client, table, "pyramid_combined", players[:2])
    html = tap(marker_client, game, "pot", count=2).content.decode()
    tap(marker_client, game, "stroke")
    html = console_html(marker_client, game)
    several = html.split('<details class="several">')[1].split("</details>")[0]
    assert 'name="count" min="1" max="13"' in several
    html = tap(marker_client, game, "foul", fouls=["miss"], count=2).content.decode()
    assert log_lines(html)[0].endswith("забито при ошибке и выставлено на стол: 2")
    assert scores(html) == [3, 0]
    html = tap(marker_client, game, "pot", count=4).content.decode()  # on the table: 8
    html = tap(marker_client, game, "svoyak", count=8, expect=409).content.decode()
    assert "Для свояка на столе не осталось прицельного шара" in html
