import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games.models import Game, Seat
from players.models import Player
from tests.factories import PlayerFactory, TableFactory

pytestmark = pytest.mark.django_db


def ru(text):
    with translation.override("ru"):
        return gettext(text)


@pytest.fixture
def player(db):
    return PlayerFactory(full_name="Иван Петров", nickname="Ваня")


def page_urls(player):
    return [
        reverse("players:list"),
        reverse("players:create"),
        reverse("players:edit", args=[player.pk]),
        reverse("players:export"),
        reverse("players:import"),
    ]


def post_urls(player):
    return [
        reverse("players:deactivate", args=[player.pk]),
        reverse("players:reactivate", args=[player.pk]),
        reverse("players:delete", args=[player.pk]),
        reverse("players:import_confirm"),
    ]


def test_anonymous_visitors_are_sent_to_log_in(client, player):
    for url in page_urls(player) + post_urls(player):
        response = client.post(url) if url in post_urls(player) else client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login") + "?next="), url


@pytest.mark.parametrize("who", ["plain_user", "marker_user"])
def test_staff_without_the_roster_role_are_refused(client, player, who, request):
    client.force_login(request.getfixturevalue(who))
    for url in page_urls(player):
        response = client.get(url)
        assert response.status_code == 403, url
        assert ru("Access denied") in response.content.decode(), url
    for url in post_urls(player):
        assert client.post(url).status_code == 403, url
    player.refresh_from_db()
    assert player.is_active


def test_admins_see_every_roster_page(admin_client, player):
    for url in page_urls(player):
        assert admin_client.get(url).status_code == 200, url


def test_actions_are_post_only(admin_client, player):
    for url in post_urls(player):
        assert admin_client.get(url).status_code == 405, url


def test_posts_need_the_csrf_token(admin_user, player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin_user)
    response = client.post(reverse("players:deactivate", args=[player.pk]))
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.is_active


def test_list_page_has_live_search(admin_client, player):
    html = admin_client.get(reverse("players:list")).content.decode()
    assert "<html" in html
    assert 'hx-trigger="input changed delay:250ms' in html
    assert f'hx-get="{reverse("players:list")}"' in html
    assert 'id="player-results"' in html
    assert "Иван Петров" in html


def test_htmx_search_returns_only_the_results(admin_client, player):
    PlayerFactory(full_name="Пётр Сидоров")
    response = admin_client.get(
        reverse("players:list"), {"q": "иван"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<div id="player-results"')
    assert "Иван Петров" in html
    assert "Пётр Сидоров" not in html


def test_history_restore_gets_the_full_page(admin_client, player):
    response = admin_client.get(
        reverse("players:list"),
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.content.decode()


def test_list_filters_active_and_inactive(admin_client, player):
    PlayerFactory(full_name="Ушедший Игрок", is_active=False)
    url = reverse("players:list")
    assert "Ушедший" not in admin_client.get(url).content.decode()
    inactive = admin_client.get(url, {"status": "inactive"}).content.decode()
    assert "Ушедший" in inactive and "Иван Петров" not in inactive
    everyone = admin_client.get(url, {"status": "all"}).content.decode()
    assert "Ушедший" in everyone and "Иван Петров" in everyone


def test_create_a_player(admin_client):
    response = admin_client.post(
        reverse("players:create"),
        {
            "full_name": " Олег  Орлов ",
            "nickname": "",
            "phone": "+7 900 123-45-67",
            "email": "oleg@example.ru",
            "skill_class": "2",
            "notes": "",
        },
    )
    assert response.status_code == 302
    player = Player.objects.get()
    assert (player.full_name, player.skill_class, player.is_active) == ("Олег Орлов", "2", True)


@pytest.mark.parametrize(
    "field, value",
    [
        ("full_name", ""),
        ("phone", "123"),
        ("email", "not-an-email"),
        ("skill_class", "grandmaster"),
        ("notes", "x" * 2001),  # notes are limited to 2,000 characters
    ],
)
def test_bad_input_is_shown_inline_and_nothing_saved(admin_client, field, value):
    data = {"full_name": "Олег Орлов", "phone": "", "email": "", "skill_class": "novice"}
    data[field] = value
    response = admin_client.post(reverse("players:create"), data)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    html = response.content.decode()
    assert 'class="errorlist' in html and 'aria-invalid="true"' in html
    assert not Player.objects.exists()


def test_the_unique_active_name_is_a_form_error(admin_client, player):
    response = admin_client.post(
        reverse("players:create"),
        {"full_name": "Иван Петров", "nickname": "Ваня", "skill_class": "novice"},
    )
    assert response.status_code == 200
    message = ru("An active player with this full name and nickname already exists.")
    assert message in response.content.decode()
    assert Player.objects.count() == 1


def test_the_same_name_in_another_case_is_the_same_form_error(admin_client, player):
    response = admin_client.post(
        reverse("players:create"),
        {"full_name": "ИВАН петров", "nickname": "ваня", "skill_class": "novice"},
    )
    message = ru("An active player with this full name and nickname already exists.")
    assert message in response.content.decode()
    assert Player.objects.count() == 1


def test_edit_a_player(admin_client, player):
    url = reverse("players:edit", args=[player.pk])
    assert "Ваня" in admin_client.get(url).content.decode()
    response = admin_client.post(
        url, {"full_name": "Иван Петров", "nickname": "Иваныч", "skill_class": "1"}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.nickname, player.skill_class) == ("Иваныч", "1")


def test_edit_with_bad_input_changes_nothing(admin_client, player):
    response = admin_client.post(
        reverse("players:edit", args=[player.pk]),
        {"full_name": "Иван Петров", "nickname": "Иваныч", "skill_class": "1", "email": "x@"},
    )
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.nickname == "Ваня"


def test_deactivate_and_reactivate(admin_client, player):
    admin_client.post(reverse("players:deactivate", args=[player.pk]))
    player.refresh_from_db()
    assert not player.is_active
    response = admin_client.post(reverse("players:reactivate", args=[player.pk]), follow=True)
    player.refresh_from_db()
    assert player.is_active
    assert response.redirect_chain[-1][0] == reverse("players:list")


def test_deactivate_returns_to_the_given_page_but_never_off_site(admin_client, player):
    url = reverse("players:deactivate", args=[player.pk])
    back = reverse("players:list") + "?status=all"
    assert admin_client.post(url, {"next": back})["Location"] == back
    reactivate = reverse("players:reactivate", args=[player.pk])
    response = admin_client.post(reactivate, {"next": "https://evil.example/"})
    assert response["Location"] == reverse("players:list")


def test_reactivation_conflict_is_reported_and_changes_nothing(admin_client, player):
    twin = PlayerFactory(full_name="Иван Петров", nickname="Ваня", is_active=False)
    response = admin_client.post(reverse("players:reactivate", args=[twin.pk]), follow=True)
    message = ru("An active player with this full name and nickname already exists.")
    assert message in response.content.decode()
    twin.refresh_from_db()
    assert not twin.is_active


def test_delete_is_offered_and_done_only_for_players_who_never_played(admin_client, player):
    veteran = PlayerFactory(full_name="Старый Игрок")
    game = Game.objects.create(table=TableFactory(), variant="cork")
    Seat.objects.create(game=game, position=0, player=veteran)

    edit_veteran = admin_client.get(reverse("players:edit", args=[veteran.pk])).content.decode()
    assert reverse("players:delete", args=[veteran.pk]) not in edit_veteran
    assert reverse("players:deactivate", args=[veteran.pk]) in edit_veteran
    admin_client.post(reverse("players:delete", args=[veteran.pk]))
    assert Player.objects.filter(pk=veteran.pk).exists()

    edit_new = admin_client.get(reverse("players:edit", args=[player.pk])).content.decode()
    assert reverse("players:delete", args=[player.pk]) in edit_new
    admin_client.post(reverse("players:delete", args=[player.pk]))
    assert not Player.objects.filter(pk=player.pk).exists()


def test_unknown_player_is_404(admin_client):
    response = admin_client.get(reverse("players:edit", args=[999]))
    assert response.status_code == 404


def test_an_unknown_status_filter_keeps_the_search(admin_client, player):
    PlayerFactory(full_name="Пётр Сидоров")
    html = admin_client.get(reverse("players:list"), {"q": "иван", "status": "bogus"}).content
    assert "Иван Петров" in html.decode() and "Пётр Сидоров" not in html.decode()
