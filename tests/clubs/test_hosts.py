"""Each request belongs to one club, decided by its host name (issue 32 item 1): a site with
one club answers any host as today; with several, each club answers its own hosts and an
unknown host is a 404 page that says so."""

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.utils import timezone

from clubs.current import club_for_host, current_club, each_club, using_club
from clubs.models import Club
from games.models import Event
from tests.factories import TableFactory, ev, record, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs(first_club):
    first_club.hosts = ["testserver", "tsentr.example"]
    first_club.save()
    second = Club.objects.create(
        name="Сокол", slug="sokol", hosts=["sokol.example"], time_zone="Asia/Yekaterinburg"
    )
    return first_club, second


def test_one_club_answers_any_host(client, first_club, settings):
    settings.ALLOWED_HOSTS = ["*"]
    for host in ("testserver", "anything.example", "10.0.0.7:8000"):
        response = client.get("/", headers={"host": host})
        assert response.status_code == 200
        assert response.wsgi_request.club == first_club


def test_the_header_names_the_requests_club(client, two_clubs, settings):
    settings.ALLOWED_HOSTS = ["*"]
    response = client.get("/", headers={"host": "sokol.example"})
    assert response.wsgi_request.club == two_clubs[1]
    assert "Сокол" in response.text


def test_two_clubs_each_answer_their_hosts(two_clubs, settings):
    settings.ALLOWED_HOSTS = ["*"]
    first, second = two_clubs
    client = Client()
    for host, club in [
        ("testserver", first),
        ("tsentr.example", first),
        ("sokol.example", second),
        ("SOKOL.Example:8443", second),  # the port ignored, and the case
        ("sokol.example.", second),  # a fully qualified name's dot
    ]:
        response = client.get("/", headers={"host": host})
        assert response.status_code == 200, host
        assert response.wsgi_request.club == club, host


def test_an_unknown_host_is_a_translated_404(two_clubs, settings):
    settings.ALLOWED_HOSTS = ["*"]
    client = Client()
    response = client.get("/tables/", headers={"host": "nowhere.example"})
    assert response.status_code == 404
    assert "Клуба по этому адресу нет" in response.text
    response = client.get("/", headers={"host": "nowhere.example", "accept-language": "en"})
    assert response.status_code == 404
    assert "No club at this address" in response.text
    # A load balancer's probe answers whatever host it names.
    assert client.get("/healthz", headers={"host": "10.1.2.3"}).status_code == 200


def test_a_host_not_allowed_is_still_a_400(two_clubs, settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    response = Client().get("/", headers={"host": "sokol.example"})
    assert response.status_code == 400


def test_a_page_shows_its_times_in_its_clubs_zone(admin_user, two_clubs, settings):
    """18:00 UTC is 21:00 in Moscow and 23:00 in Yekaterinburg; each club's game is its own
    (another club's address does not find it)."""
    settings.ALLOWED_HOSTS = ["*"]
    first, second = two_clubs
    first.time_zone = "Europe/Moscow"
    first.save()
    games = {}
    for club in (first, second):
        with using_club(club):
            game = start(TableFactory(number=5), "cork", ["Аня", "Борис"], admin_user, target=3)
            record(game, admin_user, ev("score"))
            Event.objects.filter(game=game).update(
                recorded_at=datetime(2025, 3, 10, 18, 0, tzinfo=UTC)
            )
            games[club.slug] = game.pk
    client = Client()
    moscow = client.get(f"/games/{games[first.slug]}/", headers={"host": "testserver"})
    yekaterinburg = client.get(f"/games/{games['sokol']}/", headers={"host": "sokol.example"})
    assert "21:00:00" in moscow.text and "23:00:00" not in moscow.text
    assert "23:00:00" in yekaterinburg.text and "21:00:00" not in yekaterinburg.text
    walled = client.get(f"/games/{games['sokol']}/", headers={"host": "testserver"})
    assert walled.status_code == 404


def test_a_saved_club_is_read_again(client, first_club, settings):
    settings.ALLOWED_HOSTS = ["*"]
    assert club_for_host("anything.example") == first_club
    Club.objects.create(name="Нева", slug="neva", hosts=["neva.example"], time_zone="UTC")
    assert club_for_host("anything.example") is None
    assert club_for_host("neva.example").slug == "neva"


def test_using_club_sets_the_club_and_its_zone(first_club):
    club = Club(name="Иркутск", slug="irk", time_zone="Asia/Irkutsk")
    assert current_club() is None
    with using_club(club):
        assert current_club() is club
        assert timezone.get_current_timezone_name() == "Asia/Irkutsk"
    assert current_club() is None
    assert timezone.get_current_timezone_name() != "Asia/Irkutsk"


def test_a_stream_read_in_part_leaves_its_reader_outside_the_club(client, two_clubs, settings):
    """A streamed response's chunks are made within the request's club, never in the
    context of whoever reads them: a reader that stops before the end (a screen that went
    away, a test) is not left working for that club, its zone or its live topics."""
    settings.ALLOWED_HOSTS = ["*"]
    with using_club(two_clubs[1]):
        TableFactory(number=3)  # the second club's only table
    stream = client.get("/tables/3/board/stream/", {"fp": "x"}, headers={"host": "sokol.example"})
    chunks = iter(stream.streaming_content)
    assert next(chunks) == b"retry: 1000\n\n"
    assert '<p class="free-club">Сокол</p>' in next(chunks).decode()  # within its club
    assert current_club() is None
    assert timezone.get_current_timezone_name() != "Asia/Yekaterinburg"


def test_a_database_without_clubs_answers_as_the_settings_club(client, settings):
    """A flushed test database (or one before its migration) serves the club of the settings."""
    Club.objects.all().delete()
    settings.CLUB_NAME = "Луза на Таганке"
    response = client.get("/")
    assert response.status_code == 200
    assert "Луза на Таганке" in response.text


def test_a_database_without_clubs_has_the_settings_club_for_each_club(settings):
    """The processes that serve every club (the register's worker) serve the settings' club
    of a database that holds none yet, as a request does: not nothing."""
    Club.objects.all().delete()
    settings.CLUB_NAME = "Луза на Таганке"
    assert [club.name for club in each_club()] == ["Луза на Таганке"]
    assert current_club() is None


def test_clubs_that_cannot_be_read_are_no_server_error(client, monkeypatch):
    """A busy database while the clubs are read: the request goes on without a club (its
    view's own query is then answered 503 by clubsite's middleware, as before)."""
    from django.db import OperationalError

    def busy(host):
        raise OperationalError("too many clients")

    monkeypatch.setattr("clubs.middleware.club_for_host", busy)
    response = client.get("/")
    assert response.status_code == 200
    assert response.wsgi_request.club is None
