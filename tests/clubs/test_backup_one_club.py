"""``backup_club --club <host>`` backs up one club of a network: its rows, its staff and the
network's people, nothing of another club; restored into an empty database it is a site of
that one club, its games replayed as they were (issue 32 item 5)."""

import gzip
import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from clubs.current import forget_clubs, using_club
from clubs.models import Club, StaffRole
from games.models import Game
from tables.models import Table
from tests.factories import UserFactory, ev, player, record, start, table
from toolbox.roles import CASHIERS, MARKERS

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_clubs_backup_holds_it_alone_and_restores_as_a_site_of_one_club(tmp_path):
    home = Club.objects.get()
    home.hosts = ["luza.example"]
    home.save()
    other = Club.objects.create(
        name="Сокол", slug="sokol", hosts=["sokol.example"], time_zone="UTC"
    )
    forget_clubs()
    people = player("Иван Соколов"), player("Пётр Нилов")
    for club, marker_name in ((home, "luza-marker"), (other, "sokol-marker")):
        with using_club(club):
            marker = UserFactory(username=marker_name, groups=[MARKERS])
            UserFactory(username=f"{club.slug}-cashier", groups=[CASHIERS])
            game = start(table(3), "cork", list(people), marker, target=50)
            record(game, marker, ev("score"))
    path = tmp_path / "sokol.json.gz"
    call_command("backup_club", str(path), club="sokol.example", stdout=StringIO())

    rows = json.loads(gzip.decompress(path.read_bytes()))
    clubs = [row for row in rows if row["model"] == "clubs.club"]
    assert [row["fields"]["slug"] for row in clubs] == ["sokol"]
    assert {row["fields"]["club"] for row in rows if "club" in row["fields"]} == {other.pk}
    usernames = {row["fields"]["username"] for row in rows if row["model"] == "auth.user"}
    assert {"sokol-marker", "sokol-cashier"} <= usernames
    assert not usernames & {"luza-marker", "luza-cashier"}  # another club's staff stay there
    players = {row["fields"]["full_name"] for row in rows if row["model"] == "players.player"}
    assert players == {"Иван Соколов", "Пётр Нилов"}  # the network's people come with it

    call_command("flush", interactive=False)
    forget_clubs()
    out = StringIO()
    call_command("restore_club", str(path), stdout=out)
    forget_clubs()
    assert list(Club.objects.values_list("slug", flat=True)) == ["sokol"]
    game = Game.objects.get()  # the one club of the site now: no club to choose
    assert game.table.number == 3 and game.events.count() == 1
    assert {(r.user.username, r.group.name) for r in StaffRole.objects.all()} == {
        ("sokol-marker", MARKERS),
        ("sokol-cashier", CASHIERS),
    }
    assert not User.objects.filter(username__startswith="luza-").exists()


def test_a_backups_club_takes_the_place_of_an_empty_club_of_its_short_name(tmp_path):
    """The empty database's one club (migrate's, or one a server made from the settings on a
    database flushed for the restore) may share the backup's club's short name under another
    id: the backup's club takes its place all the same."""
    home = Club.objects.get()
    with using_club(home):
        table(3)
    path = tmp_path / "club.json.gz"
    call_command("backup_club", str(path), stdout=StringIO())
    call_command("flush", interactive=False)  # (its ids start again at 1)
    Club.objects.create(name="Прежний", slug="earlier", time_zone="UTC").delete()
    empty = Club.objects.create(name="Пустой", slug=home.slug, time_zone="UTC")
    assert empty.pk != home.pk
    forget_clubs()

    call_command("restore_club", str(path), stdout=StringIO())
    forget_clubs()
    assert list(Club.objects.values_list("pk", "slug", "name")) == [(home.pk, home.slug, home.name)]
    with using_club(Club.objects.get()):
        assert list(Table.objects.values_list("number", flat=True)) == [3]
