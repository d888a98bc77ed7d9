"""A ladder month as its players live it: challenges made and refused with their reasons,
accepted and played on the console, one not answered by its deadline, one player idle."""

from datetime import timedelta
from unittest import mock

import pytest

from games import services as game_services
from ladder import selectors, services
from ladder.models import Challenge, ChallengeStatus, Notice, NoticeKind
from tests.factories import TableFactory, UserFactory
from tournaments.simulate import play_frame

from .conftest import START

DAY = timedelta(days=1)


def names(ladder):
    people = {p.pk: p.full_name.split()[0] for p in selectors.Player.everywhere.all()}
    return [people[pk] for pk in selectors.order(ladder)]


def play(winner, loser, *, at, first=None, variant="pyramid_free"):
    """A game played through the console at ``at``, ``winner`` winning."""
    marker = UserFactory()
    seats = [winner, loser] if first is None else first
    with mock.patch("django.utils.timezone.now", return_value=at):
        game = game_services.start_game(
            table=TableFactory(), variant=variant, settings={}, seats=seats, marker=marker
        )
        play_frame(game, seats.index(winner), user=marker)
        game.refresh_from_db()
        return game_services.finish_game(game=game, user=marker)


@pytest.mark.django_db
def test_a_ladder_month(ladder, five):
    anna, boris, vera, gleb, darya = five
    assert names(ladder) == ["Анна", "Борис", "Вера", "Глеб", "Дарья"]

    # Day 1: Дарья (5th) may reach 2 places up: not Бориса (2nd) — the rule says so.
    with pytest.raises(services.LadderError) as refused:
        services.challenge(ladder=ladder, challenger=darya, challenged=boris, now=START + DAY)
    assert "2 places above" in str(refused.value.message) or "2 места" in str(refused.value.message)
    first = services.challenge(ladder=ladder, challenger=darya, challenged=vera, now=START + DAY)
    assert Notice.objects.filter(player=vera, kind=NoticeKind.CHALLENGED).exists()
    # A second challenge while hers is open: the most the ladder allows is 1.
    with pytest.raises(services.LadderError):
        services.challenge(ladder=ladder, challenger=darya, challenged=gleb, now=START + DAY)

    # Day 2: Вера accepts; day 4 they play on the console and Дарья wins: she takes 3rd.
    services.accept(challenge=first, player=vera, now=START + 2 * DAY)
    with pytest.raises(services.LadderError):  # a second tap on "accept"
        services.accept(challenge=first, player=vera, now=START + 2 * DAY)
    play(darya, vera, at=START + 4 * DAY)
    first.refresh_from_db()
    assert first.status == ChallengeStatus.PLAYED and first.winner == darya
    assert names(ladder) == ["Анна", "Борис", "Дарья", "Вера", "Глеб"]

    # Day 5: Глеб (5th) challenges Веру (4th); she does not answer in 3 days: her place is his.
    second = services.challenge(
        ladder=ladder, challenger=gleb, challenged=vera, now=START + 5 * DAY
    )
    services.settle(ladder=ladder, now=START + 8 * DAY - timedelta(minutes=1))
    second.refresh_from_db()
    assert second.status == ChallengeStatus.OPEN
    services.settle(ladder=ladder, now=START + 8 * DAY)
    second.refresh_from_db()
    assert second.status == ChallengeStatus.FORFEITED
    assert names(ladder) == ["Анна", "Борис", "Дарья", "Глеб", "Вера"]
    assert Notice.objects.filter(player=vera, kind=NoticeKind.FORFEITED).exists()

    # Day 9: Глеб again at Веру? She is below him now. At Дарью — they never met: allowed;
    # Вера at Глеба within 14 days of their last challenge: refused, with the time left.
    with pytest.raises(services.LadderError) as rematch:
        services.challenge(ladder=ladder, challenger=vera, challenged=gleb, now=START + 9 * DAY)
    assert rematch.value.message.count(":")  # "… from 19 Nov, 19:00" says until when

    # Day 31: Анна and Борис have played no ladder game for 30 days: each loses a place,
    # both below the next player who plays: Дарья.
    services.settle(ladder=ladder, now=START + 31 * DAY)
    assert names(ladder) == ["Дарья", "Анна", "Борис", "Глеб", "Вера"]
    assert sorted(
        Notice.objects.filter(kind=NoticeKind.DROPPED).values_list("player__full_name", flat=True)
    ) == ["Анна Первая", "Борис Второй"]
    services.settle(ladder=ladder, now=START + 31 * DAY)  # settled twice: nothing more
    assert Notice.objects.filter(kind=NoticeKind.DROPPED).count() == 2


@pytest.mark.django_db
def test_the_challenged_wins_and_keeps_the_place(ladder, five):
    anna, boris, *_ = five
    made = services.challenge(ladder=ladder, challenger=boris, challenged=anna, now=START)
    services.accept(challenge=made, player=anna, now=START)
    play(anna, boris, first=[boris, anna], at=START + DAY)
    assert names(ladder)[:2] == ["Анна", "Борис"]
    made.refresh_from_db()
    assert made.winner == anna


@pytest.mark.django_db
def test_an_accepted_challenge_not_played_lapses_with_a_reminder_the_day_before(ladder, five):
    anna, boris, *_ = five
    made = services.challenge(ladder=ladder, challenger=boris, challenged=anna, now=START)
    services.accept(challenge=made, player=anna, now=START)
    services.settle(ladder=ladder, now=START + 6 * DAY + timedelta(hours=1))
    assert Notice.objects.filter(kind=NoticeKind.REMINDER).count() == 2  # both players
    services.settle(ladder=ladder, now=START + 7 * DAY)
    made.refresh_from_db()
    assert made.status == ChallengeStatus.LAPSED
    assert names(ladder)[:2] == ["Анна", "Борис"]


@pytest.mark.django_db
def test_only_the_challenged_answers_and_only_the_challenger_withdraws(ladder, five):
    anna, boris, vera, *_ = five
    made = services.challenge(ladder=ladder, challenger=boris, challenged=anna, now=START)
    for service, who in (
        (services.accept, boris),
        (services.decline, vera),
        (services.withdraw, anna),
    ):
        with pytest.raises(services.LadderError):
            service(challenge=made, player=who, now=START)
    services.withdraw(challenge=made, player=boris, now=START)
    assert Challenge.objects.get().status == ChallengeStatus.WITHDRAWN
    assert names(ladder)[:2] == ["Анна", "Борис"]


@pytest.mark.django_db
def test_a_game_of_another_variant_decides_nothing(ladder, five):
    anna, boris, *_ = five
    made = services.challenge(ladder=ladder, challenger=boris, challenged=anna, now=START)
    services.accept(challenge=made, player=anna, now=START)
    play(boris, anna, at=START + DAY, variant="pyramid_dynamic")
    made.refresh_from_db()
    assert made.status == ChallengeStatus.ACCEPTED


@pytest.mark.django_db
def test_nobody_idle_is_lifted_by_the_others_idleness(ladder, five):
    # Nobody has played for two periods: nobody has anyone active to go below.
    services.settle(ladder=ladder, now=START + 61 * DAY)
    assert names(ladder) == ["Анна", "Борис", "Вера", "Глеб", "Дарья"]
    assert not Notice.objects.filter(kind=NoticeKind.DROPPED).exists()
