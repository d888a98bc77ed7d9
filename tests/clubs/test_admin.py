"""The clubs in the Django admin: the network admins', host names as one line; a club's own
admin manages its staff, not the clubs (issue 32)."""

import pytest
from django.test import Client

from clubs.models import Club
from tests.factories import UserFactory
from toolbox.roles import ADMINS, NETWORK_ADMINS

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    """An admin of the network (the Network admins group, may open the Django admin)."""
    client.force_login(
        UserFactory(username="network-admin", is_staff=True, groups=[NETWORK_ADMINS])
    )
    return client


def test_an_admin_adds_a_club_with_its_hosts(admin_client, first_club):
    first_club.hosts = ["testserver"]  # the admin's own address stays the first club's
    first_club.save()
    response = admin_client.post(
        "/admin/clubs/club/add/",
        {
            "name": "Нева",
            "slug": "neva",
            "hosts": "Neva.example, www.neva.example:8000",
            "time_zone": "Europe/Moscow",
            "city": "Санкт-Петербург",
            "address": "",
        },
    )
    assert response.status_code == 302, response.text
    assert Club.objects.get(slug="neva").hosts == ["neva.example", "www.neva.example"]
    page = admin_client.get("/admin/clubs/club/").text
    assert "neva.example, www.neva.example" in page


def test_a_second_club_waits_for_the_first_ones_hosts(admin_client, first_club):
    response = admin_client.post(
        "/admin/clubs/club/add/",
        {"name": "Нева", "slug": "neva", "hosts": "neva.example", "time_zone": "UTC"},
    )
    assert response.status_code == 200
    assert f"Сначала укажите адреса «{first_club.name}»" in response.text
    assert Club.objects.count() == 1


def test_the_admin_refuses_a_taken_host_and_an_unknown_zone(admin_client, first_club):
    first_club.hosts = ["testserver"]
    first_club.save()
    Club.objects.create(name="Нева", slug="neva", hosts=["neva.example"], time_zone="UTC")
    response = admin_client.post(
        "/admin/clubs/club/add/",
        {"name": "Нева-2", "slug": "neva-2", "hosts": "NEVA.example", "time_zone": "Mars/Base"},
    )
    assert response.status_code == 200
    assert "Другой клуб уже отвечает на neva.example" in response.text
    assert "Неизвестный часовой пояс Mars/Base" in response.text
    assert Club.objects.filter(slug="neva-2").count() == 0


def test_a_marker_may_not_see_the_clubs(client):
    client.force_login(UserFactory(username="staff-marker", is_staff=True, groups=["Markers"]))
    assert client.get("/admin/clubs/club/").status_code == 403


def test_a_clubs_admin_may_not_manage_the_clubs_nor_see_their_money(admin_client):
    """The club's Admins manage its staff, not the network's clubs; the network's admin
    manages the clubs and sees no club's money unless also its staff."""
    client = Client()
    client.force_login(UserFactory(username="club-admin", is_staff=True, groups=[ADMINS]))
    assert client.get("/admin/clubs/club/").status_code == 403
    assert client.get("/admin/clubs/staffrole/").status_code == 200
    assert admin_client.get("/admin/clubs/club/").status_code == 200
    for money in ("/admin/billing/auditentry/", "/admin/fiscal/fiscaltask/", "/billing/desk/"):
        assert admin_client.get(money).status_code in (302, 403, 404), money
