"""The protocol for a federation (issue 34 item 4): a finished tournament's places, classes,
records and class norms, on a page printed on A4 and as CSV."""

import csv
import io

import pytest
from django.urls import reverse

from clubs.current import working_club
from players.models import Player
from tournaments import protocol, selectors, services
from tournaments.models import TournamentStatus

from .test_tournaments import make_tournament, play_match


def test_a_shared_place_meets_a_norm_by_its_best_place():
    norms = [(1, 1, "ms"), (1, 4, "cms"), (5, 16, "1"), (7, 16, "2")]
    assert protocol.norm_met((1, 1), norms) == "ms"  # the highest of those met
    assert protocol.norm_met((3, 4), norms) == "cms"
    assert protocol.norm_met((5, 8), norms) == "1"
    assert protocol.norm_met((5, 8), [(7, 16, "2")]) == ""  # 5–8 finished ahead of the 7th
    assert protocol.norm_met((9, 16), [(7, 16, "2")]) == "2"
    assert protocol.norm_met((17, 32), norms) == "" and protocol.norm_met((1, 1), []) == ""


def test_providers_are_asked_once_each_and_bad_norms_left_out(monkeypatch):
    monkeypatch.setattr(protocol, "_providers", [])  # the season's own provider aside

    def provider(tournament):
        return [(1, 3, "cms"), (0, 2, "1"), (5, 4, "2"), (1, 2, "grandmaster")]

    assert protocol.norms_for(object()) == []
    protocol.register_norms_provider(provider)
    protocol.register_norms_provider(provider)
    try:
        assert protocol.norms_for(object()) == [(1, 3, "cms")]
    finally:
        protocol.unregister_norms_provider(provider)
    assert protocol.norms_for(object()) == []


@pytest.fixture
def norms():
    """A series' norms for this test's tournaments: КМС for places 1–2, 1st class to 3–8."""

    def provider(tournament):
        return [(1, 2, "cms"), (3, 8, "1")] if tournament.name == "Кубок" else []

    protocol.register_norms_provider(provider)
    yield provider
    protocol.unregister_norms_provider(provider)


def finished_cup(tables, admin_user):
    """A knockout of 8 (7 players, one of them named like a formula, and a guest), a race
    to 2 but the final (to 1); seed 1 beats everyone, the higher seed wins."""
    tournament, players = make_tournament("single", n=7, race_upper=2, race_final=1)
    services.add_entrant(tournament=tournament, guest_name="Гость Гостев")
    Player.objects.filter(pk=players[0].pk).update(skill_class="cms")
    # (a nickname is the boards' name; the protocol names the person in full)
    Player.objects.filter(pk=players[1].pk).update(
        skill_class="1", full_name="=HYPERLINK(1)", nickname="Формула"
    )
    Player.objects.filter(pk__in=[p.pk for p in players[2:]]).update(skill_class="2")
    entrants = list(tournament.entrants.order_by("pk"))
    services.start_tournament(
        tournament=tournament, method="manual", manual=[e.pk for e in entrants]
    )
    while (view := selectors.tournament_view(tournament)).queue:
        item = view.queue[0]
        match = services.start_tournament_match(
            tournament=tournament, key=item.spec.key, table=tables[0], marker=admin_user
        )
        play_match(match, "a" if item.seed_a < item.seed_b else "b")
        tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    return tournament


def test_the_protocol_page_and_csv(client, tables, admin_user, norms):
    tournament = finished_cup(tables, admin_user)
    url = reverse("tournaments:protocol", args=[tournament.pk])
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "css/protocol.css" in html and working_club().name in html
    assert "Протокол турнира" in html and tournament.name in html and "03.12.2026" in html
    assert "data-desk-user>admin-user<" in html
    rows = selectors.protocol_rows(selectors.tournament_view(tournament))
    assert [row.place for row in rows] == ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]
    first = rows[0]
    assert (first.name, first.skill_class, first.won, first.lost) == ("Игрок 01", "cms", 3, 0)
    # Races to 2, then the final to 1: 2 : 0, 2 : 0, 1 : 0.
    assert (first.frames_for, first.frames_against, first.norm) == (5, 0, "cms")
    guest = next(row for row in rows if row.name == "Гость Гостев")
    assert (guest.place, guest.skill_class, guest.clubs, guest.norm) == ("5–8", "", "", "1")
    assert (guest.won, guest.lost, guest.frames_for, guest.frames_against) == (0, 1, 0, 2)
    assert rows[1].clubs == working_club().name
    assert 'data-place="5–8"' in html and 'data-norm="1"' in html and "1-й разряд" in html
    assert "Кандидат в мастера спорта" in html
    csv_response = client.get(reverse("tournaments:protocol_csv", args=[tournament.pk]))
    assert csv_response["Content-Type"].startswith("text/csv")
    body = csv_response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    assert table[0][0] == "Место" and table[0][-1] == "Выполнен норматив"
    assert [line[0] for line in table[1:]] == [row.place for row in rows]
    assert table[1][1:4] == ["Игрок 01", "Кандидат в мастера спорта", working_club().name]
    assert table[1][4:] == ["3", "0", "5", "0", "Кандидат в мастера спорта"]
    assert ["'=HYPERLINK(1)", "1-й разряд"] == table[2][1:3]
    assert all(not cell.startswith("=") for line in table for cell in line)
    assert client.get(url, {"format": "csv"}).content == csv_response.content


def test_without_norms_the_column_is_left_out(client, tables, admin_user):
    tournament = finished_cup(tables, admin_user)
    html = client.get(reverse("tournaments:protocol", args=[tournament.pk])).content.decode()
    assert "data-norm" not in html and "Выполнен норматив" not in html
    body = client.get(reverse("tournaments:protocol_csv", args=[tournament.pk])).content
    header = next(csv.reader(io.StringIO(body.decode("utf-8").lstrip("\ufeff"))))
    assert header[-1] == "Партии против"


def test_the_protocol_is_linked_once_finished_and_refused_before(client, admin_client, tables):
    tournament, _players = make_tournament("single", n=3, race_upper=1, race_final=1)
    protocol_url = reverse("tournaments:protocol", args=[tournament.pk])
    detail = reverse("tournaments:detail", args=[tournament.pk])
    manage = reverse("tournaments:manage", args=[tournament.pk])
    assert client.get(protocol_url).status_code == 404
    services.start_tournament(
        tournament=tournament,
        method="manual",
        manual=list(tournament.entrants.order_by("pk").values_list("pk", flat=True)),
    )
    assert client.get(protocol_url).status_code == 404
    assert client.get(protocol_url + "?format=csv").status_code == 404
    assert "data-protocol-link" not in client.get(detail).content.decode()
    while (view := selectors.tournament_view(tournament)).queue:
        assert "data-protocol-link" not in client.get(detail).content.decode()
        match = services.start_tournament_match(
            tournament=tournament, key=view.queue[0].spec.key, table=tables[0], marker=None
        )
        play_match(match, "a")
    assert protocol_url in client.get(detail).content.decode()
    assert protocol_url in admin_client.get(manage).content.decode()
    page = client.get(protocol_url).content.decode()
    assert "data-desk-user" not in page  # nobody called the match from the desk
    assert client.get(reverse("tournaments:protocol", args=[9999])).status_code == 404
