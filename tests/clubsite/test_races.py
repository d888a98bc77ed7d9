"""Races answer 4xx (issue 27 item 3): every constraint a user can race is hammered with 20
concurrent posts — each from its own browser session and database connection, released at
the same instant — and every answer is a 2xx/3xx (the one that won) or a 4xx with the
constraint's message; exactly one write lands. PostgreSQL only: SQLite takes one writer at
a time, so nothing races there."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from billing.models import Reservation, Shift, TableSession
from games import services
from games.models import Event, Game
from tables.models import Table
from tests.factories import PlayerFactory, TableFactory, UserFactory
from tests.helpers import HX, start_form_data
from toolbox.roles import ADMINS
from tournaments.models import Entrant, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's races"),
]
POSTS = 20


def hammer(user, url, data, headers=None):
    """``POSTS`` posts of ``data`` to ``url`` by ``user``, from as many sessions at once:
    their status codes, and the reasons of the refused (X-Refusal or the page)."""
    clients = []
    for _ in range(POSTS):
        client = Client()
        client.force_login(user)
        clients.append(client)
    barrier = threading.Barrier(POSTS)
    answers = [None] * POSTS

    def post(index):
        try:
            barrier.wait(timeout=30)
            response = clients[index].post(url, data, headers=headers or {})
            answers[index] = (response.status_code, response.content.decode())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(index,)) for index in range(POSTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert None not in answers, "a post did not answer"
    server_errors = [status for status, _ in answers if status >= 500]
    assert not server_errors, f"{len(server_errors)} × {server_errors[0]}"
    return answers


@pytest.fixture
def boss(db):
    return UserFactory(username="race-admin", groups=[ADMINS])


def refused(answers, message):
    """Every answer but the winner's redirect (a 4xx, or the form again) says ``message``."""
    bodies = [body for status, body in answers if status not in (301, 302)]
    assert bodies, "nobody lost the race"
    assert all(message in body for body in bodies), message
    return len(bodies)


def test_twenty_cashiers_opening_the_shift(boss):
    answers = hammer(boss, reverse("billing:shift"), {"op": "open", "opening_cash": "5000"})
    assert Shift.objects.filter(is_open=True).count() == 1
    assert refused(answers, "Смена уже открыта.") == POSTS - 1


def test_twenty_cashiers_closing_it(boss):
    Shift.objects.create(opened_by=boss, opening_cash=500_000)
    answers = hammer(boss, reverse("billing:shift"), {"op": "close", "counted_cash": "5000"})
    assert Shift.objects.filter(is_open=False).count() == 1
    assert [status for status, _ in answers].count(302) == 1  # the others: already closed
    assert all(status in (302, 400) for status, _ in answers)


def test_twenty_starts_of_one_table_clock(boss):
    TableFactory(number=4)
    hammer(boss, reverse("billing:start", args=[4]), {})
    assert TableSession.objects.count() == 1


def test_twenty_admins_adding_table_nine(boss):
    data = {"number": "9", "name": "Новый", "kind": "pyramid_12"}
    answers = hammer(boss, reverse("tables:create"), data)
    assert Table.objects.filter(number=9).count() == 1
    refused(answers, "Стол с таким номером уже есть.")


def test_twenty_markers_starting_a_game_on_one_table(boss):
    table = TableFactory(number=5)
    data = start_form_data(table, "cork", ["Гость Один", "Гость Два"])
    hammer(boss, reverse("games:table", args=[5]), data, headers=HX)
    assert Game.objects.filter(table=table).count() == 1


def test_twenty_taps_of_one_stroke(boss):
    table = TableFactory(number=6)
    game = services.start_game(
        table=table, variant="cork", settings={}, seats=["Аня", "Боря"], marker=boss
    )
    data = {"seq": game.last_seq, "kind": "score"}
    hammer(boss, reverse("games:record", args=[game.pk]), data, headers=HX)
    assert Event.objects.filter(game=game).count() == 1


def test_twenty_entries_of_one_player(boss):
    tournament = Tournament.objects.create(name="Кубок гонки", variant="cork", date="2026-12-04")
    player = PlayerFactory()
    hammer(boss, reverse("tournaments:add_entrant", args=[tournament.pk]), {"player": player.pk})
    assert Entrant.objects.filter(tournament=tournament).count() == 1


def test_twenty_bookings_of_one_hour(boss):
    table = TableFactory(number=7)
    start = (datetime.now(UTC) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    data = {"table": table.pk, "name": "Сергей", "phone": "+7 912 345-67-89", "minutes": "60"}
    hammer(boss, reverse("billing:bookings"), data | {"starts_at": start})
    assert Reservation.objects.count() == 1
