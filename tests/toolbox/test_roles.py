import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from clubs.staff import revoke
from tests.factories import UserFactory
from toolbox.roles import (
    ADMINS,
    CASHIERS,
    MARKERS,
    can_manage_roster,
    can_record_games,
    ensure_roles,
    has_role_permission,
    marker_required,
    roster_admin_required,
)

pytestmark = pytest.mark.django_db


def permission_names(group_name):
    group = Group.objects.get(name=group_name)
    return {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}


def test_migrate_creates_both_groups():
    assert set(Group.objects.values_list("name", flat=True)) >= {ADMINS, MARKERS}


def test_ensure_roles_is_idempotent():
    ensure_roles()
    ensure_roles()
    assert Group.objects.filter(name__in=[ADMINS, MARKERS]).count() == 2
    assert permission_names(MARKERS) == {"games.record_game"}


def test_admins_manage_players_tables_and_users_and_may_record():
    perms = permission_names(ADMINS)
    for perm in [
        "players.add_player",
        "players.change_player",
        "tables.change_table",
        "auth.add_user",
        "auth.change_user",
        "games.record_game",
        "games.view_game",
    ]:
        assert perm in perms
    assert "games.change_event" not in perms


def test_role_checks():
    admin = UserFactory(groups=[ADMINS])
    marker = UserFactory(groups=[MARKERS])
    plain = UserFactory()
    anonymous = AnonymousUser()
    assert [can_manage_roster(u) for u in (admin, marker, plain, anonymous)] == [
        True,
        False,
        False,
        False,
    ]
    assert [can_record_games(u) for u in (admin, marker, plain, anonymous)] == [
        True,
        True,
        False,
        False,
    ]


def test_the_one_query_check_agrees_with_djangos_has_perm(django_assert_num_queries):
    from django.contrib.auth.models import Permission

    direct = UserFactory()
    direct.user_permissions.add(Permission.objects.get(codename="record_game"))
    users = [
        UserFactory(groups=[ADMINS]),
        UserFactory(groups=[MARKERS]),
        direct,
        UserFactory(groups=[MARKERS], is_active=False),
        UserFactory(is_superuser=True),
        UserFactory(is_superuser=True, is_active=False),
        UserFactory(),
        AnonymousUser(),
    ]
    for perm in ("games.record_game", "players.change_player", "games.no_such_thing"):
        answers = [has_role_permission(user, perm) for user in users]
        assert answers == [user.has_perm(perm) for user in users], perm
    expected = [True, True, True, False, True, False, False, False]
    assert [has_role_permission(u, "games.record_game") for u in users] == expected
    marker = UserFactory(groups=[MARKERS])
    # Django's two (his permissions, his groups' at the club), then remembered on the user.
    with django_assert_num_queries(2):
        assert has_role_permission(marker, "games.record_game")
        assert has_role_permission(marker, "games.record_game")


@pytest.mark.parametrize(
    "decorator, allowed",
    [(marker_required, {"admin", "marker"}), (roster_admin_required, {"admin"})],
)
def test_decorators(decorator, allowed):
    users = {
        "admin": UserFactory(groups=[ADMINS]),
        "marker": UserFactory(groups=[MARKERS]),
        "plain": UserFactory(),
    }
    view = decorator(lambda request: HttpResponse("ok"))
    request = RequestFactory().get("/somewhere/?x=1")
    request.user = AnonymousUser()
    response = view(request)
    assert response.status_code == 302
    assert response["Location"] == reverse("login") + "?next=/somewhere/%3Fx%3D1"
    for name, user in users.items():
        request.user = user
        if name in allowed:
            assert view(request).status_code == 200, name
        else:
            with pytest.raises(PermissionDenied):
                view(request)


def test_an_htmx_request_after_the_session_ended_sends_the_page_to_the_login(client):
    response = client.post(
        "/marker/games/1/record/",
        {"seq": 0, "kind": "stroke"},
        headers={"HX-Request": "true", "HX-Current-URL": "http://testserver/marker/games/1/"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("login") + "?next=/marker/games/1/"


def test_the_403_page_is_friendly_and_in_the_site_style(client):
    client.force_login(UserFactory(username="zritel"))
    response = client.get(reverse("players:list"))
    assert response.status_code == 403
    html = response.content.decode()
    assert 'class="site-header"' in html and "zritel" in html
    assert "Доступ запрещён" in html


def test_the_404_page_is_in_the_site_style(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'class="site-header"' in html and "Страница не найдена" in html


def test_the_500_page_renders_without_a_request_context():
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Ошибка сервера" in html and 'href="/"' in html


# --- the user read with his roles (issue 23 item 6: a tap's permission check, no query) ----


def test_the_role_backend_reads_the_user_with_his_roles_in_one_query(django_assert_num_queries):
    from django.contrib.auth.models import Permission

    from clubs.staff import ClubRoleBackend
    from toolbox.roles import ROLE_PERMISSIONS

    direct = UserFactory()
    direct.user_permissions.add(Permission.objects.get(codename="record_game"))
    users = [
        UserFactory(groups=[ADMINS]),
        UserFactory(groups=[MARKERS]),
        direct,
        UserFactory(groups=[MARKERS, ADMINS]),
        UserFactory(),
    ]
    backend = ClubRoleBackend()
    for user in users:
        with django_assert_num_queries(1):
            read = backend.get_user(str(user.pk))  # the session keeps the pk as text
            answers = [has_role_permission(read, perm) for perm in ROLE_PERMISSIONS]
        fresh = type(user).objects.get(pk=user.pk)
        assert answers == [fresh.has_perm(perm) for perm in ROLE_PERMISSIONS], user
        assert read == user
    inactive = UserFactory(groups=[MARKERS], is_active=False)
    assert backend.get_user(str(inactive.pk)) is None
    assert backend.get_user("999999") is None
    assert backend.get_user("not a number") is None


def test_a_role_taken_away_counts_at_the_next_request(client):
    marker = UserFactory(groups=[MARKERS])
    client.force_login(marker)
    assert client.get(reverse("games:start")).status_code == 200
    revoke(marker, MARKERS)
    assert client.get(reverse("games:start")).status_code == 403


def test_a_club_role_held_as_a_django_group_gives_nothing(client):
    """Club roles are per club (issue 32): the Markers group of a user's own groups is no
    club's marker (the migration moved the old ones to the first club)."""
    marker = UserFactory()
    marker.groups.add(Group.objects.get(name=MARKERS))
    client.force_login(marker)
    assert client.get(reverse("games:start")).status_code == 403


def test_a_session_signed_in_through_an_older_backend_signs_in_again(client):
    marker = UserFactory(groups=[MARKERS])
    client.force_login(marker, backend="django.contrib.auth.backends.ModelBackend")
    response = client.get(reverse("games:start"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_a_wrong_password_is_checked_once(monkeypatch):
    """A wrong password is hashed by the club role backend only, once."""
    from django.contrib.auth import authenticate
    from django.contrib.auth.backends import ModelBackend

    user = UserFactory(groups=[MARKERS])
    user.set_password("right-one")
    user.save()
    checks = []
    original = ModelBackend.authenticate

    def counted(self, *args, **kwargs):
        checks.append(type(self).__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counted)
    request = RequestFactory().post("/accounts/login/")
    assert authenticate(request, username=user.username, password="wrong") is None
    assert checks == ["ClubRoleBackend"]
    assert authenticate(request, username=user.username, password="right-one") == user


def test_the_admins_hold_every_permission_of_the_markers_and_the_cashiers():
    """What the crawls of an admin reach covers the marker's and the cashier's pages."""
    ensure_roles()
    assert permission_names(MARKERS) | permission_names(CASHIERS) <= permission_names(ADMINS)
