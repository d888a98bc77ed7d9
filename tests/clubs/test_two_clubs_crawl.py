"""With a second club on the site, every page of the demo club still answers through the
first club's host (issue 32: a network changes nothing for the club that was there), and
the second club's host reaches the site too."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from clubs.current import forget_clubs
from clubs.models import Club
from tests.clubsite.test_crawl import MAX_REQUESTS, Crawl, games_by_pk

# The module-scoped demo is loaded once: its tests share a worker of a parallel run.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("clubs-test_two_clubs_crawl")]


@pytest.fixture(scope="module")
def two_club_demo(django_db_setup, django_db_blocker):
    """The demo club at testserver (the test client's host), and a second club."""
    with django_db_blocker.unblock():
        call_command("load_demo_club", stdout=StringIO())
        first = Club.objects.order_by("pk").first() or Club(
            name="Луза", slug="luza", time_zone="Europe/Moscow"
        )
        first.hosts = ["testserver"]
        first.save()
        Club.objects.create(
            name="Сокол", slug="sokol", hosts=["sokol.example"], time_zone="Asia/Yekaterinburg"
        )
        yield first
        call_command("flush", interactive=False, verbosity=0)
        forget_clubs()


@pytest.mark.parametrize("username", [None, "admin"])
def test_every_page_answers_through_the_first_clubs_host(two_club_demo, username, settings):
    settings.ALLOWED_HOSTS = ["testserver", "sokol.example"]
    assert Club.objects.count() == 2
    client = Client()
    if username:
        client.force_login(User.objects.get(username=username))
    crawl = Crawl(client, games_by_pk())
    crawl.run()
    assert crawl.requests < MAX_REQUESTS, "the crawl did not end: too many pages"
    assert crawl.requests > 100  # it did go through the club's pages
    assert not crawl.failures, "\n".join(crawl.failures)
    assert client.get("/").wsgi_request.club == two_club_demo
    other = client.get("/", headers={"host": "sokol.example"})
    assert other.status_code == 200 and other.wsgi_request.club.slug == "sokol"
    assert client.get("/", headers={"host": "nowhere.example"}).status_code == 400
