"""A rating is one per person across the network (issue 32): the games of every club count,
and a page of one club after a page of another reads the stored ratings as they are — no
recomputation each time the site turns from one club to the other (bench/network.py found
seconds a page at two million games)."""

import pytest

from clubs.current import using_club
from players.models import Membership
from records import rating, stats
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


def test_each_club_s_leaderboard_and_records_are_its_own_and_a_game_elsewhere_keeps_them(
    clubs, client, settings
):
    """The boards' and records' cached figures were keyed by the network's newest game only:
    the second club asking for the same board was served the first club's rows."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    home, other = clubs
    with using_club(home):
        ivan, oleg = PlayerFactory(full_name="Иван Петров"), PlayerFactory(full_name="Олег Громов")
        finished("cork", [(ivan, "win", 5, cork_stats()), (oleg, "loss", 1, cork_stats())])
    with using_club(other):
        lena, pavel = PlayerFactory(full_name="Лена Соколова"), PlayerFactory(full_name="Павел")
        finished("cork", [(lena, "win", 5, cork_stats()), (pavel, "loss", 1, cork_stats())])
    query = {"variant": "cork", "min_games": 1}
    url = "/leaderboards/"
    at_home = client.get(url, query).content.decode()
    at_sokol = client.get(url, query, HTTP_HOST="sokol.example").content.decode()
    assert "Иван Петров" in at_home and "Лена Соколова" not in at_home
    assert "Лена Соколова" in at_sokol and "Иван Петров" not in at_sokol
    # A game at Сокол leaves the home club's figures where they were (and cached).
    with using_club(other):
        finished(
            "cork",
            [(pavel, "win", 5, cork_stats()), (lena, "loss", 1, cork_stats())],
            at=T0.replace(hour=21),
        )
    with using_club(home):
        key_before = stats.board_stamp("cork")
    assert client.get(url, query).content.decode().count("Иван Петров") == 1
    with using_club(home):
        assert stats.board_stamp("cork") == key_before
