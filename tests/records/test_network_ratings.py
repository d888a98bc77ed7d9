"""A rating is one per person across the network (issue 32): the games of every club count,
and a page of one club after a page of another reads the stored ratings as they are — no
recomputation each time the site turns from one club to the other (bench/network.py found
seconds a page at two million games)."""

import pytest

from clubs.current import using_club
from players.models import Membership
from records import rating
from records.models import RatingLedger
from tests.factories import T0, PlayerFactory, cork_stats, finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs(home_and_sokol):
    return home_and_sokol


def test_the_games_of_every_club_count_once_and_are_not_recomputed_per_club(clubs, monkeypatch):
    home, other = clubs
    with using_club(home):
        ivan, oleg = PlayerFactory(full_name="Иван Петров"), PlayerFactory(full_name="Олег Громов")
        finished("cork", [(ivan, "win", 5, cork_stats()), (oleg, "loss", 1, cork_stats())])
    for person in (ivan, oleg):
        Membership.everywhere.create(club=other, player=person)
    with using_club(other):
        finished(
            "cork",
            [(ivan, "win", 5, cork_stats()), (oleg, "loss", 1, cork_stats())],
            at=T0.replace(hour=20),
        )
    family = rating.family_of("cork")
    with using_club(home):
        at_home = rating.current(family)
    assert at_home.count == 2 and at_home.games[ivan.pk] == 2
    assert at_home.rating(ivan.pk) > rating.INITIAL > at_home.rating(oleg.pk)

    recomputed = []
    monkeypatch.setattr(rating, "recompute", lambda *a: recomputed.append(a))
    rating._memo.clear()  # another process: it reads the stored rows
    for club in (other, home, other):
        with using_club(club):
            figures = rating.current(family)
        assert figures.count == 2 and figures.rating(ivan.pk) == at_home.rating(ivan.pk)
    assert recomputed == []
    assert RatingLedger.objects.get(family=family).count == 2
