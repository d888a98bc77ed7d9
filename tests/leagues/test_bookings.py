"""A league night's table (issue 35 item 1): the fixtures book a table of the league's kind at
the home club through the bookings desk's own service, a postponement moves the booking, a
forfeit or a match day played early frees it; none free: the match day says so and the desk
books one by hand."""

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone, translation

from billing.models import Reservation, ReservationStatus
from leagues import services
from leagues.models import Division, MatchDay, Season
from leagues.services import LeagueError
from tables.models import TableKind
from tests.factories import TableFactory, UserFactory
from tests.leagues.conftest import make_teams
from toolbox.roles import CASHIERS

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


@pytest.fixture
def future_season(league):
    """Four teams on the league's night two weeks from now on: three nights of two match days."""
    division = Division.objects.create(league=league, name="Высшая")
    starts = timezone.localdate() + dt.timedelta(days=14)
    season = Season.objects.create(
        league=league, name="Весна", starts_on=starts, weekday=starts.weekday()
    )
    make_teams(season, division)
    return season


def nights(season):
    """{date: [its match days]}, each read again."""
    found = {}
    for day in MatchDay.objects.filter(season=season).select_related("reservation__table"):
        found.setdefault(day.date, []).append(day)
    return found


def english(client=None):
    """A visitor reading the pages in English."""
    client = client or Client()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def cashier():
    client = english()
    client.force_login(UserFactory(username="kassa", groups=[CASHIERS]))
    return client


def test_the_fixtures_book_a_table_for_each_match_day_at_its_night(future_season):
    TableFactory(number=1)
    TableFactory(number=2)
    services.generate_fixtures(season=future_season)
    by_night = nights(future_season)
    assert len(by_night) == 3
    for date, days in by_night.items():
        assert sorted(day.reservation.table.number for day in days) == [1, 2]
        for day in days:
            booking = day.reservation
            start = timezone.localtime(booking.starts_at)
            assert (start.date(), start.time()) == (date, dt.time(19, 0))
            assert booking.minutes == 3 * 60 and booking.status == ReservationStatus.BOOKED
            assert booking.name == f"Лига среды: {day.home.name} — {day.away.name}"
            assert day.table == booking.table and not day.no_free_table
    # On the bookings page as any booking; on the match day's page with its table.
    page = cashier().get("/billing/bookings/").content.decode()
    assert page.count("Лига среды: ") == 6
    day = by_night[min(by_night)][0]
    shown = english().get(f"/leagues/match-days/{day.pk}/").content.decode()
    assert f"table {day.table.number}, booked 19:00–22:00" in shown


def test_the_league_night_and_the_table_kind_are_the_leagues(future_season):
    league = future_season.league
    league.starts_at, league.hours, league.table_kind = dt.time(18, 30), 4, TableKind.PYRAMID_11
    league.save()
    TableFactory(number=1)  # 12 ft: not the league's kind
    TableFactory(number=2, kind=TableKind.PYRAMID_11)
    services.generate_fixtures(season=future_season)
    for days in nights(future_season).values():
        booked = [day for day in days if day.reservation]
        assert [day.reservation.table.number for day in booked] == [2]
        assert timezone.localtime(booked[0].reservation.starts_at).time() == dt.time(18, 30)
        assert booked[0].reservation.minutes == 4 * 60
        assert [day.no_free_table for day in days if not day.reservation] == [True]


def test_no_table_free_the_match_day_says_so_and_the_desk_books_one(future_season):
    only = TableFactory(number=1)
    services.generate_fixtures(season=future_season)
    first_night = nights(future_season)[min(nights(future_season))]
    booked, missing = sorted(first_night, key=lambda day: day.reservation is None)
    assert booked.reservation.table == only
    assert missing.reservation is None and missing.no_free_table
    page = english().get(f"/leagues/match-days/{missing.pk}/").content.decode()
    assert "data-no-table" in page and "No table is free at" in page
    assert "the desk books one by hand" in page
    # The desk's list names it; the table taken that night is not offered.
    desk = cashier()
    manage = desk.get(f"/leagues/{future_season.league_id}/manage/").content.decode()
    assert f'data-match-day="{missing.pk}"' in manage and "no table free that evening" in manage
    assert "data-all-taken" in manage and 'action="/leagues/match-days/' not in manage
    # The taken table: refused with the booking desk's reason, nothing changed.
    refused = desk.post(f"/leagues/match-days/{missing.pk}/table/", {"table": only.pk})
    assert refused.status_code == 400
    assert "Table 1 is already booked" in refused.content.decode()
    missing.refresh_from_db()
    assert missing.reservation is None and Reservation.objects.count() == 3
    # Bad input: a clear 400.
    for bad in ({"table": "abc"}, {}, {"table": "99999"}):
        assert desk.post(f"/leagues/match-days/{missing.pk}/table/", bad).status_code == 400
    # A small table of another kind, booked by hand.
    small = TableFactory(number=7, kind=TableKind.PYRAMID_9)
    answer = desk.post(f"/leagues/match-days/{missing.pk}/table/", {"table": small.pk})
    assert answer.status_code == 302
    missing.refresh_from_db()
    assert missing.reservation.table == small and not missing.no_free_table
    assert (
        "data-no-table" not in english().get(f"/leagues/match-days/{missing.pk}/").content.decode()
    )
    # The other match day may not take it now: refused, its own booking kept.
    again = desk.post(f"/leagues/match-days/{booked.pk}/table/", {"table": small.pk})
    assert again.status_code == 400 and "Table 7 is already booked" in again.content.decode()
    booked.reservation.refresh_from_db()
    assert booked.reservation.status == ReservationStatus.BOOKED


def test_picking_a_table_cancels_the_old_booking(future_season):
    TableFactory(number=1)
    services.generate_fixtures(season=future_season)
    day = next(d for d in nights(future_season)[min(nights(future_season))] if d.reservation)
    old = day.reservation
    other = TableFactory(number=2)
    user = UserFactory(username="desk")
    services.pick_table(match_day=day, table_id=other.pk, user=user)
    day.refresh_from_db()
    old.refresh_from_db()
    assert old.status == ReservationStatus.CANCELLED
    assert day.reservation.table == other and day.table == other
    with pytest.raises(LeagueError, match="already booked for the match day"):
        services.pick_table(match_day=day, table_id=other.pk, user=user)


def test_a_postponement_moves_the_booking(future_season):
    TableFactory(number=1)
    TableFactory(number=2)
    services.generate_fixtures(season=future_season)
    day = MatchDay.objects.filter(season=future_season).order_by("date", "pk").last()
    old = day.reservation
    new_date = day.date + dt.timedelta(days=2)
    services.propose_date(match_day=day, team=day.home, date=new_date)
    services.accept_date(match_day=day, team=day.away)
    day.refresh_from_db()
    old.refresh_from_db()
    assert old.status == ReservationStatus.CANCELLED
    booking = day.reservation
    assert booking.pk != old.pk and booking.table == old.table  # its table, free that night
    start = timezone.localtime(booking.starts_at)
    assert (start.date(), start.time()) == (new_date, dt.time(19, 0))


def test_a_postponement_to_a_full_night_says_no_table_is_free(future_season):
    table = TableFactory(number=1)
    services.generate_fixtures(season=future_season)
    day = next(d for d in nights(future_season)[min(nights(future_season))] if d.reservation)
    new_date = day.date + dt.timedelta(days=1)
    start = timezone.make_aware(dt.datetime.combine(new_date, dt.time(18, 0)))
    Reservation.objects.create(
        table=table, name="Сергей", phone="+7 912 345-67-89", starts_at=start,
        ends_at=start + dt.timedelta(hours=5),
    )  # fmt: skip
    services.propose_date(match_day=day, team=day.away, date=new_date)
    services.accept_date(match_day=day, team=day.home)
    day.refresh_from_db()
    assert day.reservation is None and day.no_free_table
    assert Reservation.objects.filter(name__startswith="Лига среды", status="booked").count() == 2


def test_a_forfeit_frees_the_table_and_keeps_the_booking_on_the_match_day(future_season):
    TableFactory(number=1)
    TableFactory(number=2)
    services.generate_fixtures(season=future_season)
    first, second = nights(future_season)[min(nights(future_season))]
    services.forfeit(match_day=first, team=first.away)
    first.refresh_from_db()
    assert first.reservation.status == ReservationStatus.CANCELLED
    # A booking the desk has claimed (the clock runs) stays claimed: the history.
    Reservation.objects.filter(pk=second.reservation_id).update(status=ReservationStatus.CLAIMED)
    services.forfeit(match_day=second, team=second.home)
    second.refresh_from_db()
    assert second.reservation.status == ReservationStatus.CLAIMED


def test_a_match_day_played_before_its_night_frees_the_table(future_season):
    TableFactory(number=1)
    TableFactory(number=2)
    services.generate_fixtures(season=future_season)
    day = MatchDay.objects.filter(season=future_season).order_by("date", "pk").first()
    for team in (day.home, day.away):
        members = sorted(team.people(), key=lambda player: player.pk)[:2]
        services.lock_line_up(match_day=day, team=team, player_ids=[p.pk for p in members])
    for game in day.games.all():
        services.score_game(game=game, team=day.home, home_frames=2, away_frames=0)
        services.confirm_game(game=game, team=day.away)
    day.refresh_from_db()
    assert day.status == "closed" and day.reservation.status == ReservationStatus.CANCELLED


def test_a_night_already_past_books_nothing_and_says_nothing(season):
    TableFactory(number=1)
    services.generate_fixtures(season=season)  # September 2026: past
    days = list(MatchDay.objects.filter(season=season))
    assert all(day.reservation is None and not day.no_free_table for day in days)
    assert not Reservation.objects.exists()
    page = english().get(f"/leagues/match-days/{days[0].pk}/").content.decode()
    assert "data-no-table" not in page and "no table booked" in page
    with pytest.raises(LeagueError, match="has begun"):
        services.pick_table(match_day=days[0], table_id=TableFactory(number=1).pk, user=None)
