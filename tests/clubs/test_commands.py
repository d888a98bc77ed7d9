"""``manage.py add_club`` and the demo network (issue 32 item 1), and the migration's first
club."""

from importlib import import_module
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.current import club_for_host, current_club
from clubs.models import Club

pytestmark = pytest.mark.django_db


def add_club(*args):
    out = StringIO()
    call_command("add_club", *args, stdout=out)
    return out.getvalue()


def test_the_migration_makes_the_first_club_from_the_settings(settings):
    """Run as ``migrate`` runs it (a database flushed by another test of the worker has lost
    the migration's row), into an empty table and then into one with a club."""
    from django.apps import apps

    first_club = import_module("clubs.migrations.0002_first_club")
    Club.objects.all().delete()
    settings.CLUB_NAME, settings.TIME_ZONE = "Луза на Таганке", "Asia/Yekaterinburg"
    first_club.create_first_club(apps, None)
    first_club.create_first_club(apps, None)  # a club exists: nothing more
    club = Club.objects.get()
    assert (club.name, club.time_zone, club.hosts) == ("Луза на Таганке", "Asia/Yekaterinburg", [])
    assert club.slug == "club"  # no Latin letters in the name
    assert club_for_host("any.example") == club


def test_add_club_adds_a_club_answering_its_hosts(first_club):
    first_club.hosts = ["tsentr.example"]
    first_club.save()
    out = add_club(
        "--name", "Сокол", "--host", "Sokol.Example", "--host", "www.sokol.example",
        "--time-zone", "Asia/Yekaterinburg", "--city", "Екатеринбург", "--address", "ул. Ленина, 1",
    )  # fmt: skip
    club = Club.objects.get(hosts__icontains="sokol")
    assert club.hosts == ["sokol.example", "www.sokol.example"]
    assert (club.time_zone, club.city, club.address) == (
        "Asia/Yekaterinburg",
        "Екатеринбург",
        "ул. Ленина, 1",
    )
    assert club.slug == "sokol"
    assert "ALLOWED_HOSTS" in out
    assert club_for_host("www.sokol.example:8000") == club
    assert club_for_host("anything.example") is None


def test_add_club_refuses_while_the_first_club_has_no_hosts(first_club):
    """Else the first club would answer no address from then on."""
    with pytest.raises(CommandError, match=first_club.name):
        add_club("--name", "Сокол", "--host", "sokol.example")
    assert Club.objects.count() == 1


def test_add_club_refuses_a_host_another_club_answers(first_club):
    first_club.hosts = ["tsentr.example"]
    first_club.save()
    add_club("--name", "Сокол", "--host", "sokol.example")
    with pytest.raises(CommandError, match="sokol.example"):
        add_club("--name", "Сокол-2", "--host", "SOKOL.example:8000")
    with pytest.raises(CommandError, match="tsentr.example"):
        add_club("--name", "Центр-2", "--host", "tsentr.example")
    assert Club.objects.count() == 2


def test_add_club_refuses_an_unknown_time_zone():
    with pytest.raises(CommandError, match="Mars/Olympus"):
        add_club("--name", "Марс", "--host", "mars.example", "--time-zone", "Mars/Olympus")
    assert Club.objects.count() == 1


def test_add_club_needs_a_name_and_a_host():
    with pytest.raises(CommandError):
        add_club("--name", "Без адреса")


def test_the_demo_network_is_three_clubs_in_two_cities(monkeypatch):
    from clubsite.management.commands import load_demo_club

    # The demo club's own data is tests/clubsite/test_demo_command.py's (and each club's,
    # tests/clubs/test_walls.py's): here the clubs, and that each gets its demo.
    demos = []
    monkeypatch.setattr(
        load_demo_club.Command,
        "club",
        lambda self, first, slug: demos.append((current_club().slug, first, slug)),
    )
    out = StringIO()
    call_command("load_demo_club", "--network", stdout=out)
    call_command("load_demo_club", "--network", stdout=StringIO())  # again: nothing new
    clubs = list(Club.objects.order_by("pk"))
    assert len(clubs) == 3 and len({club.city for club in clubs}) == 2
    assert [club_for_host(f"{name}.localhost:8000") for name in ("tsentr", "sokol", "neva")] == (
        clubs
    )
    assert club_for_host("127.0.0.1:8000") == clubs[0]  # make run's address: the demo club
    assert "sokol.localhost" in out.getvalue()
    first = clubs[0].slug
    assert demos == 2 * [(first, True, first), ("sokol", False, "sokol"), ("neva", False, "neva")]
