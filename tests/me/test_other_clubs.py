"""His /me/ shows all his clubs (issue 32 item 3): at each club's address, his page there and,
in brief, what every other club of his has for him — read within that club, in its time zone."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from billing.models import Reservation
from clubs.current import using_club
from players.models import Membership
from tests.factories import GameFactory, TableFactory

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "sokol.example"


@pytest.fixture
def clubs(home_and_sokol):
    return home_and_sokol


def page_at(host, player):
    client = Client(HTTP_HOST=host)
    client.force_login(player.user)
    response = client.get("/me/")
    assert response.status_code == 200
    return response.content.decode()


def test_his_page_shows_what_his_other_club_has_for_him(clubs, lena):
    home, other = clubs
    Membership.everywhere.get_or_create(club=home, player=lena)
    assert "data-other-clubs" not in page_at(HOME, lena)  # one club of his: no such section
    Membership.everywhere.create(club=other, player=lena)
    starts = timezone.now().replace(microsecond=0) + timedelta(days=1)
    with using_club(other):
        table = TableFactory(number=7)
        Reservation.objects.create(
            table=table,
            name="Лена",
            phone="8 912 345 67 89",
            starts_at=starts,
            ends_at=starts + timedelta(hours=2),
        )
        GameFactory(table=TableFactory(number=3), seats=[lena, "Гость"])

    page = page_at(HOME, lena)
    assert "data-other-clubs" in page and "Сокол" in page and "Омск" in page
    assert f"http://{OTHER}/me/" in page
    assert "Игра за столом 3" in page
    # The booking at the time of Сокол's zone (Omsk), not of the page's club.
    local = starts.astimezone(ZoneInfo("Asia/Omsk"))
    assert local.strftime("%d.%m %H:%M") in page

    there = page_at(OTHER, lena)
    assert home.name in there.split("data-other-clubs", 1)[1]


def test_another_clubs_rows_stay_out_of_his_page_here(clubs, lena):
    _home, other = clubs
    Membership.everywhere.create(club=other, player=lena)
    with using_club(other):
        GameFactory(table=TableFactory(number=3), seats=[lena, "Гость"])
    page = page_at(HOME, lena)
    live = page.split("data-other-clubs", 1)[0]
    assert "Игра за столом 3" not in live
