"""Issue 12 item 5: the handicap advice is on the player page too, for every game that has
it (the pyramid games' head start among them), not only on the marker's start form."""

import pytest
from django.urls import reverse
from django.utils import translation

from players.models import Player

pytestmark = pytest.mark.django_db


def page(client, player, **asked):
    with translation.override("ru"):
        return client.get(reverse("players:detail", args=[player.pk]), asked)


def test_the_page_asks_which_game_and_against_whom(client):
    player = Player.objects.create(full_name="Андрей Сокол")
    other = Player.objects.create(full_name="Пётр Громов")
    html = page(client, player).content.decode()
    advice = html.split('id="handicap-advice"')[1].split("</section>")[0]
    assert f'<option value="{other.pk}">Пётр Громов</option>' in advice
    assert "Свободная пирамида" in advice and "Кладка шаров кием" in advice
    assert f'<option value="{player.pk}"' not in advice  # not against himself


def test_a_pyramid_head_start_by_sports_class(client):
    strong = Player.objects.create(full_name="Андрей Сокол", skill_class="cms")
    weak = Player.objects.create(full_name="Пётр Громов", skill_class="2")
    response = page(client, strong, game="pyramid_free", opponent=weak.pk)
    advice = response.content.decode().split('id="handicap-advice"')[1].split("</section>")[0]
    assert "8–" in advice and "Пётр Громов" in advice, advice


def test_only_the_advice_is_swapped_when_htmx_asks(client):
    strong = Player.objects.create(full_name="Андрей Сокол", skill_class="cms")
    weak = Player.objects.create(full_name="Пётр Громов", skill_class="2")
    with translation.override("ru"):
        response = client.get(
            reverse("players:detail", args=[strong.pk]),
            {"game": "pyramid_classic", "opponent": weak.pk},
            headers={"HX-Request": "true", "HX-Target": "handicap-advice"},
        )
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="records-section" id="handicap-advice">')
    assert "handicap-hint" in html and "<html" not in html


@pytest.mark.parametrize("asked", [{"opponent": "x"}, {"opponent": "999999", "game": "cork"}])
def test_a_wrong_question_is_answered_with_a_translated_error(client, asked):
    player = Player.objects.create(full_name="Андрей Сокол")
    response = page(client, player, **asked)
    assert response.status_code == 400
    assert "Выберите игру и игрока клуба." in response.content.decode()
