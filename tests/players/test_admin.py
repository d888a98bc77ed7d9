"""Django admin for players, tables and games: columns, search, filters; games read-only."""

import pytest
from django.urls import reverse

from games.models import Event, Game, Seat
from players.models import Player
from tests.factories import PlayerFactory, TableFactory, UserFactory
from toolbox.roles import ADMINS

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    return client


@pytest.fixture
def game(db):
    game = Game.objects.create(table=TableFactory(number=1), variant="cork", last_seq=1)
    Seat.objects.create(game=game, position=0, player=PlayerFactory(full_name="Иван Петров"))
    Seat.objects.create(game=game, position=1, guest_name="Гость")
    Event.objects.create(game=game, seq=1, kind="stroke", payload={})
    return game


def test_player_changelist_searches_and_filters(superuser_client):
    PlayerFactory(full_name="Иван Петров", phone="+7 900 123-45-67")
    PlayerFactory(full_name="Пётр Сидоров", is_active=False)
    url = reverse("admin:players_player_changelist")
    html = superuser_client.get(url, {"q": "иван"}).content.decode()
    assert "Иван Петров" in html and "Пётр Сидоров" not in html
    html = superuser_client.get(url, {"is_active__exact": "0"}).content.decode()
    assert "Пётр Сидоров" in html and "Иван Петров" not in html


def test_admin_actions_deactivate_and_reactivate(superuser_client):
    player = PlayerFactory()
    url = reverse("admin:players_player_changelist")
    superuser_client.post(url, {"action": "deactivate", "_selected_action": [player.pk]})
    player.refresh_from_db()
    assert not player.is_active
    superuser_client.post(url, {"action": "reactivate", "_selected_action": [player.pk]})
    player.refresh_from_db()
    assert player.is_active


def test_admin_refuses_to_delete_a_player_who_played(superuser_client, game):
    player = Player.objects.get(full_name="Иван Петров")
    url = reverse("admin:players_player_delete", args=[player.pk])
    superuser_client.post(url, {"post": "yes"})
    assert Player.objects.filter(pk=player.pk).exists()


def test_table_changelist(superuser_client):
    TableFactory(number=3, name="У окна")
    html = superuser_client.get(reverse("admin:tables_table_changelist")).content.decode()
    assert "У окна" in html


def test_games_and_events_are_read_only(superuser_client, game):
    html = superuser_client.get(
        reverse("admin:games_game_changelist"), {"q": "Иван"}
    ).content.decode()
    assert reverse("admin:games_game_change", args=[game.pk]) in html
    assert superuser_client.get(reverse("admin:games_game_add")).status_code == 403
    assert superuser_client.get(reverse("admin:games_event_add")).status_code == 403
    change = superuser_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert change.status_code == 200 and "Гость" in change.content.decode()
    event = game.events.get()
    superuser_client.post(
        reverse("admin:games_event_change", args=[event.pk]), {"kind": "changed", "seq": 1}
    )
    superuser_client.post(reverse("admin:games_event_delete", args=[event.pk]), {"post": "yes"})
    event.refresh_from_db()
    assert event.kind == "stroke"


def test_club_admins_who_are_staff_can_use_the_admin(client, game):
    admin = UserFactory(username="boss", groups=[ADMINS])
    admin.is_staff = True
    admin.save()
    client.force_login(admin)
    assert client.get(reverse("admin:players_player_changelist")).status_code == 200
    assert client.get(reverse("admin:auth_user_changelist")).status_code == 200
    assert client.get(reverse("admin:games_game_changelist")).status_code == 200


@pytest.fixture
def staff_admin_client(client):
    admin = UserFactory(username="boss", groups=[ADMINS])
    admin.is_staff = True
    admin.save()
    client.force_login(admin)
    client.user = admin
    return client


def test_a_club_admin_cannot_make_himself_a_superuser(staff_admin_client):
    boss = staff_admin_client.user
    url = reverse("admin:auth_user_change", args=[boss.pk])
    html = staff_admin_client.get(url).content.decode()
    assert 'name="is_superuser"' not in html and 'name="user_permissions"' not in html
    assert 'name="groups"' not in html  # his own groups (Network admins…): a superuser's
    assert 'name="club_roles-0-group"' in html  # the club's roles are what he is there for
    data = {
        "username": "boss",
        "is_active": "on",
        "is_staff": "on",
        "is_superuser": "on",
        "groups": [],
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "club_roles-TOTAL_FORMS": "0",
        "club_roles-INITIAL_FORMS": "0",
    }
    response = staff_admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    boss.refresh_from_db()
    assert not boss.is_superuser


def test_a_club_admin_cannot_touch_a_superuser(staff_admin_client):
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    change = reverse("admin:auth_user_change", args=[root.pk])
    assert b'name="_save"' not in staff_admin_client.get(change).content  # view only
    assert staff_admin_client.post(change, {"username": "mine"}).status_code == 403
    for name in ("delete", "password_change"):
        url = reverse(f"admin:auth_user_{name}", args=[root.pk])
        assert staff_admin_client.get(url).status_code == 403, name
    response = staff_admin_client.post(
        reverse("admin:auth_user_password_change", args=[root.pk]),
        {"password1": "taken-over-1234", "password2": "taken-over-1234"},
    )
    assert response.status_code == 403
    root.refresh_from_db()
    assert root.username == "root" and root.check_password("pass-1234")


def test_a_superuser_still_grants_superuser(superuser_client):
    user = UserFactory(username="next-root")
    html = superuser_client.get(reverse("admin:auth_user_change", args=[user.pk])).content
    assert b'name="is_superuser"' in html


def test_the_admin_refuses_a_second_active_player_of_the_same_name(superuser_client):
    PlayerFactory(full_name="Иван Петров")
    response = superuser_client.post(
        reverse("admin:players_player_add"),
        {"full_name": "иван  ПЕТРОВ", "nickname": "", "skill_class": "novice", "is_active": "on"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "Активный игрок с такими ФИО и прозвищем уже есть." in response.content.decode()
    assert Player.objects.count() == 1
