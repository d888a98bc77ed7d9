"""Handicap advice for the pyramid games: the weaker player's head start ("8–7", "8–6" in
balls; points in the classic game) — the fair game handicap of the two skills (the family
rating, a newcomer's from his sports class), with the odds it leaves."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from records import forecast, glicko
from records.handicap import suggest
from tests.factories import T0, finished, player
from tests.helpers import fixed_skills

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def test_the_head_start_is_the_fair_game_handicap(monkeypatch):
    known = fixed_skills(monkeypatch)
    ann, bob = player("Ann"), player("Bob")
    known[ann.pk] = glicko.Skill(1750, 60, games=90)
    known[bob.pk] = glicko.Skill(1500, 70, games=40)
    p = glicko.win_probability(known[ann.pk], known[bob.pk])
    fair = forecast.fair_handicap("pyramid_free", p)
    assert fair.head_start >= 2  # a 250-point gap
    hint = suggest("pyramid_free", [f"p:{ann.pk}", f"p:{bob.pk}"])
    n = fair.head_start
    assert hint.summary == f"8–{8 - n}: Bob starts with {n} balls on the shelf."
    assert hint.settings == {"weaker_seat": "1", "head_start": n, "returned_pots": 0}
    assert hint.chances.probability == pytest.approx(fair.probability)  # the odds it leaves
    assert abs(hint.chances.probability - 0.5) < abs(p - 0.5)
    assert hint.label == f"With 8–{8 - n}"
    assert "Ann: rating 1750 (90 rated games)" in hint.reasons


def test_by_sports_class_a_newcomer_starts_from_his_class():
    ann = player("Ann", skill_class="2")
    bob = player("Bob", skill_class="novice")  # two classes below
    hint = suggest("pyramid_free", [f"p:{ann.pk}", f"p:{bob.pk}"])
    assert hint.summary == "8–6: Bob starts with 2 balls on the shelf."
    assert hint.settings == {"weaker_seat": "1", "head_start": 2, "returned_pots": 0}
    assert hint.chances.provisional == (True, True)
    classic = suggest("pyramid_classic", [f"p:{bob.pk}", f"p:{ann.pk}"])
    assert classic.summary == "Bob starts with 14 points."
    assert classic.settings == {"weaker_seat": "0", "head_start": 14, "returned_pots": 0}
    assert classic.label == "With a head start of 14 points"
    to_51 = suggest("pyramid_classic", [f"p:{bob.pk}", f"p:{ann.pk}"], {"target": "51"})
    assert to_51.settings["head_start"] < 14  # a shorter game: fewer points


def test_equals_play_on_equal_terms():
    ann, bob = player("Ann"), player("Bob")
    hint = suggest("pyramid_free", [f"p:{ann.pk}", f"p:{bob.pk}"])
    assert hint.summary == "Evenly matched: no handicap."
    assert hint.settings["head_start"] == 0 and hint.label == "On equal terms"
    assert hint.chances.percents == (50, 50)


def test_by_the_pyramid_rating_shared_by_the_four_pyramid_games():
    ann, bob = player("Ann"), player("Bob")
    for i, variant in enumerate(["pyramid_free", "pyramid_combined", "pyramid_classic"] * 2):
        finished(
            variant,
            [(ann, "win", 8, {}), (bob, "loss", 3, {})],
            at=T0 + timedelta(hours=i),
        )
    hint = suggest("pyramid_dynamic", [f"p:{bob.pk}", f"p:{ann.pk}"])
    assert "6 rated games" in hint.reasons[0]
    assert hint.settings["weaker_seat"] == "0"  # Bob, seat 1, is the weaker
    assert 1 <= hint.settings["head_start"] <= 7
    assert hint.summary.startswith(f"8–{8 - hint.settings['head_start']}: Bob starts with")


def test_the_start_form_fragment_offers_it(marker_client):
    ann = player("Ann", skill_class="1")
    bob = player("Bob", skill_class="novice")
    response = marker_client.get(
        reverse("games:handicap_hint"),
        {"variant": "pyramid_combined", "seats": [f"p:{ann.pk}", f"p:{bob.pk}"]},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "8–6" in html  # three classes apart (the form's language: Russian)
    assert "s_head_start" in html and "s_weaker_seat" in html and "s_returned_pots" in html
    assert 'data-odds="handicap"' in html  # the odds it leaves, beside the frame's


def test_the_advice_reads_right_in_russian_for_any_number():
    """«начинает с 1 шарами» was the Russian for one ball."""
    ann = player("Анна", skill_class="1")
    bob = player("Борис", skill_class="2")  # one class below: one ball
    with translation.override("ru"):
        hint = suggest("pyramid_free", [f"p:{ann.pk}", f"p:{bob.pk}"])
        assert hint.summary == "8–7: Борис начинает с 1 шаром на полке."
        assert hint.label == "С форой 8–7"
        three = player("Вера", skill_class="novice")  # three classes below Анна
        hint = suggest("pyramid_combined", [f"p:{ann.pk}", f"p:{three.pk}"])
        assert hint.summary == "8–6: Вера начинает с 2 шарами на полке."
        classic = suggest("pyramid_classic", [f"p:{ann.pk}", f"p:{bob.pk}"])
        assert classic.summary == "Борис начинает с 9 очками."
        assert classic.label == "С форой 9 очков"
