"""Signing in with the desk's link: single use, 24 h, stored hashed, a password or 90 days on
that phone; the desk signs a player out everywhere; throttling covers players."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from me import services
from me.models import SignInLink
from tests.factories import PlayerFactory, UserFactory
from toolbox.roles import CASHIERS, MARKERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def cashier_client(client):
    client.force_login(UserFactory(username="cashier-user", groups=[CASHIERS]))
    return client


def issue(cashier_client, player):
    response = cashier_client.post(reverse("me:issue_link", args=[player.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    url = html.split("data-link-url>")[1].split("<")[0]
    assert "<svg" in html  # the QR code, on the desk's screen
    return url.replace("http://testserver", "")


def test_the_desk_issues_a_link_shown_once_and_stored_hashed(cashier_client):
    player = PlayerFactory(full_name="Ольга Волкова")
    path = issue(cashier_client, player)
    token = path.rstrip("/").rsplit("/", 1)[1]
    link = SignInLink.objects.get()
    assert link.token_hash == services.token_hash(token) and token not in link.token_hash
    assert timedelta(hours=23, minutes=59) < link.expires_at - timezone.now() <= timedelta(hours=24)
    # The access page afterwards does not show it again.
    page = cashier_client.get(reverse("me:access", args=[player.pk])).content.decode()
    assert token not in page


def test_a_player_chooses_a_password_and_lands_on_his_page(cashier_client):
    player = PlayerFactory(full_name="Ольга Волкова")
    path = issue(cashier_client, player)
    phone = Client()
    assert phone.get(path).status_code == 200
    response = phone.post(
        path, {"username": "olga", "password": "s3cret-cue-9", "password2": "s3cret-cue-9"}
    )
    assert response.status_code == 302 and response.url == reverse("me:home")
    player.refresh_from_db()
    assert player.user.username == "olga" and player.user.check_password("s3cret-cue-9")
    assert player.user.groups.filter(name="Players").exists()
    assert not player.user.is_staff
    assert phone.get(reverse("me:home")).status_code == 200
    assert phone.session.get_expiry_age() < 30 * 24 * 3600  # a session of the usual length
    # Used once: the same link again is refused (410), and nothing changes.
    again = Client().post(path, {"username": "x", "password": "another-pass-1"})
    assert again.status_code == 410 and "уже использована" in again.content.decode()


def test_stay_signed_in_for_90_days_without_a_password(cashier_client):
    player = PlayerFactory(full_name="Ольга Волкова")
    phone = Client()
    response = phone.post(issue(cashier_client, player), {"username": "olga", "op": "stay"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert not player.user.has_usable_password()
    assert phone.session.get_expiry_age() == 90 * 24 * 3600


def test_an_expired_or_unknown_link_is_refused_and_uses_nothing(cashier_client):
    player = PlayerFactory(full_name="Ольга Волкова")
    path = issue(cashier_client, player)
    SignInLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = Client().post(path, {"username": "olga", "op": "stay"})
    assert response.status_code == 410 and "истёк" in response.content.decode()
    assert User.objects.filter(username="olga").count() == 0
    assert Client().get("/me/join/not-a-token/").status_code == 404


def test_a_new_link_ends_the_old_one(cashier_client):
    player = PlayerFactory(full_name="Ольга Волкова")
    first = issue(cashier_client, player)
    issue(cashier_client, player)
    assert Client().get(first).status_code == 410


def test_bad_input_on_the_join_form_is_a_4xx_and_changes_nothing(cashier_client):
    player = PlayerFactory(full_name="Ольга Волкова")
    path = issue(cashier_client, player)
    for data in (
        {"username": "olga", "password": "123", "password2": "123"},  # too weak
        {"username": "olga", "password": "s3cret-cue-9", "password2": "other-9"},
        {"username": "bad name!", "password": "s3cret-cue-9", "password2": "s3cret-cue-9"},
        {"username": "olga"},  # neither a password nor "stay"
    ):
        assert Client().post(path, data).status_code == 400
    assert SignInLink.objects.get().used_at is None
    assert User.objects.filter(username__in=["olga", "bad name!"]).count() == 0


def test_the_desk_signs_a_player_out_on_every_phone(cashier_client, lena):
    phone = Client()
    phone.force_login(lena.user)
    assert phone.get(reverse("me:home")).status_code == 200
    response = cashier_client.post(reverse("me:sign_out", args=[lena.pk]))
    assert response.status_code == 302
    # The phone's session no longer holds: the page asks it to sign in.
    assert phone.get(reverse("me:home")).status_code == 302


def test_only_the_desk_issues_links(client, lena):
    marker = UserFactory(username="m", groups=[MARKERS])
    for user in (marker, lena.user):
        client.force_login(user)
        assert client.post(reverse("me:issue_link", args=[lena.pk])).status_code == 403
        assert client.get(reverse("me:access", args=[lena.pk])).status_code == 403
    assert SignInLink.objects.count() == 0


def test_login_throttling_covers_players(client, lena, settings):
    lena.user.set_password("right-pass-77")
    lena.user.save()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "lena", "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "lena", "password": "right-pass-77"})
    assert locked.status_code == 429


def test_the_desk_finds_a_player_by_name_for_his_link(cashier_client, lena):
    page = cashier_client.get(reverse("me:players"), {"q": "лен"}).content.decode()
    assert f'href="{reverse("me:access", args=[lena.pk])}"' in page
    by_phone = cashier_client.get(reverse("me:players"), {"q": "912"}).content.decode()
    assert "data-found" not in by_phone  # names only, never a phone
