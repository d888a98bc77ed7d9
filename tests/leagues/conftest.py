"""The leagues' test world: a league of four teams of three players (two singles games a
match day, each a race to 2 of the free pyramid; a cap of class points), its season; the
same with a doubles game after the singles (``doubles_season``)."""

import datetime as dt

import pytest

from leagues.models import CapKind, Division, League, Season, Team
from players.models import SkillClass
from tests.factories import PlayerFactory
from tests.me.test_phones_browser import phone  # noqa: F401 (the phones, for the captains)

TEAMS = ("Шары", "Лузы", "Кии", "Мел")


def make_league(**fields):
    defaults = {
        "name": "Лига среды",
        "variant": "pyramid_free",
        "cap_kind": CapKind.CLASS,
        "cap_limit": 6,
        "format": [{"race_to": 2}, {"race_to": 2}],
    }
    return League.objects.create(**(defaults | fields))


def make_teams(season, division, names=TEAMS, size=3):
    teams = []
    for name in names:
        members = [
            PlayerFactory(full_name=f"{name} {n}", skill_class=SkillClass.THIRD)
            for n in range(1, size + 1)
        ]
        team = Team.objects.create(season=season, division=division, name=name, captain=members[0])
        team.members.set(members)
        teams.append(team)
    return teams


@pytest.fixture
def league(db):
    return make_league()


DOUBLES_FORMAT = [{"race_to": 2}, {"race_to": 2}, {"race_to": 1, "doubles": True}]


def make_season(league):
    division = Division.objects.create(league=league, name="Высшая")
    season = Season.objects.create(
        league=league,
        name="Осень 2026",
        starts_on=dt.date(2026, 9, 1),  # a Tuesday
        weekday=2,
        holidays=["2026-09-09"],
    )
    make_teams(season, division)
    return season


@pytest.fixture
def season(league):
    return make_season(league)


@pytest.fixture
def doubles_season(db):
    """Two singles games and a doubles game; a cap of 6 class points: three players of the
    3rd class (2 each) — counted once each, whatever games they play."""
    return make_season(make_league(name="Лига пар", format=DOUBLES_FORMAT))
