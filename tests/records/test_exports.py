"""CSV exports of the games and of the players' statistics: UTF-8 with a BOM, filters."""

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse

from games import rules
from records import glicko
from tests.factories import T0, clockwise_stats, cork_stats, cue_run_stats, finished, player
from toolbox.csv_export import safe_cell

pytestmark = pytest.mark.django_db


def read_csv(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")  # the byte-order mark Excel needs for Cyrillic
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))


@pytest.fixture
def games():
    ann, bob = player("Анна Петрова", nickname="Аня"), player("Bob")
    g1 = finished(
        "cork",
        [
            (ann, "win", 100, cork_stats(won=120)),
            (bob, "loss", -20, cork_stats()),
            ("Gus", "loss", 1, {}),
        ],
        at=T0,
        number=2,
    )
    g2 = finished(
        "cue_run",
        [(ann, "draw", 16, cue_run_stats(16)), (bob, "draw", 16, cue_run_stats(16))],
        at=T0 + timedelta(hours=1),
        draw="normal",
    )
    g3 = finished(
        "clockwise",
        [(bob, "win", 70, clockwise_stats(9, 70)), ("Gus", "loss", 3, clockwise_stats(1, 3))],
        at=T0 + timedelta(hours=2),
    )
    return ann, bob, (g1, g2, g3)


def test_games_csv(client, games):
    ann, bob, (g1, g2, g3) = games
    rows = read_csv(client.get(reverse("games:games_csv"), HTTP_ACCEPT_LANGUAGE="en"))
    header, body = rows[0], rows[1:]
    seats = max(variant.max_seats for variant in rules.VARIANTS.values())
    assert header == (
        ["Game", "Finished", "Table", "Game type"]
        + [column for n in range(1, seats + 1) for column in (f"Player {n}", f"Score {n}")]
        + ["Outcomes", "Winners", "Draw", "Link"]
    )
    assert [r[0] for r in body] == [str(g1.pk), str(g2.pk), str(g3.pk)]  # oldest first
    first = dict(zip(header, body[0], strict=True))
    assert [first[c] for c in ("Finished", "Table", "Game type")] == [
        "2025-03-10 18:00",
        "2",
        "Cork (Probka)",
    ]
    # Each player and his score in columns of their own; a negative score stays a number.
    assert [first[f"Player {n}"] for n in (1, 2, 3, 4)] == ["Аня", "Bob", "Gus", ""]
    assert [first[f"Score {n}"] for n in (1, 2, 3, 4)] == ["100", "-20", "1", ""]
    assert [first[c] for c in ("Outcomes", "Winners")] == ["Win / Loss / Loss", "Аня"]
    second = dict(zip(header, body[1], strict=True))
    assert [second["Winners"], second["Draw"]] == ["Аня / Bob", "normal draw"]
    assert body[2][-1] == f"http://testserver/games/{g3.pk}/"


def test_games_csv_filters(client, games):
    ann, bob, (g1, g2, g3) = games
    url = reverse("games:games_csv")
    assert [r[0] for r in read_csv(client.get(url, {"player": ann.pk}))[1:]] == [
        str(g1.pk),
        str(g2.pk),
    ]
    assert [r[0] for r in read_csv(client.get(url, {"variant": "clockwise"}))[1:]] == [str(g3.pk)]
    assert read_csv(client.get(url, {"period": "month"}))[1:] == []  # 2025 is long gone
    assert client.get(url, {"variant": "chess"}).status_code == 404


def test_player_statistics_csv(client, games):
    ann, bob, _games = games
    rows = read_csv(
        client.get(reverse("games:stats_csv"), {"variant": "cue_run"}, HTTP_ACCEPT_LANGUAGE="en")
    )
    assert rows[0] == [
        "Player ID",
        "Player",
        "Game type",
        "Games",
        "Wins",
        "Losses",
        "Draws",
        "Wins, %",
        "Rating",
        "Pocketing with the cue: Complete runs",
        "Pocketing with the cue: Best run (strokes)",
        "Pocketing with the cue: Average strokes per run",
        "Pocketing with the cue: Perfect runs (16 in 16)",
    ]
    # One game each, the same figures: a draw in 16 strokes, a perfect run.
    figures = ["Pocketing with the cue", "1", "0", "0", "1", "0", "1500", "1", "16", "16", "1"]
    assert sorted(rows[1:]) == sorted(
        [[str(ann.pk), "Аня", *figures], [str(bob.pk), "Bob", *figures]]
    )


def test_player_statistics_csv_of_every_game(client, games):
    ann, bob, _games = games
    rows = read_csv(client.get(reverse("games:stats_csv"), HTTP_ACCEPT_LANGUAGE="en"))
    header = rows[0]
    assert "Cork (Probka): Points won" in header and "Cue against hand: Won by hand" in header
    lines = {(r[1], r[2]): dict(zip(header, r, strict=True)) for r in rows[1:]}
    assert set(lines) == {
        ("Аня", "Cork (Probka)"),
        ("Bob", "Cork (Probka)"),
        ("Аня", "Pocketing with the cue"),
        ("Bob", "Pocketing with the cue"),
        ("Bob", "Balls clockwise"),
    }
    ann_cork = lines[("Аня", "Cork (Probka)")]
    assert ann_cork["Cork (Probka): Points won"] == "120"
    newcomer = glicko.start(None)  # Ann beat Bob, both newcomers: Glicko-2's first step
    won = glicko.rate(newcomer, [glicko.Result(newcomer, 1.0)])
    assert ann_cork["Wins"] == "1" and ann_cork["Rating"] == str(round(won.rating)) == "1662"
    assert ann_cork["Balls clockwise: Points per game"] == ""
    assert lines[("Bob", "Balls clockwise")]["Balls clockwise: Points per game"] == "70"


FORMULA = '=HYPERLINK("http://x","x")'


def test_exports_cannot_carry_formulas(client, admin_client):
    """A name a spreadsheet would run is written as text (a leading '); numbers stay numbers."""
    ann = player(FORMULA, nickname="")
    finished(
        "cork",
        [(ann, "win", 100, cork_stats(won=120)), ("@SUM(A1)", "loss", -53, cork_stats())],
        at=T0,
    )
    rows = read_csv(client.get(reverse("games:games_csv"), HTTP_ACCEPT_LANGUAGE="en"))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["Player 1"] == "'" + FORMULA and row["Player 2"] == "'@SUM(A1)"
    assert row["Score 2"] == "-53"  # a true number, not marked
    assert row["Winners"] == "'" + FORMULA
    stats = read_csv(client.get(reverse("games:stats_csv"), {"variant": "cork"}))
    assert [r[1] for r in stats[1:]] == ["'" + FORMULA]
    roster = admin_client.get(reverse("players:export")).content.decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(roster)))[1][0] == "'" + FORMULA


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+2", "'=1+2"),
        ("+7 912", "'+7 912"),
        ("-2", "'-2"),  # text that looks like a number is still text
        ("@cmd", "'@cmd"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Анна", "Анна"),
        ("a=b", "a=b"),
        ("", ""),
        (None, ""),
        (-53, -53),
        (-1.5, -1.5),
        (0, 0),
    ],
)
def test_safe_cell(value, cell):
    assert safe_cell(value) == cell
