"""The leagues' reads: what the captains are told, in words (each kind, in English and in
Russian); the TV board's last results and next match days; a player's next match days with
his own line-up as he left it."""

import datetime as dt

import pytest
from django.utils import translation

from leagues import selectors, services
from leagues.models import MatchDay, MatchDayStatus, Notice, NoticeKind

from .test_services import first_day, ids, lock

pytestmark = pytest.mark.django_db


def texts(player):
    return [told.text for told in selectors.notices(player, limit=20)][::-1]


def test_every_notice_in_words_for_the_captain_it_concerns(doubles_season):
    day = first_day(doubles_season)
    head = f"Лига пар, {day.home.name} — {day.away.name}"
    lock(day, day.home, 1, 2, (1, 2))
    lock(day, day.away, 3, 2, (2, 3))
    pair = selectors.games_of(day)[2]
    services.score_game(game=pair, team=day.home, home_frames=1, away_frames=0)
    services.propose_date(match_day=day, team=day.away, date=dt.date(2026, 9, 30))
    services.accept_date(match_day=day, team=day.home)
    services.forfeit(match_day=day, team=day.home)
    with translation.override("en"):
        assert texts(day.away.captain) == [
            f"{head}: {day.home.name} locked its line-up. Lock yours.",
            f"{head}: both line-ups are revealed.",
            f"{head}: game 3 ({day.home.name} 1 / {day.home.name} 2 — {day.away.name} 2 / "
            f"{day.away.name} 3) scored 1:0. Confirm it.",
            f"{head}: the new date 30 September is accepted.",
            f"{head}: a forfeit by {day.home.name} is recorded.",
        ]
        assert texts(day.home.captain) == [
            f"{head}: both line-ups are revealed.",
            f"{head}: {day.away.name} proposes a new date, 30 September.",
            f"{head}: a forfeit by {day.home.name} is recorded.",
        ]
    with translation.override("ru"):
        russian = texts(day.away.captain)
    assert russian[0] == f"{head}: «{day.home.name}» — состав зафиксирован. Зафиксируйте свой."
    assert russian[3] == f"{head}: новая дата 30 сентября принята."


def test_the_reminder_in_words(season):
    day = first_day(season)
    services.remind_all(now=dt.datetime(2026, 9, 1, 12, tzinfo=dt.UTC))
    notice = Notice.objects.get(kind=NoticeKind.REMINDER, player=day.home.captain)
    with translation.override("en"):
        assert selectors.notice_text(notice) == (
            f"Лига среды, {day.home.name} — {day.away.name} on 2 September: "
            "your line-up is not locked yet."
        )


def test_the_boards_last_results_and_next_match_days(season):
    services.generate_fixtures(season=season)
    days = list(MatchDay.objects.filter(season=season).order_by("date", "pk"))
    first, second, third = days[:3]
    services.forfeit(match_day=first, team=first.away)
    lock(second, second.home, 1, 2)
    lock(second, second.away, 1, 2)
    game = selectors.games_of(second)[0]
    services.score_game(game=game, team=second.home, home_frames=2, away_frames=0)
    services.confirm_game(game=game, team=second.away)
    assert [d.pk for d in selectors.last_results(season)] == [first.pk]
    upcoming = selectors.next_match_days(season, limit=2)
    assert [(u.day.pk, u.day.status, u.score) for u in upcoming] == [
        (second.pk, MatchDayStatus.REVEALED, (1, 0)),
        (third.pk, MatchDayStatus.SCHEDULED, (0, 0)),
    ]
    assert selectors.last_results(None) == [] and selectors.next_match_days(None) == []


def test_a_captains_next_match_days_show_his_draft_a_members_do_not(doubles_season):
    day = first_day(doubles_season)
    captain = day.home.captain
    services.save_line_up(
        match_day=day, team=day.home, player_ids=ids(day.home, 1, 2) + [[None, None]]
    )
    mine = selectors.match_days_of(captain)[0]
    assert (mine.day.pk, mine.captain, mine.side.draft) == (day.pk, True, True)
    assert [slot.names for slot in mine.side.slots] == [
        f"{day.home.name} 1",
        f"{day.home.name} 2",
        "— / —",
    ]
    member = day.home.members.get(full_name=f"{day.home.name} 2")
    theirs = selectors.match_days_of(member)[0]
    assert (theirs.captain, theirs.side) == (False, None)
    # The other captain sees his own (none yet), never this one.
    other = selectors.match_days_of(day.away.captain)[0]
    assert (other.side.team, other.side.slots) == (day.away, [])
