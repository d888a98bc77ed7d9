"""The public game page: players, settings, result, and the whole log, undone events marked."""

import re

import pytest
from django.urls import reverse

from games.models import Game, Seat
from tests.factories import UserFactory, cork_stats, finished, player, table
from toolbox.roles import ADMINS, MARKERS, PLAYERS, ensure_roles

pytestmark = pytest.mark.django_db

CORK_EVENTS = [
    ("stroke", {}),  # 1: player 1, nothing → player 2
    ("foul", {"fouls": ["miss"]}),  # 2: player 2: 1 − 3 = −2, bank 6 → player 3
    ("score", {}),  # 3: player 3: 1 + 6 = 7, bank 12 … undone by 4
    ("undo", {}),  # 4: back to bank 6, player 3 at the table
    ("foul", {"fouls": ["touched", "miss"]}),  # 5: player 3: 1 − 6 = −5, bank 12
]


@pytest.fixture
def live_cork():
    ann, bob = player("Ann"), player("Bob")
    game = Game.objects.create(
        table=table(4),
        variant="cork",
        settings={"players": 3, "target": 100},
        last_seq=len(CORK_EVENTS),
    )
    for position, who in enumerate([ann, bob, "Gus"]):
        Seat.objects.create(
            game=game,
            position=position,
            player=who if not isinstance(who, str) else None,
            guest_name=who if isinstance(who, str) else "",
        )
    from games.models import Event

    for seq, (kind, payload) in enumerate(CORK_EVENTS, start=1):
        Event.objects.create(game=game, seq=seq, kind=kind, payload=payload)
    return game


def log_rows(html):
    return re.findall(r'<tr class="([^"]*)" id="event-(\d+)">(.*?)</tr>', html, re.S)


def cells(row_html):
    return [
        re.sub(r"<[^>]+>|\s+", " ", c).strip()
        for c in re.findall(r"<td[^>]*>(.*?)</td>", row_html, re.S)
    ]


def test_log_with_state_after_each_event_and_undone_marked(client, live_cork):
    response = client.get(reverse("games:detail", args=[live_cork.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    rows = log_rows(html)
    assert [number for _cls, number, _row in rows] == ["1", "2", "3", "4", "5"]
    classes = {number: cls.split() for cls, number, _row in rows}
    assert classes["3"] == ["undone"]
    assert classes["4"] == ["undo"]
    assert classes["1"] == classes["2"] == classes["5"] == []
    table_cells = {number: cells(row) for _cls, number, row in rows}
    # № | time | event | Ann | Bob | Gus | Bank
    assert [c[3:] for n, c in sorted(table_cells.items())] == [
        ["1", "1", "1", "3"],
        ["1", "−2", "1", "6"],
        ["1", "−2", "7", "12"],
        ["1", "−2", "1", "6"],
        ["1", "−2", "−5", "12"],
    ]
    assert "<del>" in rows[2][2] and "undone" in table_cells["3"][2]
    assert "Undone: event 3" in table_cells["4"][2]
    assert (
        "Miss" in table_cells["5"][2] and "Cue ball or object ball touched" in table_cells["5"][2]
    )
    assert "In progress" in html
    assert ">Target</dt><dd>100</dd>" in html
    assert reverse("players:detail", args=[live_cork.seats.get(position=0).player_id]) in html
    assert "Gus" in html


def test_finished_game_shows_result(client):
    ann, bob = player("Ann"), player("Bob")
    game = finished(
        "cork",
        [(ann, "loss", -9, cork_stats()), (bob, "win", 100, cork_stats())],
        settings={"players": 2, "target": 100},
    )
    html = client.get(reverse("games:detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()
    assert re.search(r"Winner:\s*<strong>Bob</strong>", html)
    assert "No events recorded." in html


def test_russian_is_the_default(client, live_cork):
    html = client.get(reverse("games:detail", args=[live_cork.pk])).content.decode()
    assert "Журнал" in html or "журнал" in html


def test_unknown_game_is_404(client):
    assert client.get(reverse("games:detail", args=[999999])).status_code == 404


@pytest.mark.parametrize(
    ("variant", "game_settings", "label"),
    [
        (
            "cue_run",
            {"handicap": "extra_strokes", "handicap_strokes": 2, "strong_seat": 1},
            "Stronger player (gives the handicap)",
        ),
        ("cue_vs_hand", {"cue_seat": 1}, "Plays with the cue (the stronger player)"),
    ],
)
def test_a_seat_setting_names_the_player_seated_there(client, variant, game_settings, label):
    # The seat settings are stored as integers: the page looked their labels up by string (500).
    ann, bob = player("Ann"), player("Bob")
    game = finished(
        variant,
        [(ann, "loss", 20, {}), (bob, "win", 18, {})],
        settings={"players": 2, **game_settings},
    )
    seat_setting = next(name for name in game_settings if name.endswith("_seat"))
    assert isinstance(game.settings[seat_setting], int)
    response = client.get(reverse("games:detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<dt>{label}</dt><dd>Bob</dd>" in html


@pytest.mark.parametrize(
    ("groups", "self_scored", "shown"),
    [
        ([ADMINS], False, "запись: администратор"),
        ([MARKERS], False, "запись: маркёр"),
        ([PLAYERS], True, "запись: сами игроки, без маркёра"),
    ],
)
def test_the_page_names_who_recorded_the_game_by_role_never_by_login(
    client, groups, self_scored, shown
):
    """Issue 31 item 4: an anonymous visitor read «маркёр: admin», a staff user's name."""
    ensure_roles()
    recorder = UserFactory(username="admin-petrov", groups=groups)
    game = finished("cork", [(player("Ann"), "win", 3, cork_stats()), ("Gus", "loss", 1, {})])
    Game.objects.filter(pk=game.pk).update(marker=recorder, needs_confirmation=self_scored)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    lead = " ".join(re.sub(r"<[^>]+>", " ", page.split('class="lead"')[1].split("</p>")[0]).split())
    assert shown in lead, lead
    assert "admin-petrov" not in page and "маркёр: " not in page
