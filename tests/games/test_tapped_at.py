"""A stroke kept on the phone while the Wi-Fi was down keeps the moment it was tapped
(issue 31, D6): the outbox posts ``tapped_at`` with it; the game's log shows that moment,
and when it landed beside it. A ``tapped_at`` that is not a number is refused, nothing
written."""

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Event
from tests.factories import start
from tests.helpers import HX

pytestmark = pytest.mark.django_db


def post_stroke(client, game, seq, **extra):
    return client.post(
        reverse("games:record", args=[game.pk]),
        {"seq": seq, "kind": "stroke", **extra},
        headers=HX,
    )


@pytest.fixture
def game(table, players, marker_user):
    return start(table, "cork", players[:3], marker_user)


def test_a_stroke_sent_later_keeps_when_it_was_tapped(game, marker_client):
    tapped = time.time() - 95
    assert post_stroke(marker_client, game, 0, tapped_at=str(int(tapped * 1000))).status_code == 200
    event = Event.objects.get(game=game, seq=1)
    assert abs(event.tapped_at.timestamp() - tapped) < 0.01
    assert (event.recorded_at - event.tapped_at).total_seconds() > 90

    page = marker_client.get(reverse("games:detail", args=[game.pk]))
    shown = timezone.localtime(event.tapped_at).strftime("%H:%M:%S")
    landed = timezone.localtime(event.recorded_at).strftime("%H:%M:%S")
    assert shown in page.text
    assert f"отправлен в {landed}" in page.text or f"sent {landed}" in page.text


def test_a_stroke_posted_as_it_was_tapped_has_no_second_moment(game, marker_client):
    assert post_stroke(marker_client, game, 0).status_code == 200
    assert Event.objects.get(game=game, seq=1).tapped_at is None
    # A phone whose clock is ahead of the server's: the stroke is not in the future.
    ahead = str(int((time.time() + 3600) * 1000))
    assert post_stroke(marker_client, game, 1, tapped_at=ahead).status_code == 200
    assert Event.objects.get(game=game, seq=2).tapped_at is None
    page = marker_client.get(reverse("games:detail", args=[game.pk]))
    assert "data-landed" not in page.text


@pytest.mark.parametrize("bad", ["soon", "-5", "1.5e12", " 17000", "9" * 16])
def test_a_tapped_at_that_is_not_a_moment_is_refused(game, marker_client, bad):
    response = post_stroke(marker_client, game, 0, tapped_at=bad)
    assert response.status_code == 400
    assert not Event.objects.filter(game=game).exists()


def test_an_undo_sent_later_keeps_its_moment_too(game, marker_client):
    post_stroke(marker_client, game, 0)
    tapped = time.time() - 30
    response = marker_client.post(
        reverse("games:undo", args=[game.pk]),
        {"seq": 1, "tapped_at": str(int(tapped * 1000))},
        headers=HX,
    )
    assert response.status_code == 200
    assert abs(Event.objects.get(game=game, seq=2).tapped_at.timestamp() - tapped) < 0.01


def test_tapped_moment_is_never_after_now():
    now = timezone.now()
    earlier = now - timedelta(minutes=3)
    assert services.tapped_moment(int(earlier.timestamp() * 1000), now) == earlier.replace(
        microsecond=earlier.microsecond // 1000 * 1000
    )
    assert services.tapped_moment(int(now.timestamp() * 1000) + 5000, now) is None
