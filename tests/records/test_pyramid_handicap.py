"""Handicap advice for the pyramid games: the weaker player's head start ("8–7", "8–6" in
balls; points in the classic game), from the family rating or the sports classes."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from records.handicap import pyramid_head_start, suggest
from tests.factories import T0, finished, player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("expected", "target", "head_start"),
    [
        (0.5, 8, 0),  # evenly matched
        (0.64, 8, 2),  # a 100-point gap: "8–6"
        (0.6, 8, 2),
        (0.55, 8, 1),  # "8–7"
        (0.99, 8, 7),  # never the whole frame
        (0.64, 71, 20),  # points in the classic game
    ],
)
def test_the_head_start_formula(expected, target, head_start):
    assert pyramid_head_start(expected, target) == head_start


def test_by_sports_class_one_ball_a_class():
    ann = player("Ann", skill_class="2")
    bob = player("Bob", skill_class="novice")  # two classes below
    hint = suggest("pyramid_free", [f"p:{ann.pk}", f"p:{bob.pk}"])
    assert hint.summary == "8–6: Bob starts with 2 balls on the shelf."
    assert hint.settings == {"weaker_seat": "1", "head_start": 2}
    classic = suggest("pyramid_classic", [f"p:{bob.pk}", f"p:{ann.pk}"])
    assert classic.summary == "Bob starts with 18 points."  # 2 classes × 71 / 8
    assert classic.settings == {"weaker_seat": "0", "head_start": 18}


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
    assert "8–5" in html  # three classes apart (the form's language: Russian)
    assert "s_head_start" in html and "s_weaker_seat" in html


def test_the_advice_reads_right_in_russian_for_any_number():
    """«начинает с 1 шарами» was the Russian for one ball."""
    ann = player("Анна", skill_class="1")
    bob = player("Борис", skill_class="2")  # one class below: one ball
    with translation.override("ru"):
        hint = suggest("pyramid_free", [f"p:{ann.pk}", f"p:{bob.pk}"])
        assert hint.summary == "8–7: Борис начинает с 1 шаром на полке."
        three = player("Вера", skill_class="novice")  # three classes below Анна
        hint = suggest("pyramid_combined", [f"p:{ann.pk}", f"p:{three.pk}"])
        assert hint.summary == "8–5: Вера начинает с 3 шарами на полке."
        classic = suggest("pyramid_classic", [f"p:{ann.pk}", f"p:{bob.pk}"])
        assert classic.summary == "Борис начинает с 9 очками."
