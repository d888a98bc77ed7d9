"""The records are public and read-only: everyone may GET them, nobody may POST."""

import pytest
from django.urls import reverse

from tests.factories import cork_stats, finished, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def urls():
    ann, bob = player("Ann"), player("Bob")
    game = finished(
        "cork",
        [(ann, "win", 100, cork_stats()), (bob, "loss", 1, cork_stats())],
        settings={"players": 2, "target": 100},
    )
    return [
        reverse("games:detail", args=[game.pk]),
        reverse("players:detail", args=[ann.pk]),
        reverse("games:leaderboard"),
        reverse("games:games_csv"),
        reverse("games:stats_csv"),
    ]


@pytest.fixture
def hint_url():
    ann, bob = player("Ann"), player("Bob")
    return reverse("games:handicap_hint") + f"?variant=cue_run&seats=p:{ann.pk}&seats=p:{bob.pk}"


def test_the_handicap_hint_is_for_markers(client, hint_url, plain_user, marker_user, admin_user):
    """Part of the marker's start form: spectators are sent to log in or refused."""
    response = client.get(hint_url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(plain_user)
    assert client.get(hint_url).status_code == 403
    for user in (marker_user, admin_user):
        client.force_login(user)
        assert client.get(hint_url).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "plain", "marker", "admin"])
def test_everyone_reads(client, urls, who, plain_user, marker_user, admin_user):
    user = {"plain": plain_user, "marker": marker_user, "admin": admin_user}.get(who)
    if user:
        client.force_login(user)
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_nobody_writes(client, urls, admin_user):
    client.force_login(admin_user)
    for url in urls:
        assert client.post(url).status_code == 405, url


def test_pages_show_no_private_details(client):
    ann = player("Ann", phone="+7 912 345-67-89", email="ann@example.com", notes="owes 500")
    html = client.get(reverse("players:detail", args=[ann.pk])).content.decode()
    assert "912" not in html and "ann@example.com" not in html and "owes" not in html
