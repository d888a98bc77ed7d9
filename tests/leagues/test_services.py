"""A season of four teams played through the services: the fixtures, a match day with its
line-ups locked blind (one refused by the cap, with its numbers), its games scored and
confirmed or played at a table, a forfeit, a postponement, and the standings by hand; a
doubles game (its line-up rules, the cap counting each player once, scored by the captains
only); a captain's draft; what each write tells the captains, and the day-before reminder."""

import datetime as dt

import pytest
from django.utils import translation

from games import rules
from games import services as game_services
from leagues import selectors, services
from leagues.models import CapKind, GameStatus, LineUp, MatchDay, MatchDayStatus, Notice, NoticeKind
from leagues.services import LeagueError
from me import services as me_services
from players.models import SkillClass
from tests.factories import TableFactory
from tests.me.conftest import account

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    """The refusals read in English here (their Russian is the catalog's)."""
    with translation.override("en"):
        yield


def first_day(season):
    services.generate_fixtures(season=season)
    return MatchDay.objects.filter(season=season).order_by("date", "pk").first()


def ids(team, *names):
    """The line-up's entries from the members' numbers: 2 → a player, (1, 3) → a pair."""
    members = {p.full_name: p.pk for p in team.members.all()}

    def pk(n):
        return members[f"{team.name} {n}"]

    return [[pk(n[0]), pk(n[1])] if isinstance(n, tuple) else pk(n) for n in names]


def lock(day, team, *names):
    return services.lock_line_up(match_day=day, team=team, player_ids=ids(team, *names))


def told(kind):
    """Who was told ``kind``: the players' names, in order."""
    return [n.player.full_name for n in Notice.objects.filter(kind=kind).order_by("pk")]


def test_the_fixtures_of_four_teams_on_wednesdays_a_holiday_skipped(season):
    days = services.generate_fixtures(season=season)
    assert len(days) == 6
    dates = sorted({day.date for day in days})
    assert dates == [dt.date(2026, 9, 2), dt.date(2026, 9, 16), dt.date(2026, 9, 23)]
    pairs = {frozenset((day.home_id, day.away_id)) for day in days}
    assert len(pairs) == 6
    with pytest.raises(LeagueError, match="already has its fixtures"):
        services.generate_fixtures(season=season)


def test_line_ups_are_hidden_until_both_are_locked_then_revealed_at_once(season):
    day = first_day(season)
    lock(day, day.home, 1, 2)
    day.refresh_from_db()
    assert day.status == MatchDayStatus.SCHEDULED
    # Its own captain sees it; the other captain and the public do not.
    home_view = selectors.sides(day, day.home)
    assert [slot.names for slot in home_view[0].slots] == [
        f"{day.home.name} 1",
        f"{day.home.name} 2",
    ]
    for viewer in (day.away, None):
        shown = selectors.sides(day, viewer)
        assert shown[0].hidden and shown[0].slots == []
    assert selectors.games_of(day) == []
    lock(day, day.away, 3, 1)
    day.refresh_from_db()
    assert day.status == MatchDayStatus.REVEALED
    for viewer in (day.home, day.away, None):
        shown = selectors.sides(day, viewer)
        assert not shown[0].hidden and not shown[1].hidden
    games = selectors.games_of(day)
    assert [(g.home_player.full_name, g.away_player.full_name) for g in games] == [
        (f"{day.home.name} 1", f"{day.away.name} 3"),
        (f"{day.home.name} 2", f"{day.away.name} 1"),
    ]
    with pytest.raises(LeagueError, match="already revealed"):
        lock(day, day.home, 1, 2)


def test_the_cap_refuses_a_line_up_with_its_numbers(season):
    day = first_day(season)
    strong = day.away.members.get(full_name=f"{day.away.name} 2")
    strong.skill_class = SkillClass.MASTER  # 6 points: 6 + 2 > 6
    strong.save()
    with pytest.raises(LeagueError) as refused:
        lock(day, day.away, 1, 2)
    assert refused.value.message == "Your line-up sums 8 > the cap 6."
    assert not day.line_ups.filter(locked_at__isnull=False).exists()
    lock(day, day.away, 1, 3)  # 2 + 2


def test_a_cap_of_ratings_sums_the_ratings(season):
    league = season.league
    league.cap_kind, league.cap_limit = CapKind.RATING, 3800
    league.save()
    day = first_day(season)
    for member in day.home.members.all():
        member.skill_class = SkillClass.CANDIDATE_MASTER  # starts at 1950
        member.save()
    with pytest.raises(LeagueError) as refused:
        lock(day, day.home, 1, 2)
    assert refused.value.message == "Your line-up sums 3,900 > the cap 3,800."


def test_a_line_up_of_strangers_or_twice_the_same_is_refused(season):
    day = first_day(season)
    with pytest.raises(LeagueError, match="two singles games"):
        lock(day, day.home, 1, 1)
    with pytest.raises(LeagueError):
        services.lock_line_up(
            match_day=day, team=day.home, player_ids=[day.away.captain_id, day.home.captain_id]
        )
    with pytest.raises(LeagueError):
        lock(day, day.home, 1)


def test_a_match_day_scored_by_the_home_captain_confirmed_by_the_away_one(season):
    day = first_day(season)
    lock(day, day.home, 1, 2)
    lock(day, day.away, 1, 2)
    first, second = selectors.games_of(day)
    with pytest.raises(LeagueError, match="home captain"):
        services.score_game(game=first, team=day.away, home_frames=2, away_frames=0)
    with pytest.raises(LeagueError):
        services.score_game(game=first, team=day.home, home_frames=2, away_frames=2)
    services.score_game(game=first, team=day.home, home_frames=2, away_frames=1)
    with pytest.raises(LeagueError, match="away captain"):
        services.confirm_game(game=first, team=day.home)
    services.confirm_game(game=first, team=day.away)
    day.refresh_from_db()
    assert day.status == MatchDayStatus.REVEALED  # one game to go
    services.score_game(game=second, team=day.home, home_frames=2, away_frames=0)
    services.confirm_game(game=second, team=day.away)
    day.refresh_from_db()
    assert (day.status, day.home_frames, day.away_frames) == (MatchDayStatus.CLOSED, 2, 0)
    table = selectors.standings(season, day.division)
    assert [(s.team.pk, s.row.points) for s in table[:1]] == [(day.home_id, 2)]


def test_a_frame_played_at_a_table_counts_for_its_game(season):
    day = first_day(season)
    lock(day, day.home, 1, 2)
    lock(day, day.away, 1, 2)
    home_player, away_player = day.home.captain, day.away.captain
    account(home_player, "home")
    table = TableFactory(number=3)
    for _frame in range(2):
        game = me_services.start_own_game(
            table=table, variant="pyramid_free", player=home_player, opponent=away_player,
            breaks="me", settings={}, user=home_player.user,
        )  # fmt: skip
        game = game_services.record_event(
            game=game, expected_seq=0, event=rules.Event("pot", count=8), user=home_player.user
        )
        game_services.finish_game(game=game, user=home_player.user)
        first = selectors.games_of(day)[0]
        assert first.home_frames == _frame  # not before it is confirmed
        me_services.confirm(game_pk=game.pk, player=away_player)
    first = selectors.games_of(day)[0]
    assert (first.home_frames, first.away_frames, first.status) == (2, 0, GameStatus.CONFIRMED)
    assert first.game_id == game.pk


def test_a_forfeit_and_a_postponement(season):
    services.generate_fixtures(season=season)
    days = list(MatchDay.objects.filter(season=season).order_by("date", "pk"))
    first, second = days[0], days[1]
    services.forfeit(match_day=first, team=first.away)
    first.refresh_from_db()
    assert (first.status, first.home_frames, first.away_frames) == ("forfeited", 2, 0)
    with pytest.raises(LeagueError, match="over"):
        services.forfeit(match_day=first, team=first.home)
    new_date = dt.date(2026, 10, 7)
    with pytest.raises(LeagueError, match="No new date"):
        services.accept_date(match_day=second, team=second.away)
    services.propose_date(match_day=second, team=second.home, date=new_date)
    with pytest.raises(LeagueError, match="other captain"):
        services.accept_date(match_day=second, team=second.home)
    services.accept_date(match_day=second, team=second.away)
    second.refresh_from_db()
    assert (second.date, second.postponed_from) == (new_date, dt.date(2026, 9, 2))


def test_the_standings_by_hand(season):
    """Round 1: H1 beats A1 by 2 games to 0, A2 forfeits to H2. The league gives 2/1/0 and
    a forfeit costs 1 point more: H1 2 points (2:0), H2 2 (2:0), A1 0 (0:2), A2 −1 (0:2).
    H1 and H2 tie on everything (they have not met): both at place 1."""
    services.generate_fixtures(season=season)
    days = list(MatchDay.objects.filter(season=season, round=1).order_by("pk"))
    played, forfeited = days
    lock(played, played.home, 1, 2)
    lock(played, played.away, 1, 2)
    for game in selectors.games_of(played):
        services.score_game(game=game, team=played.home, home_frames=2, away_frames=1)
        services.confirm_game(game=game, team=played.away)
    services.forfeit(match_day=forfeited, team=forfeited.away)
    table = selectors.standings(season, played.division)
    rows = {
        s.team.pk: (s.row.place, s.row.points, s.row.frames_won, s.row.frames_lost) for s in table
    }
    assert rows == {
        played.home_id: (1, 2, 2, 0),
        forfeited.home_id: (1, 2, 2, 0),
        played.away_id: (3, 0, 0, 2),
        forfeited.away_id: (4, -1, 0, 2),
    }


# --- doubles --------------------------------------------------------------------------------


def test_a_doubles_line_up_names_a_pair_and_keeps_the_rules(doubles_season):
    day = first_day(doubles_season)
    home = day.home
    with pytest.raises(LeagueError, match="two different players"):
        lock(day, home, 1, 2, (3, 3))
    with pytest.raises(LeagueError, match="two singles games"):
        lock(day, home, 1, 1, (2, 3))
    with pytest.raises(LeagueError, match="each of the 3 games"):
        lock(day, home, 1, 2, 3)  # a player where a pair is due
    with pytest.raises(LeagueError, match="each of the 3 games"):
        services.lock_line_up(match_day=day, team=home, player_ids=ids(home, 1, 2) + [[None, 1]])
    stranger = day.away.captain_id
    with pytest.raises(LeagueError, match="team's members"):
        services.lock_line_up(
            match_day=day, team=home, player_ids=ids(home, 1, 2) + [[stranger, 1]]
        )
    assert not LineUp.objects.filter(locked_at__isnull=False).exists()
    # One singles and one doubles game each, as league formats allow.
    line_up = lock(day, home, 1, 2, (1, 2))
    assert line_up.players == ids(home, 1, 2, (1, 2))


def test_the_cap_counts_each_player_of_the_line_up_once(doubles_season):
    day = first_day(doubles_season)
    # Three players of the 3rd class (2 points each) in four places: 6, within the cap of 6.
    assert lock(day, day.home, 1, 2, (1, 3)).cap_total == 6
    assert lock(day, day.away, 1, 2, (1, 2)).cap_total == 4


def test_a_master_in_the_pair_only_is_counted_for_the_cap(doubles_season):
    day = first_day(doubles_season)
    strong = day.away.members.get(full_name=f"{day.away.name} 3")
    strong.skill_class = SkillClass.MASTER
    strong.save()
    with pytest.raises(LeagueError) as refused:
        lock(day, day.away, 1, 2, (1, 3))
    assert refused.value.message == "Your line-up sums 10 > the cap 6."


def test_the_doubles_game_is_set_with_both_pairs_and_scored_by_the_captains(doubles_season):
    day = first_day(doubles_season)
    lock(day, day.home, 1, 2, (2, 3))
    lock(day, day.away, 3, 1, (1, 2))
    games = selectors.games_of(day)
    assert [g.doubles for g in games] == [False, False, True]
    pair = games[2]
    assert (pair.home_names, pair.away_names, pair.race_to) == (
        f"{day.home.name} 2 / {day.home.name} 3",
        f"{day.away.name} 1 / {day.away.name} 2",
        1,
    )
    assert games[0].home_names == f"{day.home.name} 1"
    for game in games:
        race = game.race_to
        services.score_game(game=game, team=day.home, home_frames=race, away_frames=0)
        services.confirm_game(game=game, team=day.away)
    day.refresh_from_db()
    assert (day.status, day.home_frames, day.away_frames) == (MatchDayStatus.CLOSED, 3, 0)


def test_a_frame_at_a_table_never_counts_for_a_doubles_game(doubles_season):
    """The console's games seat players, not pairs: a frame between the first players of the
    two pairs is no frame of the doubles game."""
    day = first_day(doubles_season)
    lock(day, day.home, 2, 3, (1, 2))
    lock(day, day.away, 2, 3, (1, 2))
    home_player, away_player = day.home.captain, day.away.captain  # "… 1": the pairs' first
    account(home_player, "home")
    game = me_services.start_own_game(
        table=TableFactory(number=4), variant="pyramid_free", player=home_player,
        opponent=away_player, breaks="me", settings={}, user=home_player.user,
    )  # fmt: skip
    game = game_services.record_event(
        game=game, expected_seq=0, event=rules.Event("pot", count=8), user=home_player.user
    )
    game_services.finish_game(game=game, user=home_player.user)
    me_services.confirm(game_pk=game.pk, player=away_player)
    assert [(g.home_frames, g.away_frames, g.status) for g in selectors.games_of(day)] == [
        (0, 0, GameStatus.WAITING)
    ] * 3


# --- the captain's draft --------------------------------------------------------------------


def test_a_draft_is_saved_changed_with_its_cap_then_locked(doubles_season):
    day = first_day(doubles_season)
    home = day.home
    draft = services.save_line_up(
        match_day=day, team=home, player_ids=ids(home, 1) + [None, [ids(home, 2)[0], None]]
    )
    assert (draft.locked_at, draft.cap_total) == (None, 4)  # two players chosen so far
    # Nobody else sees it, nor that it exists; the other captain is told nothing.
    for viewer in (day.away, None):
        assert selectors.sides(day, viewer)[0].hidden
    mine = selectors.sides(day, home)[0]
    assert mine.draft and [slot.names for slot in mine.slots] == [
        f"{home.name} 1",
        "—",
        f"{home.name} 2 / —",
    ]
    assert not Notice.objects.exists()
    # Over the cap, a draft is saved all the same (the lock would refuse it).
    strong = home.members.get(full_name=f"{home.name} 3")
    strong.skill_class = SkillClass.MASTER
    strong.save()
    draft = services.save_line_up(match_day=day, team=home, player_ids=ids(home, 1, 3, (1, 2)))
    assert draft.cap_total == 10 and services.over_cap(day.season.league, draft.cap_total)
    with pytest.raises(LeagueError, match="10 > the cap 6"):
        services.lock_line_up(match_day=day, team=home, player_ids=draft.players)
    # A draft still breaks no rule.
    with pytest.raises(LeagueError, match="two different players"):
        services.save_line_up(match_day=day, team=home, player_ids=ids(home, 1, 2, (2, 2)))
    draft = services.save_line_up(match_day=day, team=home, player_ids=ids(home, 1, 2, (1, 2)))
    lock(day, home, 1, 2, (1, 2))
    line_up = LineUp.objects.get(team=home)
    assert line_up.locked_at is not None and line_up.saved_at is not None
    assert line_up.players == ids(home, 1, 2, (1, 2)) and line_up.cap_total == 4
    with pytest.raises(LeagueError, match="already locked"):
        services.save_line_up(match_day=day, team=home, player_ids=ids(home, 1, 3, (1, 2)))


# --- what the captains are told -------------------------------------------------------------


def test_each_step_of_a_match_day_tells_the_captain_it_concerns(doubles_season):
    day = first_day(doubles_season)
    home, away = day.home.captain.full_name, day.away.captain.full_name
    lock(day, day.home, 1, 2, (1, 2))
    assert told(NoticeKind.OPPONENT_LOCKED) == [away]
    lock(day, day.away, 1, 2, (1, 2))
    assert told(NoticeKind.OPPONENT_LOCKED) == [away]  # not again: both are revealed
    assert told(NoticeKind.REVEALED) == [home, away]
    pair = selectors.games_of(day)[2]
    services.score_game(game=pair, team=day.home, home_frames=1, away_frames=0)
    notice = Notice.objects.get(kind=NoticeKind.TO_CONFIRM)
    assert (notice.player.full_name, notice.game_id) == (away, pair.pk)
    new_date = dt.date(2026, 9, 30)
    services.propose_date(match_day=day, team=day.away, date=new_date)
    services.accept_date(match_day=day, team=day.home)
    assert told(NoticeKind.DATE_PROPOSED) == [home] and told(NoticeKind.DATE_ACCEPTED) == [away]
    assert {n.date for n in Notice.objects.filter(kind__in=["proposed", "accepted"])} == {new_date}
    services.forfeit(match_day=day, team=day.home)
    assert told(NoticeKind.FORFEIT) == [home, away]
    assert not Notice.objects.filter(sent_at__isnull=False).exists()


def test_the_day_before_a_captain_whose_line_up_is_not_locked_is_reminded_once(season):
    services.generate_fixtures(season=season)
    day = MatchDay.objects.filter(season=season).order_by("date", "pk").first()  # 2 Sept
    later = MatchDay.objects.filter(season=season).exclude(date=day.date).first()
    lock(day, day.home, 1, 2)
    Notice.objects.all().delete()
    two_days_before = dt.datetime(2026, 8, 31, 12, tzinfo=dt.UTC)
    services.remind_all(now=two_days_before)
    assert not Notice.objects.exists()
    evening_before = dt.datetime(2026, 9, 1, 18, tzinfo=dt.UTC)
    services.remind_all(now=evening_before)
    services.remind_all(now=evening_before + dt.timedelta(hours=3))  # once
    reminded = Notice.objects.filter(kind=NoticeKind.REMINDER)
    captains = {d.away.captain.full_name for d in MatchDay.objects.filter(date=day.date)} | {
        d.home.captain.full_name for d in MatchDay.objects.filter(date=day.date).exclude(pk=day.pk)
    }  # every captain of the night but the one who locked
    assert sorted(n.player.full_name for n in reminded) == sorted(captains)
    assert {n.date for n in reminded} == {day.date}
    assert not reminded.filter(match_day=later).exists()
    # Moved to a new date: reminded again the day before it.
    services.propose_date(match_day=day, team=day.home, date=dt.date(2026, 9, 10))
    services.accept_date(match_day=day, team=day.away)
    services.remind_all(now=dt.datetime(2026, 9, 9, 12, tzinfo=dt.UTC))
    again = Notice.objects.filter(kind=NoticeKind.REMINDER, match_day=day)
    assert sorted((n.player_id, n.date) for n in again) == [
        (day.away.captain_id, dt.date(2026, 9, 2)),
        (day.away.captain_id, dt.date(2026, 9, 10)),
    ]
