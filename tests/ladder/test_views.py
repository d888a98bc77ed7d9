"""The ladder's pages: anyone reads them; a player challenges and answers for himself only;
the desk sets the rules and the roster; a refused write says why and changes nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from ladder import selectors
from ladder.models import Challenge, ChallengeStatus, Ladder
from tests.factories import PlayerFactory
from tests.me.conftest import account

pytestmark = pytest.mark.django_db


@pytest.fixture
def lena_on_ladder(ladder, five, client):
    """Дарья (5th) with her own account, signed in."""
    darya = five[4]
    account(darya, "darya")
    client.force_login(darya.user)
    return darya


def test_anyone_reads_the_ladder_and_its_rules(client, ladder, five):
    page = client.get(reverse("ladder:detail", args=[ladder.pk])).content.decode()
    for person in five:
        assert person.display_name in page
    assert "data-challenge" not in page
    assert ladder.name in client.get(reverse("ladder:list")).content.decode()


def test_a_player_sees_whom_he_may_challenge_and_why_not(client, ladder, five, lena_on_ladder):
    page = client.get(reverse("ladder:detail", args=[ladder.pk])).content.decode()
    assert page.count("data-challenge>") == 2  # the two places above her (reach 2)
    assert page.count("data-why-not") == 2  # the top two: out of reach, said why


def test_a_challenge_out_of_reach_is_refused_with_its_reason(client, ladder, five, lena_on_ladder):
    url = reverse("ladder:challenge", args=[ladder.pk, five[0].pk])
    page = client.post(url, follow=True).content.decode()
    assert "message error" in page
    assert not Challenge.objects.exists()
    client.post(reverse("ladder:challenge", args=[ladder.pk, five[3].pk]))
    assert Challenge.objects.get().challenged == five[3]


def test_only_the_challenged_player_answers(client, ladder, five, lena_on_ladder):
    from ladder import services

    made = services.challenge(ladder=ladder, challenger=five[3], challenged=five[2])
    client.post(reverse("ladder:accept", args=[made.pk]))  # Дарья is not in it
    made.refresh_from_db()
    assert made.status == ChallengeStatus.OPEN


def test_the_desk_sets_the_rules_and_puts_players_on(admin_client, ladder, five):
    newcomer = PlayerFactory(full_name="Новый Игрок")
    admin_client.post(reverse("ladder:add_player", args=[ladder.pk]), {"player": newcomer.pk})
    assert selectors.order(ladder)[-1] == newcomer.pk
    admin_client.post(
        reverse("ladder:remove_player", args=[ladder.pk, five[0].pk]),
    )
    assert five[0].pk not in selectors.order(ladder)
    answer = admin_client.post(
        reverse("ladder:new"),
        {
            "name": "Лестница: динамичка",
            "variant": "pyramid_dynamic",
            "reach": "0",
            "accept_days": "3",
            "play_days": "7",
            "max_open": "1",
            "rematch_days": "14",
            "inactive_days": "30",
        },
    )
    assert answer.status_code == 200  # reach 0: the form says so
    assert Ladder.objects.count() == 1


@pytest.mark.parametrize("name", ["ladder:new", "ladder:edit"])
def test_the_rules_are_the_desks(marker_client, ladder, name):
    args = [ladder.pk] if name == "ladder:edit" else []
    assert Client().get(reverse(name, args=args)).status_code == 302  # to the login
    assert marker_client.get(reverse(name, args=args)).status_code == 403


def test_a_player_without_an_account_cannot_post(client, ladder, five):
    answer = client.post(reverse("ladder:challenge", args=[ladder.pk, five[0].pk]))
    assert answer.status_code == 302 and not Challenge.objects.exists()
