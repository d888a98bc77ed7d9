"""The network's league (issue 35 item 1): made by the network's admins, shown at every club,
its teams at home in two clubs with players of both clubs' rosters; each match day is played,
listed, booked, shown on the TV and run at its home team's club — and the walls between the
clubs hold: one club's staff neither see nor act on the other club's match days' desk."""

import datetime as dt
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from billing.models import Reservation, ReservationStatus
from clubs.current import using_club
from clubs.models import Club
from games import rules
from games import services as game_services
from leagues import selectors, services
from leagues.models import League, MatchDay, MatchDayStatus, Notice, NoticeKind, Team
from me import services as me_services
from players.models import Membership, Player
from tables.models import Table
from tests.factories import PlayerFactory, TableFactory, UserFactory
from tests.me.conftest import account
from toolbox.roles import ADMINS, CASHIERS, NETWORK_ADMINS

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "sokol.example"


def client_at(host, user=None):
    client = Client(HTTP_HOST=host)
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def network(home_and_sokol):
    """Луза (testserver) and Сокол (sokol.example, Omsk time), each with two tables and three
    players of its own roster; the network's admin; each club's cashier and admin. A test
    reads the clubs' rows within one club (``using_club``), its requests outside any (each is
    its host's club's)."""
    home, sokol = home_and_sokol
    people = {}
    for club, prefix in ((home, "Луза"), (sokol, "Сокол")):
        with using_club(club):
            TableFactory(number=1)
            TableFactory(number=2)
            people[club.slug] = [PlayerFactory(full_name=f"{prefix} {n}") for n in (1, 2, 3)]
            for role in (CASHIERS, ADMINS):
                UserFactory(username=f"{club.slug}-{role.lower()}", groups=[role])
    netadmin = UserFactory(username="net", groups=[NETWORK_ADMINS])
    return home, sokol, people, netadmin


def staff(club, role):
    return User.objects.get(username=f"{club.slug}-{role.lower()}")


def make_network_league(network, doubles=0):
    """Through the pages, as the network's admin at Луза's address: the league (two singles
    games a match day, and ``doubles`` doubles games after them), a season of two weeks from
    now on (a double round robin: a match day at each club), two teams."""
    home, sokol, people, netadmin = network
    desk = client_at(HOME, netadmin)
    answer = desk.post(
        "/leagues/new/",
        {"name": "Кубок сети", "variant": "pyramid_free", "win_points": 2, "draw_points": 1,
         "loss_points": 0, "frame_points": 0, "forfeit_penalty": 1, "cap_kind": "none",
         "cap_limit": 0, "starts_at": "19:00", "hours": 3, "table_kind": "", "games": 2,
         "doubles": doubles, "race_to": 2, "tie_break_chain": ["points"],
         "divisions": "Первая"},
    )  # fmt: skip
    assert answer.status_code == 302
    league = League.everywhere.get(name="Кубок сети")
    assert league.network and league.club is None
    starts = timezone.localdate() + dt.timedelta(days=14)
    answer = desk.post(
        f"/leagues/{league.pk}/seasons/",
        {"season-name": "Зима", "season-starts_on": starts.isoformat(),
         "season-weekday": starts.weekday(), "season-double": "on"},
    )  # fmt: skip
    assert answer.status_code == 302
    with using_club(home):
        division = league.divisions.get()
    # Луза's team has a player of Сокол's roster: the network's people are offered.
    ours, theirs = people[home.slug], people[sokol.slug]
    for name, club, captain, members in (
        ("Тверская", home, ours[0], [ours[1], theirs[2]]),
        ("Сокольники", sokol, theirs[0], [theirs[1], ours[2]]),
    ):
        answer = desk.post(
            f"/leagues/{league.pk}/teams/",
            {"team-name": name, "team-division": division.pk, "team-home_club": club.pk,
             "team-captain": captain.pk, "team-members": [m.pk for m in members]},
        )  # fmt: skip
        assert answer.status_code == 302, answer.content.decode()[:2000]
    assert desk.post(f"/leagues/{league.pk}/fixtures/").status_code == 302
    with using_club(home):
        days = {day.club_id: day for day in MatchDay.objects.filter(season__league=league)}
    return league, days[home.pk], days[sokol.pk]


def test_each_match_day_is_played_and_booked_at_its_home_club(network):
    home, sokol, people, _netadmin = network
    league, at_home, at_sokol = make_network_league(network)
    with using_club(home):
        teams = {team.name: team for team in Team.objects.filter(season__league=league)}
    assert teams["Тверская"].home_club == home and teams["Сокольники"].home_club == sokol
    assert {p.full_name for p in teams["Тверская"].people()} == {"Луза 1", "Луза 2", "Сокол 3"}
    assert at_home.home == teams["Тверская"] and at_sokol.home == teams["Сокольники"]
    # Each booking is its club's, at 19:00 of the club's own time.
    for day, club in ((at_home, home), (at_sokol, sokol)):
        booking = Reservation.everywhere.get(pk=day.reservation_id)
        assert booking.club == club and booking.table.club == club
        local = booking.starts_at.astimezone(ZoneInfo(club.time_zone))
        assert (local.date(), local.time()) == (day.date, dt.time(19, 0))
        assert booking.name == f"Кубок сети: {day.home.name} — {day.away.name}"
    # On each club's bookings page, its own only.
    for club, day, other in ((home, at_home, at_sokol), (sokol, at_sokol, at_home)):
        host = HOME if club == home else OTHER
        page = client_at(host, staff(club, CASHIERS)).get("/billing/bookings/").content.decode()
        own = f"Кубок сети: {day.home.name} — {day.away.name}"
        theirs = f"Кубок сети: {other.home.name} — {other.away.name}"
        assert own in page and theirs not in page


def test_the_league_is_shown_at_every_club_its_nights_at_their_own(network):
    home, sokol, _people, _netadmin = network
    league, at_home, at_sokol = make_network_league(network)
    for host, here, elsewhere in ((HOME, at_home, at_sokol), (OTHER, at_sokol, at_home)):
        visitor = client_at(host)
        listing = visitor.get("/leagues/").content.decode()
        assert "Кубок сети" in listing
        nights = listing.split("data-days-here", 1)[1]
        assert f'data-match-day="{here.pk}"' in nights
        assert f'data-match-day="{elsewhere.pk}"' not in nights
        standings = visitor.get(f"/leagues/{league.pk}/").content.decode()
        assert "data-network" in standings and home.name in standings and sokol.name in standings
        assert visitor.get(f"/embed/leagues/{league.pk}/").status_code == 200
        # Its TV board is at its club; the other club's is not found here.
        assert visitor.get(f"/leagues/match-days/{here.pk}/board/").status_code == 200
        assert visitor.get(f"/leagues/match-days/{elsewhere.pk}/board/").status_code == 404
        # The other club's match day is read here, and sends to its club.
        page = visitor.get(f"/leagues/match-days/{elsewhere.pk}/").content.decode()
        assert "data-home-club" in page and "/board/" not in page
        api = visitor.get(f"/api/v1/leagues/{league.pk}/").json()
        assert api["club"] is None
        assert {f["club"]["slug"] for f in api["fixtures"]} == {home.slug, sokol.slug}
        items = visitor.get("/api/v1/leagues/").json()["items"]
        assert [item["club"] for item in items if item["id"] == league.pk] == [None]


def test_a_clubs_staff_act_on_their_own_clubs_match_days_only(network):
    home, sokol, _people, netadmin = network
    _league, at_home, at_sokol = make_network_league(network)
    with using_club(sokol):
        sokol_two = Table.objects.get(number=2)
    before = Reservation.everywhere.filter(status=ReservationStatus.BOOKED).count()
    # Луза's cashier: Сокол's match day is not found at Луза; at Сокол's address he is nobody.
    ours = staff(home, CASHIERS)
    post = f"/leagues/match-days/{at_sokol.pk}/table/"
    assert client_at(HOME, ours).post(post, {"table": sokol_two.pk}).status_code == 404
    assert client_at(OTHER, ours).post(post, {"table": sokol_two.pk}).status_code == 403
    # Луза's admin may not record a forfeit of Сокол's match day either.
    forfeit = f"/leagues/match-days/{at_sokol.pk}/forfeit/{at_sokol.away_id}/"
    assert client_at(HOME, staff(home, ADMINS)).post(forfeit).status_code == 404
    assert client_at(OTHER, staff(home, ADMINS)).post(forfeit).status_code == 403
    at_sokol.refresh_from_db()
    assert at_sokol.status == MatchDayStatus.SCHEDULED
    assert Reservation.everywhere.filter(status=ReservationStatus.BOOKED).count() == before
    # Луза's desk lists its own match day only; Сокол's desk books its own.
    manage = client_at(HOME, ours).get(f"/leagues/{_league.pk}/manage/").content.decode()
    assert f'data-match-day="{at_home.pk}"' in manage
    assert f'data-match-day="{at_sokol.pk}"' not in manage
    theirs = client_at(OTHER, staff(sokol, CASHIERS))
    assert theirs.post(post, {"table": sokol_two.pk}).status_code == 302
    at_sokol.refresh_from_db()
    assert at_sokol.reservation.table == sokol_two
    # A table of the other club is no table of this one: refused, nothing changed.
    with using_club(home):
        home_two = Table.objects.get(number=2)
    refused = theirs.post(post, {"table": home_two.pk})
    assert refused.status_code == 400 and at_sokol.reservation.table == sokol_two
    # The network's admin edits the league but is no club's desk.
    assert client_at(HOME, netadmin).post(forfeit).status_code == 404
    assert client_at(OTHER, netadmin).post(post, {"table": sokol_two.pk}).status_code == 403
    # A club's admin does not edit the network's league.
    admin = client_at(HOME, staff(home, ADMINS))
    assert admin.post(f"/leagues/{_league.pk}/fixtures/").status_code == 403


def test_a_club_league_is_its_clubs_alone_and_offers_its_roster(network):
    home, sokol, people, _netadmin = network
    with using_club(home):
        league = League.objects.create(name="Лига Лузы", format=[{"race_to": 1}])
        assert league.club == home and not league.network
    assert client_at(OTHER).get(f"/leagues/{league.pk}/").status_code == 404
    assert "Лига Лузы" not in client_at(OTHER).get("/leagues/").content.decode()
    # Its teams come from Луза's roster: Сокол's player is not offered, and refused.
    admin = client_at(HOME, staff(home, ADMINS))
    admin.post(
        f"/leagues/{league.pk}/seasons/",
        {"season-name": "Зима", "season-starts_on": "2027-01-04", "season-weekday": "0"},
    )
    division = league.divisions.create(name="А")
    page = admin.get(f"/leagues/{league.pk}/manage/").content.decode()
    assert "Луза 1" in page and "Сокол 1" not in page and "team-home_club" not in page
    answer = admin.post(
        f"/leagues/{league.pk}/teams/",
        {"team-name": "Х", "team-division": division.pk, "team-captain": people["sokol"][0].pk,
         "team-members": [people["luza"][1].pk]},
    )  # fmt: skip
    assert answer.status_code == 400
    with using_club(home):
        assert not Team.objects.filter(name="Х").exists()


def test_a_network_league_needs_each_teams_home_club(network):
    home, _sokol, people, netadmin = network
    with using_club(home):
        league = League.objects.create(name="Сеть", network=True, format=[{"race_to": 1}])
    desk = client_at(HOME, netadmin)
    desk.post(
        f"/leagues/{league.pk}/seasons/",
        {"season-name": "Зима", "season-starts_on": "2027-01-04", "season-weekday": "0"},
    )
    division = league.divisions.create(name="А")
    answer = desk.post(
        f"/leagues/{league.pk}/teams/",
        {"team-name": "Х", "team-division": division.pk, "team-captain": people["sokol"][0].pk,
         "team-members": [people["luza"][1].pk]},
    )  # fmt: skip
    assert answer.status_code == 400 and "team-home_club" in answer.content.decode()
    with using_club(home):
        assert not Team.objects.filter(name="Х").exists()


def test_the_frames_count_at_the_match_days_club_only(network):
    """The line-ups revealed, the players are on the home club's roster (Луза's player as a
    guest at Сокол): a frame between them at Луза's tables counts for nothing, one at Сокол's
    counts for Сокол's match day."""
    home, sokol, people, _netadmin = network
    _league, _at_home, at_sokol = make_network_league(network)
    home_team, away_team = at_sokol.home, at_sokol.away  # Сокольники, Тверская
    with using_club(sokol):
        for team in (home_team, away_team):
            captain_first = sorted(team.people(), key=lambda p: p.pk != team.captain_id)
            services.lock_line_up(
                match_day=at_sokol, team=team, player_ids=[p.pk for p in captain_first[:2]]
            )
    ours = people[home.slug][0]  # Тверская's captain, of Луза's roster
    assert Membership.everywhere.filter(club=sokol, player=ours, is_guest=True).exists()
    home_player, away_player = home_team.captain, away_team.captain
    account(home_player, "sokol-captain")
    account(away_player, "luza-captain")
    for club, counted in ((home, 0), (sokol, 1)):
        with using_club(club):
            table = Table.objects.get(number=1)
            game = me_services.start_own_game(
                table=table, variant="pyramid_free", player=home_player, opponent=away_player,
                breaks="me", settings={}, user=home_player.user,
            )  # fmt: skip
            game = game_services.record_event(
                game=game, expected_seq=0, event=rules.Event("pot", count=8),
                user=home_player.user,
            )  # fmt: skip
            game_services.finish_game(game=game, user=home_player.user)
            me_services.confirm(game_pk=game.pk, player=away_player)
            first = selectors.games_of(at_sokol)[0]
            assert first.home_frames == counted, club.slug
    # His /me/ at Луза names the match day at Сокол.
    me = client_at(HOME, away_player.user).get("/me/").content.decode()
    assert f'data-match-day="{at_sokol.pk}"' in me and "Сокол" in me.split("data-league", 1)[1]
    assert Player.everywhere.filter(pk=away_player.pk).exists()


def test_a_doubles_game_of_a_network_league_puts_both_pairs_on_the_home_clubs_roster(network):
    """Two captains of two clubs lock their line-ups from their phones, each at his own
    club's address, for the match day at Луза: a singles game each player, a doubles game
    each pair, with a partner of another club's roster. Revealed, every player of the line-ups
    — the pairs' partners too — is on Луза's roster (a guest when not of it), the doubles game
    is pair against pair, scored and confirmed by the captains; the standings' TV board, at
    either club, names the club of each match day."""
    home, sokol, people, _netadmin = network
    league, at_home, _at_sokol = make_network_league(network, doubles=1)
    assert league.format == [{"race_to": 2}] * 2 + [{"race_to": 2, "doubles": True}]
    ours, theirs = people[home.slug], people[sokol.slug]
    # Тверская (Луза 1 captain; Луза 2, Сокол 3) at home; Сокольники (Сокол 1; Сокол 2, Луза 3).
    line_ups = (
        (HOME, ours[0], "tver", [ours[0], ours[1], (ours[1], theirs[2])]),
        (OTHER, theirs[0], "sokolniki", [theirs[0], ours[2], (theirs[0], theirs[1])]),
    )
    sokol_people = [theirs[0], theirs[1], theirs[2]]
    assert not Membership.everywhere.filter(club=home, player__in=sokol_people).exists()
    for host, captain, username, entries in line_ups:
        phone = client_at(host, account(captain, username))
        data = {}
        for order, entry in enumerate(entries, start=1):
            first, partner = entry if isinstance(entry, tuple) else (entry, None)
            data[f"lu-player_{order}"] = first.pk
            if partner is not None:
                data[f"lu-partner_{order}"] = partner.pk
        answer = phone.post(f"/leagues/match-days/{at_home.pk}/line-up/", data)
        assert answer.status_code == 302, answer.content.decode()[:3000]
    at_home.refresh_from_db()
    assert at_home.status == MatchDayStatus.REVEALED
    # Сокол 2 plays the doubles game only, Сокол 3 is a partner only: on Луза's roster too.
    guests = Membership.everywhere.filter(club=home, player__in=sokol_people, is_guest=True)
    assert {m.player_id for m in guests} == {p.pk for p in sokol_people}
    assert not Membership.everywhere.filter(club=home, player=ours[2], is_guest=True).exists()
    with using_club(home):
        games = selectors.games_of(at_home)
        assert [game.doubles for game in games] == [False, False, True]
        pairs = games[2]
        assert (pairs.home_player, pairs.home_partner) == (ours[1], theirs[2])
        assert (pairs.away_player, pairs.away_partner) == (theirs[0], theirs[1])
        assert (games[1].home_player, games[1].away_player) == (ours[1], ours[2])
        # The away captain, of Сокол, is told of the lock and the reveal at his club too.
        told = Notice.objects.filter(match_day=at_home, player=theirs[0])
        assert set(told.values_list("kind", flat=True)) == {
            NoticeKind.OPPONENT_LOCKED,
            NoticeKind.REVEALED,
        }
    page = client_at(HOME).get(f"/leagues/match-days/{at_home.pk}/").content.decode()
    assert "Луза 2 / Сокол 3" in page and "Сокол 1 / Сокол 2" in page
    news = client_at(OTHER, theirs[0].user).get("/me/").content.decode()
    assert "data-league-notices" in news and f"/leagues/match-days/{at_home.pk}/" in news
    # The doubles game from the captains' phones: scored by the home one, confirmed.
    with using_club(home):
        services.score_game(game=pairs, team=at_home.home, home_frames=2, away_frames=1)
        services.confirm_game(game=pairs, team=at_home.away)
        pairs.refresh_from_db()
    assert pairs.status == "confirmed" and pairs.winner == "home"
    # The standings on either club's TV: each match day says where it is played.
    for host in (HOME, OTHER):
        board = client_at(host).get(f"/leagues/{league.pk}/board/").content.decode()
        upcoming = board.split("data-next", 1)[1]
        assert upcoming.count("data-where") == 2
        assert home.name in upcoming and sokol.name in upcoming


def test_the_demo_network_has_a_network_league_of_two_clubs(monkeypatch):
    """Each club's demo cut to what the network's league needs (its tables, its roster of
    the regulars, its own league; the whole of it is tests/clubsite/test_demo_command.py's
    and, per club, tests/clubs/test_walls.py's): the network's league, once."""
    from clubsite.management.commands import load_demo_club

    def club(command, first, slug):
        for row in load_demo_club.demo_tables():
            command.table(*row, topic_prefix="" if first else f"{slug}-")
        for row in load_demo_club.PLAYERS:
            command.player(*row)
        players = list(Player.objects.order_by("pk"))
        load_demo_club.load_demo_league(players=players)

    monkeypatch.setattr(load_demo_club.Command, "club", club)
    out = StringIO()
    call_command("load_demo_club", "--network", stdout=out)
    assert "The network's leagues: 1 created." in out.getvalue()
    clubs = list(Club.objects.order_by("pk"))
    league = League.everywhere.get(club=None)
    assert League.everywhere.filter(club__isnull=False).count() == 3  # each club's own
    with using_club(clubs[0]):
        teams = list(Team.objects.filter(season__league=league))
        days = list(MatchDay.objects.filter(season__league=league).select_related("reservation"))
        assert League.objects.own().get().name == "Лига по средам"
        assert [league.name for league in League.objects.all()] == ["Кубок сети", "Лига по средам"]
    with using_club(clubs[2]):  # Нева: no team of the network's league at home
        assert not MatchDay.hosted.filter(season__league=league).exists()
        assert "Кубок сети" in [league.name for league in League.objects.all()]
    assert {team.home_club for team in teams} == set(clubs[:2])
    assert {day.club for day in days} == set(clubs[:2])
    # From tomorrow on: every night booked at its club, on the club's bookings.
    assert all(day.reservation and day.reservation.club == day.club for day in days)
    for club in clubs[:2]:
        with using_club(club):
            booked = Reservation.objects.filter(name__startswith="Кубок сети: ").count()
        assert booked == sum(day.club == club for day in days)
    out = StringIO()
    call_command("load_demo_club", "--network", stdout=out)  # again: nothing new
    assert "The network's leagues: 0 created." in out.getvalue()
    assert League.everywhere.count() == 4
