"""The walls between clubs (issue 32 item 2), crawled as people would try them.

Two clubs on one site, each with the whole demo of its own (tables, games, bills, shifts,
bookings, tournaments, the lights' log) and staff of its own: «Луза» at ``testserver`` (the
test client's host) and «Сокол» at ``sokol.example``. Every page Сокол's admin reaches
(crawled from its home page, the Django admin's included) is then asked for by each role of
Луза — admin, marker, cashier:

- at Сокол's address, where Луза's staff are nobody: each is answered as to an anonymous
  visitor (a page refused to a stranger is refused to them; its public pages are public);
- at Луза's own address, with Сокол's object ids in the path: nothing of Сокол's is there
  (its object pages are not found, and no page shows its tables, tournaments or staff) —
  but the network's page (``/network/``), which shows every club's tables on purpose.

Сокол's rows are made recognisable («Сокольский» in its tables' and tournaments' names, its
staff's user names start with ``sokol-``), and the crawl checks it did reach them.
"""

import re
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.test import Client, override_settings

from billing.models import Bill, Payout
from clubs.current import forget_clubs, using_club
from clubs.models import Club
from clubsite.management.commands.load_demo_club import Command as DemoCommand
from games.models import Game, GameStatus
from ladder.models import Ladder
from leagues.models import League
from season.models import Series
from tables.models import Table
from tests.clubsite.test_crawl import MAX_REQUESTS, SEASON_ADMIN, Crawl, games_by_pk
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "sokol.example"
OTHERS_MARKS = ("Сокольский", "sokol-")  # what only Сокол's rows show
REFUSED = (302, 403, 404)  # to the sign-in page, forbidden, not found
# The pages of the whole network, on purpose: every club's name, address and tables.
NETWORK_PAGES = ("/network/",)


@pytest.fixture(scope="module")
def two_clubs(demo_club_rows, django_db_blocker):
    """Луза (the demo club, at testserver: loaded once for the run, tests/conftest.py) and
    Сокол (the same demo, its own rows)."""
    with django_db_blocker.unblock():
        demo_club_rows.restore()
        home = Club.objects.order_by("pk").first()
        home.hosts = [HOME]
        home.save()
        other = Club.objects.create(
            name="Сокол", slug="sokol", hosts=[OTHER], time_zone="Asia/Yekaterinburg"
        )
        forget_clubs()
        with using_club(other):
            # Its billing history two days long: every kind of bill, in a third of the time.
            DemoCommand(stdout=StringIO()).club(first=False, slug="sokol", history_days=2)
            for table in Table.objects.all():
                table.name = f"Сокольский {table.number}"
                table.save(update_fields=["name"])
            for tournament in Tournament.objects.all():
                tournament.name = f"Сокольский {tournament.name}"
                tournament.save(update_fields=["name"])
            # Its series, ladder and league, its cup's entry fees and prize (written once:
            # renamed in bulk).
            mark = Concat(Value("Сокольский "), F("name"))
            for rows in (Series.objects.filter(club=other), Ladder.objects, League.objects):
                assert rows.update(name=mark)
            assert Bill.objects.filter(session=None).update(
                title=Concat(Value("Сокольский "), F("title"))
            )
            assert Payout.objects.update(description=Concat(Value("Сокольский "), F("description")))
        yield home, other
        call_command("flush", interactive=False, verbosity=0)
        forget_clubs()


class Collecting(Crawl):
    """A crawl that keeps every page it answered 200, with whether it was an HTMX request."""

    def __init__(self, client, games):
        super().__init__(client, games)
        self.pages = []

    def fetch(self, url, htmx):
        links = super().fetch(url, htmx)
        self.pages.append((url, htmx))
        return links


def client_at(host, username=None):
    client = Client(HTTP_HOST=host)
    if username:
        client.force_login(User.objects.get(username=username))
    return client


def get(client, url, htmx):
    response = client.get(url, headers={"HX-Request": "true"} if htmx else {})
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, body.decode(errors="replace")


@pytest.fixture(scope="module")
def others_pages(two_clubs, django_db_blocker):
    """Every page Сокол's admin reaches on Сокол's site."""
    _home, other = two_clubs
    with django_db_blocker.unblock(), override_settings(ALLOWED_HOSTS=[HOME, OTHER]):
        with using_club(other):
            crawl = Collecting(client_at(OTHER, "sokol-admin"), games_by_pk())
        crawl.run()
    assert not crawl.failures, "\n".join(crawl.failures)
    assert crawl.requests < MAX_REQUESTS
    return crawl.pages


def test_the_crawl_reaches_the_other_clubs_pages_and_rows(others_pages, settings):
    settings.ALLOWED_HOSTS = [HOME, OTHER]
    paths = [url for url, _htmx in others_pages]
    assert len(paths) > 150
    for part in ("/admin/billing/", "/games/", "/marker/", "/tournaments/", "/admin/", "/network/"):
        assert any(part in path for path in paths), part
    # The season's admin pages, each with a row of Сокол's (its series, ladder, league, the
    # cup's fees and prize): the walls below are tried on them too.
    for model in SEASON_ADMIN:
        assert any(re.fullmatch(rf"/admin/{model}/\d+/change/", path) for path in paths), model
    client = client_at(OTHER, "sokol-admin")
    assert OTHERS_MARKS[0] in get(client, "/", False)[1]


@pytest.fixture(scope="module")
def strangers_answers(others_pages, django_db_blocker):
    """What a stranger (not signed in) is answered at Сокол's address for each of its pages:
    asked once for the three roles' tests below (GETs: they change nothing). Each page is
    rendered for the request, as in every test (tests/conftest.py: pages_not_shared)."""
    with (
        django_db_blocker.unblock(),
        override_settings(ALLOWED_HOSTS=[HOME, OTHER], SHARED_PAGE_SECONDS=0),
    ):
        stranger = client_at(OTHER)
        return {(url, htmx): get(stranger, url, htmx)[0] for url, htmx in others_pages}


@pytest.mark.parametrize("username", ["admin", "marker", "cashier"])
def test_at_the_other_clubs_address_the_staff_are_nobody(
    others_pages, strangers_answers, username, settings
):
    settings.ALLOWED_HOSTS = [HOME, OTHER]
    staff = client_at(OTHER, username)
    problems = []
    for url, htmx in others_pages:
        as_stranger = strangers_answers[url, htmx]
        as_staff, _page = get(staff, url, htmx)
        if as_stranger in REFUSED and as_staff not in REFUSED:
            problems.append(f"{url}: {as_staff} (a stranger: {as_stranger})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("username", ["admin", "marker", "cashier"])
def test_at_home_nothing_of_the_other_club_is_found(others_pages, username, settings):
    settings.ALLOWED_HOSTS = [HOME, OTHER]
    staff = client_at(HOME, username)
    problems = []
    for url, htmx in others_pages:
        status, page = get(staff, url, htmx)
        if url.split("?")[0] in NETWORK_PAGES:
            assert status == 200, url
            continue
        if status >= 500:
            problems.append(f"{url}: {status}")
        elif status == 200 and any(mark in page for mark in OTHERS_MARKS):
            problems.append(f"{url}: shows {[m for m in OTHERS_MARKS if m in page]}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("username", [None, "admin"])
def test_every_page_of_the_home_club_answers_as_before(two_clubs, username, settings):
    """A network changes nothing for the club that was there: its crawl, at its host."""
    settings.ALLOWED_HOSTS = [HOME, OTHER]
    home, _other = two_clubs
    client = client_at(HOME, username)
    with using_club(home):
        crawl = Crawl(client, games_by_pk())
    crawl.run()
    assert crawl.requests < MAX_REQUESTS, "the crawl did not end: too many pages"
    assert crawl.requests > 100
    assert not crawl.failures, "\n".join(crawl.failures)
    assert client.get("/").wsgi_request.club == home
    other = client.get("/", headers={"host": OTHER})
    assert other.status_code == 200 and other.wsgi_request.club.slug == "sokol"
    assert client.get("/", headers={"host": "nowhere.example"}).status_code == 400


@pytest.mark.parametrize("username", ["admin", "marker"])
def test_a_stroke_posted_to_the_other_clubs_game_is_refused_and_changes_nothing(
    two_clubs, username, settings
):
    """The tap's own SQL (games/tap_sql.py) walls as the ORM does: another club's game is
    not found, whatever id is posted, and nothing is recorded into it."""
    settings.ALLOWED_HOSTS = [HOME, OTHER]
    _home, other = two_clubs
    with using_club(other):
        game = Game.objects.filter(status=GameStatus.IN_PROGRESS).first()
        events = game.events.count()
    staff = client_at(HOME, username)
    response = staff.post(
        f"/marker/games/{game.pk}/record/", {"kind": "score", "seq": game.last_seq}
    )
    assert response.status_code == 404
    with using_club(other):
        assert Game.objects.get(pk=game.pk).events.count() == events
