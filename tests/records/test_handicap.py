"""Suggested handicaps: the documented formulas and the start form's HTMX fragment."""

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from records.handicap import cue_run_handicap, cue_vs_hand_target, suggest
from tests.factories import T0, clockwise_stats, cue_run_stats, finished, hand_stats, player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("weaker", "stronger", "expected"),
    [
        (17.0, 17.0, ("none", 0)),
        (17.2, 17.0, ("none", 0)),
        (17.4, 17.0, ("start", 0)),  # ½ stroke: the stronger starts
        (18.0, 17.0, ("extra_strokes", 1)),
        (19.6, 17.0, ("mixed", 2)),  # 2½: starts and gives 2 strokes
        (21.0, 17.0, ("extra_strokes", 4)),
        (60.0, 16.0, ("extra_strokes", 15)),  # at most 15
    ],
)
def test_cue_run_formula(weaker, stronger, expected):
    assert cue_run_handicap(weaker, stronger) == expected


@pytest.mark.parametrize(
    ("played", "won", "target"),
    [(0, 0, 8), (2, 2, 8), (4, 2, 8), (4, 1, 8), (4, 3, 6), (3, 3, 4), (10, 7, 6)],
)
def test_cue_vs_hand_target(played, won, target):
    assert cue_vs_hand_target(played, won) == target


def runs(who, strokes_list, start=T0):
    for i, strokes in enumerate(strokes_list):
        finished(
            "cue_run",
            [
                (who, "win", strokes, cue_run_stats(strokes)),
                ("Guest", "loss", 40, cue_run_stats(40)),
            ],
            at=start + timedelta(hours=i),
        )


def test_cue_run_suggestion_from_average_strokes(marker_client):
    client = marker_client
    ann, bob = player("Ann"), player("Bob")
    runs(ann, [17, 16, 18])  # 17.0
    runs(bob, [19, 20, 19, 20, 20])  # 19.6
    hint = suggest("cue_run", [f"p:{bob.pk}", f"p:{ann.pk}"])
    assert hint.settings == {"handicap": "mixed", "handicap_strokes": 2, "strong_seat": "1"}
    assert hint.summary == "Ann starts and gives Bob 2 strokes."
    response = client.get(
        reverse("games:handicap_hint"),
        {"variant": "cue_run", "seats": [f"p:{bob.pk}", f"p:{ann.pk}"]},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    html = response.content.decode()
    assert "Ann starts and gives Bob 2 strokes." in html
    settings = json.loads(
        re.search(r'data-accept-settings="([^"]+)"', html).group(1).replace("&quot;", '"')
    )
    assert settings == {"s_handicap": "mixed", "s_handicap_strokes": 2, "s_strong_seat": "1"}
    assert "Accept the suggestion" in html
    assert "Bob: 19.6 strokes per run on average" in html
    russian = client.get(
        reverse("games:handicap_hint"),
        {"variant": "cue_run", "seats": [f"p:{bob.pk}", f"p:{ann.pk}"]},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Bob: в среднем 19,6 удара за серию" in russian  # the Russian decimal comma


def test_only_recent_complete_runs_count():
    ann, bob = player("Ann"), player("Bob")
    runs(ann, [30] * 5, start=T0 - timedelta(days=100))  # old, beyond the last 20 runs
    runs(ann, [17] * 20)
    runs(bob, [17] * 3)
    finished(  # an incomplete run is no run
        "cue_run",
        [(bob, "loss", 40, cue_run_stats(40, balls=10)), ("G", "win", 20, cue_run_stats(20))],
        at=T0 + timedelta(days=1),
    )
    hint = suggest("cue_run", [f"p:{ann.pk}", f"p:{bob.pk}"])
    assert hint.settings["handicap"] == "none"


def test_not_enough_runs_or_a_guest():
    ann, bob = player("Ann"), player("Bob")
    runs(ann, [17] * 3)
    runs(bob, [18] * 2)
    hint = suggest("cue_run", [f"p:{ann.pk}", f"p:{bob.pk}"])
    assert not hint.acceptable and "Bob has 2 complete runs" in hint.summary
    assert not suggest("cue_run", [f"p:{ann.pk}", "g:Gus"]).acceptable
    assert not suggest("cue_run", [f"p:{ann.pk}", f"g:{bob.pk}"]).acceptable  # a guest "42"
    assert suggest("cue_run", [f"p:{ann.pk}"]) is None


def test_cue_vs_hand_stronger_by_rating_takes_the_cue():
    ann, bob = player("Ann"), player("Bob")
    for i in range(5):
        finished(
            "clockwise",
            [(ann, "win", 70, clockwise_stats(9, 70)), (bob, "loss", 30, clockwise_stats(4, 30))],
            at=T0 + timedelta(hours=i),
        )
    hint = suggest("cue_vs_hand", [f"p:{bob.pk}", f"p:{ann.pk}"])
    assert hint.settings == {"cue_seat": "1", "target": 8}
    assert hint.summary.startswith("Ann plays with the cue, Bob by hand, to 8 balls.")
    # Ann has since won 3 of 3 with the cue against Bob: a shorter game.
    for i in range(3):
        finished(
            "cue_vs_hand",
            [(ann, "win", 8, hand_stats("cue", 8)), (bob, "loss", 2, hand_stats("hand", 2))],
            at=T0 + timedelta(days=1, hours=i),
        )
    hint = suggest("cue_vs_hand", [f"p:{bob.pk}", f"p:{ann.pk}"])
    assert hint.settings == {"cue_seat": "1", "target": 4}
    assert any("won 3 of 3" in reason for reason in hint.reasons)


def test_cue_vs_hand_falls_back_to_the_sports_class():
    ann, bob = player("Ann", skill_class="1"), player("Bob", skill_class="novice")
    hint = suggest("cue_vs_hand", [f"p:{bob.pk}", f"p:{ann.pk}"])
    assert hint.settings["cue_seat"] == "1"
    same = player("Cid", skill_class="novice")
    assert not suggest("cue_vs_hand", [f"p:{bob.pk}", f"p:{same.pk}"]).acceptable


def test_other_games_get_an_empty_fragment(marker_client):
    client = marker_client
    ann, bob = player("Ann"), player("Bob")
    response = client.get(
        reverse("games:handicap_hint"), {"variant": "cork", "seats": [f"p:{ann.pk}", f"p:{bob.pk}"]}
    )
    assert response.status_code == 200 and response.content.strip() == b""


def test_start_form_loads_the_hint(marker_client):
    from tables.models import Table

    Table.objects.create(number=9)
    html = marker_client.get(reverse("games:table", args=[9])).content.decode()
    assert f'hx-get="{reverse("games:handicap_hint")}"' in html
    assert 'hx-include="closest form" hx-target="this"' in html


# --- the odds on the start form and the match form (records.forecast) ---------------------


def hint_html(client, variant, seats, language="en", **extra):
    response = client.get(
        reverse("games:handicap_hint"),
        {"variant": variant, "seats": seats, **extra},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    return response.content.decode()


def probability(html, kind):
    found = re.search(rf'data-odds="{kind}" data-probability="([0-9.]+)"', html)
    return float(found.group(1)) if found else None


def accepted(html, marker):
    found = re.search(rf'data-accept-settings="([^"]*)" {marker}', html)
    return json.loads(found.group(1).replace("&quot;", '"')) if found else None


@pytest.fixture
def skills(monkeypatch):
    from tests.helpers import fixed_skills

    return fixed_skills(monkeypatch)


def test_the_start_form_shows_the_odds_of_the_game(marker_client, skills):
    from records import glicko

    ann, bob = player("Ann Long-Surname"), player("Bob")
    skills[ann.pk] = glicko.Skill(1700, 60, games=50)
    skills[bob.pk] = glicko.Skill(1500, 70, games=30)
    p = glicko.win_probability(skills[ann.pk], skills[bob.pk])
    html = hint_html(marker_client, "clockwise", [f"p:{ann.pk}", f"p:{bob.pk}"])
    assert probability(html, "frame") == pytest.approx(p, abs=1e-4)
    first = round(p * 100)
    assert f"{first}%" in html and f"{100 - first}%" in html  # English (the fixture)
    assert "Ann Long-Surname" in html and "data-provisional" not in html
    assert "data-accept-fair" not in html  # a single game has no race to even out
    russian = hint_html(marker_client, "clockwise", [f"p:{bob.pk}", f"p:{ann.pk}"], "ru")
    assert probability(russian, "frame") == pytest.approx(1 - p, abs=1e-4)
    assert f"{100 - first}\u00a0%" in russian and "Шансы" in russian


def test_the_match_form_shows_the_race_and_the_fair_race(marker_client, skills):
    from records import glicko, odds

    ann, bob = player("Ann"), player("Bob")
    skills[ann.pk] = glicko.Skill(1750, 60, games=50)
    skills[bob.pk] = glicko.Skill(1500, 70, games=30)
    p = glicko.win_probability(skills[ann.pk], skills[bob.pk])
    seats = [f"p:{ann.pk}", f"p:{bob.pk}"]
    html = hint_html(
        marker_client, "clockwise", seats, race_to="5", head_start_a="0", head_start_b="1"
    )
    assert probability(html, "race") == pytest.approx(odds.race(p, 5, 4), abs=1e-4)
    assert "The match, 5 vs 4" in html
    fair = odds.fair_race(p, 5)
    assert f"Bob gets a head start of {fair.head_start} frames (5 vs {5 - fair.head_start})" in html
    assert probability(html, "fair") == pytest.approx(fair.probability, abs=1e-4)
    assert accepted(html, "data-accept-fair") == {
        "head_start_a": 0,
        "head_start_b": fair.head_start,
    }
    already = hint_html(
        marker_client, "clockwise", seats, race_to="5", head_start_b=str(fair.head_start)
    )
    assert "This is the fair race." in already and "data-accept-fair" not in already


def test_a_guest_and_a_newcomer_get_odds_marked_provisional_and_no_handicap(marker_client):
    newcomer = player("Newcomer", skill_class="1")
    html = hint_html(
        marker_client, "pyramid_free", [f"p:{newcomer.pk}", "g:Gus Guest"], race_to="3"
    )
    assert "Gus Guest" in html and html.count("data-provisional") == 2
    from records import glicko, odds

    p = glicko.win_probability(glicko.start("1"), glicko.start(None))
    assert probability(html, "race") == pytest.approx(odds.race(p, 3, 3), abs=1e-4)
    assert "No handicap is suggested for a guest" in html
    assert "data-accept-fair" not in html and "data-accept-hint" not in html


@pytest.mark.parametrize(
    "extra",
    [
        {"race_to": "abc"},
        {"race_to": "0"},
        {"race_to": "99999999999999999999"},
        {"race_to": "5", "head_start_a": "-3", "head_start_b": "x"},
        {"race_to": "3", "head_start_b": "7"},
        {"s_head_start": "lots", "s_weaker_seat": "9", "s_target": "-1"},
    ],
)
def test_what_cannot_be_read_is_left_out(marker_client, extra):
    ann, bob = player("Ann"), player("Bob")
    html = hint_html(marker_client, "pyramid_classic", [f"p:{ann.pk}", f"p:{bob.pk}"], **extra)
    assert 'data-odds="frame"' in html or 'data-odds="race"' in html
    unknown = (("nonsense", [f"p:{ann.pk}", f"p:{bob.pk}"]), ("clockwise", ["p:x", "p:"]))
    for variant, seats in unknown:
        assert hint_html(marker_client, variant, seats, **extra).strip() == ""
