"""``backup_club --club <host>`` backs up one club of a network: its rows, its staff and the
network's people, nothing of another club; restored into an empty database it is a site of
that one club, its games replayed as they were (issue 32 item 5)."""

import datetime as dt
import gzip
import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from clubs.current import forget_clubs, using_club
from clubs.models import Club, StaffRole
from games.models import Game
from leagues.models import Division, League, MatchDay, Season, Team
from leagues.services import generate_fixtures
from season.models import Series, Stage
from tables.models import Table
from tests.factories import UserFactory, ev, player, record, start, table
from toolbox.roles import CASHIERS, MARKERS
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def league_of(name, people, network=False, home_club=None):
    """A league of two teams of one player each, its fixtures generated (in the past: no
    table booked)."""
    league = League.objects.create(name=name, network=network, format=[{"race_to": 1}])
    division = Division.objects.create(league=league, name="А")
    season = Season.objects.create(
        league=league, name="2026", starts_on=dt.date(2026, 9, 1), weekday=2
    )
    for person in people:
        team = Team.objects.create(
            season=season, division=division, name=person.full_name, captain=person,
            home_club=home_club,
        )  # fmt: skip
        team.members.set([person])
    generate_fixtures(season=season)
    return league


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
            # Each club's cup of one stage, and a series of the network's (no club).
            cup = Tournament.objects.create(
                name=f"Кубок {club.name}",
                date=dt.date(2026, 12, 1),
                variant="cork",
                format="single",
            )
            series = Series.objects.create(name=f"Серия {club.name}", season="2026", club=club)
            Stage.objects.create(series=series, tournament=cup, number=1)
            series.wildcards.add(people[1])
            # Each club's league of two teams, its match day not forfeited (no forfeit).
            league_of(f"Лига {club.name}", people)
    Series.objects.create(name="Серия сети", season="2026", club=None)
    with using_club(home):
        league_of("Лига сети", people, network=True, home_club=other)
    path = tmp_path / "sokol.json.gz"
    call_command("backup_club", str(path), club="sokol.example", stdout=StringIO())

    rows = json.loads(gzip.decompress(path.read_bytes()))
    clubs = [row for row in rows if row["model"] == "clubs.club"]
    assert [row["fields"]["slug"] for row in clubs] == ["sokol"]
    assert {row["fields"]["club"] for row in rows if "club" in row["fields"]} == {other.pk}
    usernames = {row["fields"]["username"] for row in rows if row["model"] == "auth.user"}
    assert {"sokol-marker", "sokol-cashier"} <= usernames
    assert not usernames & {"luza-marker", "luza-cashier"}  # another club's staff stay there
    # The club's series and its stage; not another club's, nor the network's (their stages
    # would name tournaments the backup does not hold).
    series = [row["fields"]["name"] for row in rows if row["model"] == "season.series"]
    assert series == ["Серия Сокол"]
    assert len([row for row in rows if row["model"] == "season.stage"]) == 1
    players = {row["fields"]["full_name"] for row in rows if row["model"] == "players.player"}
    assert players == {"Иван Соколов", "Пётр Нилов"}  # the network's people come with it
    # Its league with its season, teams and match day; not another club's, nor the network's
    # (played at Сокол all the same: its teams and fixtures are the network's).
    leagues = [row["fields"]["name"] for row in rows if row["model"] == "leagues.league"]
    assert leagues == ["Лига Сокол"]
    assert len([row for row in rows if row["model"] == "leagues.matchday"]) == 1

    call_command("flush", interactive=False)
    forget_clubs()
    out = StringIO()
    call_command("restore_club", str(path), stdout=out)
    forget_clubs()
    assert list(Club.objects.values_list("slug", flat=True)) == ["sokol"]
    game = Game.objects.get()  # the one club of the site now: no club to choose
    assert MatchDay.objects.get().season.league.name == "Лига Сокол"
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
