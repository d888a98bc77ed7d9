"""The one status line of every pushed screen ({% screen_status %}, live/status.html): the
table board, the wall, the tournament board and the marker's console each carry it once,
with the heartbeat it judges lateness by, the club's time zone and the texts in Russian."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from live import streams
from tests.factories import start
from tests.tournaments.test_tournaments import make_tournament

pytestmark = pytest.mark.django_db


def the_status(html):
    found = re.findall(r"<p class=\"screen-status[^>]*>", html)
    assert len(found) == 1, found
    return found[0]


def test_every_pushed_screen_carries_the_status_once(marker_client, table, marker_user):
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    tournament, _players = make_tournament(n=4)
    pages = [
        "/tables/3/board/",
        "/board/",
        reverse("tournaments:board", args=[tournament.pk]),
        reverse("games:console", args=[game.pk]),
    ]
    for url in pages:
        html = marker_client.get(url).content.decode()
        status = the_status(html)
        assert f'data-heartbeat="{streams.HEARTBEAT_SECONDS}"' in status
        assert 'data-time-zone="Europe/Moscow"' in status
        assert "Нет обновлений {n} с" in status and "Последнее обновление в {time}" in status
        assert "js/screen-status.js" in html
        assert re.search(r"data-last-update>\d\d:\d\d:\d\d<", html)
        assert "Онлайн" in html and "Переподключение…" in html


def test_the_status_speaks_english_too(table):
    client = Client(headers={"Accept-Language": "en"})
    html = client.get("/tables/3/board/", headers={"Accept-Language": "en"}).content.decode()
    assert "No update for {n} s" in the_status(html) and ">Live<" in html
