"""The demo's team leagues.

A club's (``load_demo_league``): four teams of three of the demo's players, three singles
games and a doubles game a match day, the fixture list of a season on the club's league night
(a week ago, today, next week), the first round played (line-ups locked blind, games scored
by the home captain and confirmed by the away one) and today's first match day with one
line-up locked and the other captain's draft saved. Loaded only into a club without leagues.

The network's (``load_demo_network_league``, with ``load_demo_club --network``): four teams of
the network's regulars, two at home in the first club and two in the second, the season from
tomorrow on: each match day at its home team's club, a table booked there for the night."""

from datetime import time, timedelta

from django.db import transaction
from django.utils import timezone

from leagues import services
from leagues.models import CapKind, Division, League, MatchDay, Season, Team

TEAMS = ("Свояки", "Дуплеты", "Резка", "Откат")
# The network's league: (team, the index of its home club among the network's clubs).
NETWORK_TEAMS = (("Тверская", 0), ("Арбат", 0), ("Сокольники", 1), ("Аэропорт", 1))
NETWORK_LEAGUE = "Кубок сети"


def _squads(players, count):
    """A snake draft of the players in order, three a team: the teams about as strong."""
    squads = [[] for _team in range(count)]
    for index, player in enumerate(players[: 3 * count]):
        turn, place = divmod(index, count)
        squads[place if turn % 2 == 0 else count - 1 - place].append(player)
    return squads


@transaction.atomic
def load_demo_league(*, players, captains=()):
    """Returns the number of leagues created (0 if the club has some of its own). ``captains``:
    the players who captain a team if they play (the demo's phones)."""
    if League.objects.own().exists() or len(players) < 3 * len(TEAMS):
        return 0
    league = League.objects.create(
        name="Лига по средам",
        variant="pyramid_free",
        cap_kind=CapKind.CLASS,
        cap_limit=13,
        format=[{"race_to": 2}] * 3 + [{"race_to": 1, "doubles": True}],
    )
    division = Division.objects.create(league=league, name="Высшая")
    start = timezone.localdate() - timedelta(days=7)
    season = Season.objects.create(
        league=league, name=f"Сезон {start.year}", starts_on=start, weekday=start.weekday()
    )
    for name, squad in zip(TEAMS, _squads(players, len(TEAMS)), strict=True):
        captain = next((p for p in squad if p in captains), squad[0])
        team = Team.objects.create(season=season, division=division, name=name, captain=captain)
        team.members.set(squad)
    services.generate_fixtures(season=season)
    days = list(MatchDay.objects.filter(season=season).order_by("round", "pk"))
    for day in days[:2]:  # the first round: played and confirmed
        for team in (day.home, day.away):
            services.lock_line_up(match_day=day, team=team, player_ids=_line_up(team))
        for number, game in enumerate(day.games.order_by("order")):
            race = game.race_to
            home, away = (race, number % race) if number != 1 else (race - 1, race)
            services.score_game(game=game, team=day.home, home_frames=home, away_frames=away)
            services.confirm_game(game=game, team=day.away)
    today = days[2]  # today's first match day: the home captain has locked his line-up,
    services.lock_line_up(match_day=today, team=today.home, player_ids=_line_up(today.home))
    # the away captain has saved a draft.
    services.save_line_up(match_day=today, team=today.away, player_ids=_line_up(today.away))
    return 1


@transaction.atomic
def load_demo_network_league(*, clubs, players):
    """The network's league of ``clubs`` (the first two are the teams' home clubs), with the
    network's regulars ``players``; made within a club's scope (any of the network's).
    Returns the number of leagues created (0 if the network has one)."""
    if (
        len(clubs) < 2
        or len(players) < 3 * len(NETWORK_TEAMS)
        or League.everywhere.filter(club=None).exists()
    ):
        return 0
    league = League.objects.create(
        name=NETWORK_LEAGUE,
        network=True,
        variant="pyramid_free",
        format=[{"race_to": 2}] * 3 + [{"race_to": 1, "doubles": True}],
        starts_at=time(19, 30),
    )
    division = Division.objects.create(league=league, name="Первая")
    start = timezone.localdate() + timedelta(days=1)
    season = Season.objects.create(
        league=league, name=f"Сезон {start.year}", starts_on=start, weekday=start.weekday()
    )
    # From the end of the list: other regulars than the club league's first ones captain.
    squads = _squads(list(reversed(players)), len(NETWORK_TEAMS))
    for (name, home), squad in zip(NETWORK_TEAMS, squads, strict=True):
        team = Team.objects.create(
            season=season, division=division, name=name, captain=squad[0], home_club=clubs[home]
        )
        team.members.set(squad)
    services.generate_fixtures(season=season)
    return 1


def _line_up(team):
    """Each member in a singles game, the first two the pair."""
    first, second, third = sorted(team.people(), key=lambda p: p.pk)[:3]
    return [first.pk, second.pk, third.pk, [first.pk, second.pk]]
