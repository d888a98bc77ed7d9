"""Leaderboards: period filters, the minimum number of games, sorting, the HTMX fragment."""

import re
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.current import using_club
from clubs.models import Club
from records.stats import leaderboard, period_start
from records.views.games import LEADERBOARD_PAGE
from tests.factories import clockwise_stats, cue_run_stats, finished, player

pytestmark = pytest.mark.django_db

NOW = timezone.make_aware(datetime(2025, 6, 15, 12, 0))


@pytest.fixture
def frozen_now(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    return NOW


def clockwise(winner, loser, at, points=(70, 40)):
    return finished(
        "clockwise",
        [
            (winner, "win", points[0], clockwise_stats(9, points[0])),
            (loser, "loss", points[1], clockwise_stats(4, points[1], wrong=1)),
        ],
        at=at,
    )


@pytest.fixture
def season(frozen_now):
    """Ann: 2 wins this month, 1 win earlier this year, 1 loss last year.
    Bob: 1 loss this month, 1 win + 1 loss earlier this year. Cid: 1 loss this month, 1 win
    last year."""
    ann, bob, cid = player("Ann"), player("Bob"), player("Cid")
    this_month = timezone.make_aware(datetime(2025, 6, 2, 19, 0))
    earlier = timezone.make_aware(datetime(2025, 2, 1, 19, 0))
    last_year = timezone.make_aware(datetime(2024, 12, 31, 22, 0))
    clockwise(ann, bob, this_month)
    clockwise(ann, cid, this_month + timedelta(hours=1))
    clockwise(ann, bob, earlier)
    clockwise(bob, cid, earlier + timedelta(days=1), points=(61, 60))
    clockwise(cid, ann, last_year)
    return ann, bob, cid


def by_name(rows):
    return {row["name"]: row for row in rows}


def test_period_starts_in_the_club_time_zone(frozen_now):
    start = period_start("month")
    assert (start.year, start.month, start.day, start.hour) == (2025, 6, 1, 0)
    assert start.utcoffset() == timedelta(hours=3)  # Europe/Moscow
    assert period_start("year").month == 1 and period_start("all") is None


def test_period_filters(season):
    month, _s, _d = leaderboard("clockwise", "month", 1)
    assert {n: (r["games"], r["wins"]) for n, r in by_name(month).items()} == {
        "Ann": (2, 2),
        "Bob": (1, 0),
        "Cid": (1, 0),
    }
    year, _s, _d = leaderboard("clockwise", "year", 1)
    assert {n: (r["games"], r["wins"], r["losses"]) for n, r in by_name(year).items()} == {
        "Ann": (3, 3, 0),
        "Bob": (3, 1, 2),
        "Cid": (2, 0, 2),
    }
    everything, _s, _d = leaderboard("clockwise", "all", 1)
    assert by_name(everything)["Ann"]["games"] == 4
    assert by_name(everything)["Cid"]["wins"] == 1


def test_minimum_games(season):
    rows, _s, _d = leaderboard("clockwise", "year", 3)
    assert sorted(by_name(rows)) == ["Ann", "Bob"]
    rows, _s, _d = leaderboard("clockwise", "month", 2)
    assert list(by_name(rows)) == ["Ann"]


def test_figures_and_default_sort(season):
    rows, sort, desc = leaderboard("clockwise", "all", 1)
    assert (sort, desc) == ("win_percentage", True)
    assert [r["name"] for r in rows] == ["Ann", "Bob", "Cid"]  # 75 %, 33.3 %, 33.3 % (fewer games)
    ann = by_name(rows)["Ann"]
    assert ann["win_percentage"] == pytest.approx(75.0)
    assert ann["points_per_game"] == pytest.approx((70 * 3 + 40) / 4)
    assert ann["wrong_pockets"] == 1
    assert ann["rating"] > 1500 > by_name(rows)["Cid"]["rating"]


def test_sorting_by_any_column(season):
    rows, _s, _d = leaderboard("clockwise", "all", 1, sort="losses")
    assert [r["name"] for r in rows][0] == "Ann"  # fewer losses is better: ascending by default
    rows, _s, _d = leaderboard("clockwise", "all", 1, sort="losses", desc=True)
    assert [r["losses"] for r in rows] == [2, 2, 1]
    assert [r["name"] for r in rows][:2] == ["Bob", "Cid"]  # ties: more games first
    rows, _s, _d = leaderboard("clockwise", "all", 1, sort="rating")
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    rows, sort, _d = leaderboard("clockwise", "all", 1, sort="no_such_column")
    assert sort == "win_percentage"


def test_cue_run_board_best_run_sorts_fewest_first(frozen_now):
    ann, bob = player("Ann"), player("Bob")
    finished("cue_run", [(ann, "win", 17, cue_run_stats(17)), (bob, "loss", 21, cue_run_stats(21))])
    rows, sort, desc = leaderboard("cue_run", "all", 1, sort="best_run")
    assert (sort, desc) == ("best_run", False)
    assert [(r["name"], r["best_run"]) for r in rows] == [("Ann", 17), ("Bob", 21)]


def test_page_and_htmx_fragment(client, season):
    url = reverse("games:leaderboard")
    page = client.get(url, {"variant": "clockwise", "period": "month", "min_games": 1})
    html = page.content.decode()
    assert page.status_code == 200 and "<html" in html
    assert re.findall(r'<tr data-player="(\d+)"', html) == [str(p.pk) for p in season]
    fragment = client.get(
        url,
        {"variant": "clockwise", "period": "month", "min_games": 2, "sort": "games", "dir": "asc"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert fragment.lstrip().startswith('<section id="leaderboard"')
    assert re.findall(r'<tr data-player="(\d+)"', fragment) == [str(season[0].pk)]
    # The sorted column's header flips the direction; another column's starts best-first.
    assert "sort=games&amp;dir=desc" in fragment
    assert "sort=wins&amp;dir=desc" in fragment and "sort=losses&amp;dir=asc" in fragment


def test_bad_query_falls_back_to_defaults(client, season):
    response = client.get(
        reverse("games:leaderboard"), {"variant": "chess", "period": "decade", "min_games": "x"}
    )
    assert response.status_code == 200
    assert response.context["query"]["variant"] == "cork"
    assert response.context["query"]["min_games"] == 3
    response = client.get(reverse("games:leaderboard"), {"variant": "cue_run", "min_games": "x"})
    assert response.context["query"]["variant"] == "cue_run"  # the valid part is kept


def test_cached_board_follows_every_finished_game(season):
    ann, bob, _cid = season
    rows, _s, _d = leaderboard("clockwise", "all", 1)
    assert by_name(rows)["Bob"]["games"] == 3
    clockwise(bob, ann, NOW - timedelta(minutes=5))
    rows, _s, _d = leaderboard("clockwise", "all", 1)
    assert (by_name(rows)["Bob"]["games"], by_name(rows)["Bob"]["wins"]) == (4, 2)


def test_the_page_says_which_games_share_a_rating(client):
    """It said "the three pocketing games share one" while four did, and nothing of the
    pyramid games' rating."""
    html = client.get(reverse("games:leaderboard"), headers={"Accept-Language": "ru"})
    html = re.sub(r"\s+", " ", html.content.decode())
    pyramid = (
        "<b>Пирамида</b>: Свободная пирамида («Американка»), Комбинированная пирамида "
        "(«Московская»), Динамичная пирамида («Невская»), Классическая пирамида («71 очко»)"
    )
    assert pyramid in html
    assert "Кладка шаров по порядку номеров</li>" in html  # in the pocketing games' family
    assert "<li><b>Пробка</b></li>" in html  # a rating of its own
    assert "Партия нескольких игроков считается результатом против каждого" in html
    assert "три игры" not in html


def regulars_and_a_newcomer(frozen_now):
    """Ann and Bob have played each other 30 times (established); Nik, a newcomer, beat Ann
    twice this week (provisional: his win percentage tops the board)."""
    ann, bob, nik = player("Ann"), player("Bob"), player("Nik")
    start = frozen_now - timedelta(days=40)
    for i in range(30):
        winner, loser = (ann, bob) if i % 3 else (bob, ann)
        clockwise(winner, loser, start + timedelta(days=i))
    clockwise(nik, ann, frozen_now - timedelta(days=2))
    clockwise(nik, ann, frozen_now - timedelta(days=1))
    return ann, bob, nik


def test_a_provisional_rating_is_listed_below_the_places(client, frozen_now, settings):
    ann, bob, nik = regulars_and_a_newcomer(frozen_now)
    rows, _sort, _desc = leaderboard("clockwise")
    assert [(r["name"], r["place"], r["provisional"]) for r in rows] == [
        ("Ann", 1, False),
        ("Bob", 2, False),
        ("Nik", None, True),
    ]
    html = client.get(reverse("games:leaderboard"), {"variant": "clockwise", "min_games": 1})
    html = re.sub(r"\s+", " ", html.content.decode())
    row = re.search(rf'<tr data-player="{nik.pk}" class="unranked"> <td>—</td>.*?</tr>', html)
    assert row and ">П</abbr>" in row.group(0) and "±" in row.group(0)
    assert "ниже занявших места, без места" in html


def test_a_club_may_rank_provisional_ratings(frozen_now):
    _ann, _bob, _nik = regulars_and_a_newcomer(frozen_now)
    club = Club.objects.get()
    club.rank_provisional = True
    club.save()
    with using_club(club):
        rows, _sort, _desc = leaderboard("clockwise")
    assert [(r["name"], r["place"]) for r in rows] == [("Nik", 1), ("Ann", 2), ("Bob", 3)]


def test_a_big_club_s_board_comes_in_pages(client, frozen_now):
    people = [player(f"Player {i:03}") for i in range(2 * LEADERBOARD_PAGE + 5)]
    for i, person in enumerate(people):
        clockwise(person, people[i - 1], frozen_now - timedelta(hours=i + 1))
    url = reverse("games:leaderboard")
    query = {"variant": "clockwise", "min_games": 1, "sort": "games", "dir": "desc"}
    first = client.get(url, query).content.decode()
    assert len(re.findall(r'<tr data-player="', first)) == LEADERBOARD_PAGE
    last = client.get(url, query | {"page": 3}, HTTP_HX_REQUEST="true").content.decode()
    assert len(re.findall(r'<tr data-player="', last)) == 5
    assert "Страница 3 из 3" in last and "page=2" in last
    assert client.get(url, query | {"page": "x"}).status_code == 200  # a bad link: page 1
