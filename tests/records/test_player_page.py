"""Every figure on the player page, checked against games computed by hand."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, GameStatus, Seat
from records.stats import player_records
from tests.factories import (
    T0,
    clockwise_stats,
    cork_stats,
    cue_run_stats,
    finished,
    hand_stats,
    player,
    table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    """Ann's games, by hand:

    cork (2): won G1 (3 players; fouls: miss 1; won 30), lost G2 (fouls: cork_direct 1, miss 1;
        won 10) → fouls per game: miss 1.0, cork_direct 0.5, others 0; points won 40, 20.0
        per game; fouls per game (1 + 2 penalised strokes... see stats) 1.5.
    cue_run (3): won 18 strokes, drew 16 (perfect), lost an incomplete run → 2 complete runs,
        best 16, average 17.0, 1 perfect.
    clockwise (2): won 9 balls / 70 points / 1 wrong pocket, lost 5 / 40 / 2 (against a guest)
        → 7.0 balls and 55.0 points per game, 3 wrong pockets.
    cue_vs_hand (3): won with the cue, won by hand, lost with the cue → 2 cue games 1 won,
        1 hand game 1 won.
    """
    ann, bob, cid = player("Ann Petrova", nickname="Ann"), player("Bob"), player("Cid")
    at = T0
    step = timedelta(hours=1)
    ann_cork_1 = cork_stats({"miss": 1}, scoring=2, won=30, lost=3, final=101)
    ann_cork_1["fouls_total"] = 1
    ann_cork_2 = cork_stats({"cork_direct": 1, "miss": 1}, won=10, lost=20, final=-9)
    ann_cork_2["fouls_total"] = 2  # two fouls ticked in two penalised strokes
    finished(
        "cork",
        [
            (ann, "win", 101, ann_cork_1),
            (bob, "loss", -20, cork_stats({"miss": 2, "touched": 1}, won=4, final=-20)),
            (cid, "loss", 5, cork_stats(won=4, final=5)),
        ],
        at=at,
    )
    finished(
        "cork",
        [(ann, "loss", -9, ann_cork_2), (bob, "win", 100, cork_stats(scoring=3, won=120))],
        at=at + step,
    )
    finished(
        "cue_run",
        [(ann, "win", 18, cue_run_stats(18, penalties=1)), (bob, "loss", 20, cue_run_stats(20))],
        at=at + 2 * step,
        settings={"handicap": "none"},
    )
    finished(
        "cue_run",
        [(ann, "draw", 16, cue_run_stats(16)), (bob, "draw", 16, cue_run_stats(16))],
        at=at + 3 * step,
        draw="normal",
    )
    finished(
        "cue_run",
        [(bob, "win", 22, cue_run_stats(22)), (ann, "loss", 25, cue_run_stats(25, balls=9))],
        at=at + 4 * step,
    )
    finished(
        "clockwise",
        [
            (ann, "win", 70, clockwise_stats(9, 70, wrong=1)),
            (bob, "loss", 50, clockwise_stats(6, 50)),
        ],
        at=at + 5 * step,
    )
    finished(
        "clockwise",
        [
            ("Gus (guest)", "win", 80, clockwise_stats(10, 80)),
            (ann, "loss", 40, clockwise_stats(5, 40, wrong=2, fouls=1)),
        ],
        at=at + 6 * step,
    )
    finished(
        "cue_vs_hand",
        [(ann, "win", 8, hand_stats("cue", 8)), (bob, "loss", 3, hand_stats("hand", 3))],
        at=at + 7 * step,
    )
    finished(
        "cue_vs_hand",
        [(cid, "loss", 6, hand_stats("cue", 6)), (ann, "win", 8, hand_stats("hand", 8))],
        at=at + 8 * step,
    )
    finished(
        "cue_vs_hand",
        [(ann, "loss", 2, hand_stats("cue", 2)), (cid, "win", 8, hand_stats("hand", 8))],
        at=at + 9 * step,
    )
    # Neither a game in progress nor an abandoned one counts in the figures.
    live = Game.objects.create(table=table(2), variant="cork", settings={})
    Seat.objects.create(game=live, position=0, player=ann)
    Seat.objects.create(game=live, position=1, player=bob)
    dropped = Game.objects.create(table=table(3), variant="cue_run", status=GameStatus.ABANDONED)
    Seat.objects.create(game=dropped, position=0, player=ann)
    Seat.objects.create(game=dropped, position=1, player=cid)
    return ann, bob, cid


def figures(record):
    return {figure.key: value for figure, value in record.figures}


def test_outcome_counts_per_game(club):
    ann, _bob, _cid = club
    records = {r.variant: r for r in player_records(ann)}
    assert [(v, r.games, r.wins, r.losses, r.draws) for v, r in records.items()] == [
        ("cork", 2, 1, 1, 0),
        ("clockwise", 2, 1, 1, 0),
        ("cue_run", 3, 1, 1, 1),
        ("cue_vs_hand", 3, 2, 1, 0),
    ]
    assert records["cue_vs_hand"].win_percentage == pytest.approx(66.7)


def test_cork_figures(club):
    ann = club[0]
    cork = figures(next(r for r in player_records(ann) if r.variant == "cork"))
    assert cork["points_won"] == 40
    assert cork["points_won_per_game"] == pytest.approx(20.0)
    assert cork["scoring_strokes"] == 2
    assert cork["fouls_per_game"] == pytest.approx(1.5)
    assert cork["foul_miss"] == pytest.approx(1.0)
    assert cork["foul_cork_direct"] == pytest.approx(0.5)
    assert cork["foul_touched"] == pytest.approx(0.0)
    bob = figures(next(r for r in player_records(club[1]) if r.variant == "cork"))
    assert bob["foul_miss"] == pytest.approx(1.0)  # 2 misses in 2 games
    assert bob["foul_touched"] == pytest.approx(0.5)
    assert bob["points_won"] == 124


def test_cue_run_figures(club):
    ann = club[0]
    cue_run = figures(next(r for r in player_records(ann) if r.variant == "cue_run"))
    assert cue_run["runs"] == 2  # the incomplete run does not count as a run
    assert cue_run["best_run"] == 16
    assert cue_run["average_run"] == pytest.approx(17.0)
    assert cue_run["perfect_runs"] == 1
    bob = figures(next(r for r in player_records(club[1]) if r.variant == "cue_run"))
    assert (bob["runs"], bob["best_run"], bob["perfect_runs"]) == (3, 16, 1)
    assert bob["average_run"] == pytest.approx((20 + 16 + 22) / 3)


def test_clockwise_figures(club):
    ann = club[0]
    clockwise = figures(next(r for r in player_records(ann) if r.variant == "clockwise"))
    assert clockwise["balls_per_game"] == pytest.approx(7.0)
    assert clockwise["points_per_game"] == pytest.approx(55.0)
    assert clockwise["wrong_pockets"] == 3
    assert clockwise["fouls_per_game"] == pytest.approx(0.5)


def test_cue_vs_hand_figures(club):
    ann, _bob, cid = club
    hand = figures(next(r for r in player_records(ann) if r.variant == "cue_vs_hand"))
    assert (hand["cue_games"], hand["cue_wins"], hand["hand_games"], hand["hand_wins"]) == (
        2,
        1,
        1,
        1,
    )
    cid_hand = figures(next(r for r in player_records(cid) if r.variant == "cue_vs_hand"))
    assert (cid_hand["cue_wins"], cid_hand["hand_wins"]) == (0, 1)


def card(html, variant):
    match = re.search(rf'id="figures-{variant}">(.*?)</section>', html, re.S)
    assert match, f"no figures card for {variant}"
    return dict(
        (re.sub(r"\s+", " ", dt).strip(), dd.strip())
        for dt, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", match.group(1), re.S)
    )


def test_page_shows_the_figures(client, club):
    ann = club[0]
    response = client.get(reverse("players:detail", args=[ann.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    summary = re.findall(
        r'<tr data-variant="(\w+)">\s*<td>[^<]*</td><td class="num">(\d+)</td>\s*'
        r'<td class="num">(\d+)</td><td class="num">(\d+)</td>\s*<td class="num">(\d+)</td>',
        html,
    )
    assert summary == [
        ("cork", "2", "1", "1", "0"),
        ("clockwise", "2", "1", "1", "0"),
        ("cue_run", "3", "1", "1", "1"),
        ("cue_vs_hand", "3", "2", "1", "0"),
    ]
    cork = card(html, "cork")
    assert cork["Points won"] == "40"
    assert cork["Points won per game"] == "20.0"
    assert cork["Miss"] == "1.0"
    assert cork["Cork hit by an object ball directly, not off a cushion"] == "0.5"
    cue_run = card(html, "cue_run")
    assert cue_run["Best run (strokes)"] == "16"
    assert cue_run["Average strokes per run"] == "17.0"
    assert cue_run["Perfect runs (16 in 16)"] == "1"
    clockwise = card(html, "clockwise")
    assert (clockwise["Balls per game"], clockwise["Points per game"]) == ("7.0", "55.0")
    assert clockwise["Wrong pockets"] == "3"
    hand = card(html, "cue_vs_hand")
    assert (hand["Won with the cue"], hand["Won by hand"]) == ("1", "1")


def test_page_lists_his_games_with_opponents_and_links(client, club):
    ann, bob, cid = club
    html = client.get(reverse("players:detail", args=[ann.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()
    games = Game.objects.filter(seats__player=ann)
    assert games.count() == 12
    for game in games:
        assert reverse("games:detail", args=[game.pk]) in html
    rows = re.findall(r'<tr class="outcome-(\w+)">(.*?)</tr>', html, re.S)
    assert len(rows) == 12
    # Newest first: the game in progress, the abandoned one, then the last cue-vs-hand loss.
    outcomes = [outcome for outcome, _row in rows]
    assert outcomes.count("win") == 5 and outcomes.count("loss") == 4
    assert outcomes.count("draw") == 1
    first_cork = next(row for _o, row in rows if "Cork" in row and "Cid" in row)
    assert reverse("players:detail", args=[bob.pk]) in first_cork
    assert reverse("players:detail", args=[cid.pk]) in first_cork
    assert "Gus (guest)" in html


def test_games_list_is_paginated_with_htmx_fragment(client, club):
    ann = club[0]
    for i in range(30):
        finished(
            "clockwise",
            [
                (ann, "win", 61, clockwise_stats(8, 61)),
                ("Guest", "loss", 20, clockwise_stats(3, 20)),
            ],
            at=T0 - timedelta(days=i + 1),
        )
    url = reverse("players:detail", args=[ann.pk])
    first = client.get(url).content.decode()
    assert first.count('<tr class="outcome-') == 25
    second = client.get(url + "?page=2", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="player-games")
    fragment = second.content.decode()
    assert fragment.lstrip().startswith('<div id="player-games">')
    assert "<html" not in fragment
    assert fragment.count('<tr class="outcome-') == 42 - 25


def test_rating_chart_is_inline_svg(client, club):
    ann = club[0]
    html = client.get(reverse("players:detail", args=[ann.pk])).content.decode()
    assert 'id="rating-cork"' in html and 'id="rating-pocketing"' in html
    chart = re.search(r'id="rating-pocketing">.*?<polyline[^>]*points="([^"]+)"', html, re.S)
    svg = re.search(r'id="rating-pocketing">.*?(<svg.*?</svg>)', html, re.S).group(1)
    # Russian is the default language: no localised decimal comma may reach a coordinate.
    assert not re.search(r'\b(?:x|y|x1|x2|y1|y2|cx|cy)="[^"]*,', svg)
    # 7 rated pocketing games (not the one against a guest: guests are not rated) + the start.
    assert len(chart.group(1).split()) == 7 + 1
    # The band of ± the deviation around the line: above it and below, at every point.
    band = re.search(r'<polygon class="band" points="([^"]+)"', svg).group(1).split()
    assert len(band) == 2 * (7 + 1)
    line = [tuple(map(float, p.split(","))) for p in chart.group(1).split()]
    upper, lower = band[: len(line)], band[len(line) :][::-1]
    for (x, y), top, bottom in zip(line, upper, lower, strict=True):
        assert float(top.split(",")[1]) < y < float(bottom.split(",")[1])
        assert float(top.split(",")[0]) == x
    # Seven games: the rating is still provisional, and says so with its deviation.
    card = re.search(r'id="rating-pocketing">.*?</h3>', html, re.S).group(0)
    assert re.search(r"±&nbsp;\d+", card) and ">П</abbr>" in card


def test_the_rating_chart_is_read_once_and_follows_his_next_game(client, club):
    """His chart is kept under his newest rating point: asked again it is not read again
    (a heavy player's thousands of points), and his next game draws it anew."""
    ann, bob, _cid = club
    url = reverse("players:detail", args=[ann.pk])

    def points(html):
        chart = re.search(r'id="rating-cork">.*?<polyline[^>]*points="([^"]+)"', html, re.S)
        return chart.group(1).split()

    first = client.get(url).content.decode()
    with CaptureQueriesContext(connection) as read:
        again = client.get(url).content.decode()
    assert points(again) == points(first) == points(first)[:3]  # two cork games + the start
    history = '"records_ratingpoint"."volatility"'  # his points read (rating.history)
    assert not [query for query in read.captured_queries if history in query["sql"]]
    finished(
        "cork",
        [(ann, "win", 10, cork_stats()), (bob, "loss", 2, cork_stats())],
        at=T0 + timedelta(days=1),
    )
    assert len(points(client.get(url).content.decode())) == 3 + 1


def test_player_without_games_and_unknown_player(client):
    nobody = player("Nobody")
    response = client.get(reverse("players:detail", args=[nobody.pk]))
    assert response.status_code == 200
    assert 'id="rating-' not in response.content.decode()
    assert client.get(reverse("players:detail", args=[nobody.pk + 1000])).status_code == 404


def test_cached_figures_follow_every_finished_game(club):
    ann, bob, _cid = club
    before = {r.variant: r.games for r in player_records(ann)}
    finished(
        "clockwise",
        [(ann, "win", 61, clockwise_stats(8, 61)), (bob, "loss", 9, clockwise_stats(2, 9))],
        at=T0 + timedelta(days=30),
    )
    after = {r.variant: r.games for r in player_records(ann)}
    assert after["clockwise"] == before["clockwise"] + 1
