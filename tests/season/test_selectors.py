"""The series' reads across the walls: a network series adds up two clubs' tournaments, each
read within its own club; a club's series offers only its own club's tournaments."""

import random
from datetime import date

import pytest

from billing import services as billing_services
from clubs.current import using_club
from clubs.scoping import club_in_scope
from players.models import Player
from season import selectors, standings
from season.models import PointsTable, Series, Stage
from tables.models import Table
from tests.factories import UserFactory
from toolbox.roles import CASHIERS
from tournaments import prizes, services
from tournaments.demo import _run
from tournaments.models import Seeding, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def finished_cup(club, players, marker, name, day=date(2026, 3, 1)):
    """A single elimination of four, played to its end at ``club`` on ``day``."""
    with using_club(club):
        Table.objects.get_or_create(number=1)
        tournament = Tournament.objects.create(
            name=name, date=day, variant="cue_vs_hand", format="single",
            race_upper=1, race_final=1,
        )  # fmt: skip
        for player in players:
            services.add_entrant(tournament=tournament, player=player)
        services.start_tournament(tournament=tournament, method=Seeding.DRAW, draw_seed=7)
        _run(tournament, random.Random(3), marker)
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.FINISHED
        return tournament


def test_a_network_series_adds_up_two_clubs_tournaments(home_and_sokol):
    home, sokol = home_and_sokol
    marker = UserFactory(username="m")
    with using_club(home):
        players = [Player.objects.create(full_name=f"Игрок {n}") for n in range(4)]
    ours = finished_cup(home, players, marker, "Луза, этап 1")
    theirs = finished_cup(sokol, players, marker, "Сокол, этап 2")
    series = Series.objects.create(name="Кубок сети", season="2026", final_size=2)
    Stage.objects.create(series=series, tournament=ours, number=1, table=PointsTable.CLUB)
    Stage.objects.create(series=series, tournament=theirs, number=2, table=PointsTable.CLUB)
    with using_club(home):
        table = selectors.table_of(series)
        assert series in selectors.visible_series()
        offered = selectors.club_tournaments(series)
    assert [info.finished for info in table.stages] == [True, True]
    club = standings.points_table("club")
    for line in table.lines:
        expected = 0
        for info in table.stages:
            best, worst = info.places[line.player_id]
            expected += standings.place_points(club, best, worst)
        assert line.total == pytest.approx(expected)
    assert sum(line.total for line in table.lines) == pytest.approx(2 * (10 + 8 + 6 + 6))
    assert [line.finalist for line in table.lines].count(True) == 2
    assert offered == []  # both are stages already

    # A club's series at home offers its own tournaments only.
    with using_club(home):
        own = Series.objects.create(name="Кубок Лузы", season="2026", club=home)
        assert [t.pk for t in selectors.club_tournaments(own)] == [ours.pk]
    with using_club(sokol):
        assert own not in selectors.visible_series()


def test_lines_still_tied_are_listed_by_name():
    """A four's semi-finalists share 3–4 with the same points and best place: listed by name,
    whatever their ids (made here in the reverse order of their names)."""
    marker = UserFactory(username="m")
    players = [
        Player.objects.create(full_name=name) for name in ("Яковлев", "Шубин", "Борисов", "Абрамов")
    ]
    tournament = finished_cup(club_in_scope(), players, marker, "Этап")
    series = Series.objects.create(name="Кубок", season="2026", chain=["points", "best_place"])
    Stage.objects.create(series=series, tournament=tournament, number=1, table=PointsTable.CLUB)
    lines = selectors.table_of(series).lines
    assert [line.place for line in lines] == [1, 2, 3, 3]
    assert lines[2].name < lines[3].name


def test_the_finals_fund_counts_the_fees_taken_before_the_draw():
    """A stage still in its entries: the fee paid already (1 000 ₽, 20 % to the final) is in
    the final's fund so far."""
    cashier = UserFactory(username="kassa", groups=[CASHIERS])
    tournament = Tournament.objects.create(
        name="Этап", date=date(2026, 3, 1), variant="cue_vs_hand", format="single",
        regulation=prizes.Regulation(
            fee=1000 * 100, split=prizes.Split(prizes.PERCENT, 7000, 2000)
        ).to_json(),
    )  # fmt: skip
    entrant = (
        services.add_entrant(tournament=tournament, player=Player.objects.create(full_name="Игрок"))
        or tournament.entrants.get()
    )
    series = Series.objects.create(name="Кубок", season="2026")
    Stage.objects.create(series=series, tournament=tournament, number=1, table=PointsTable.CLUB)
    assert selectors.table_of(series).final_fund == 0
    billing_services.open_shift(user=cashier, opening_cash=0)
    bill = services.take_fee(entrant=entrant, user=cashier)
    billing_services.record_payment(
        bill=bill, method="cash", amount=1000 * 100, user=cashier, receipt_number="1"
    )
    assert tournament.status == TournamentStatus.DRAFT
    assert selectors.table_of(series).final_fund == 200 * 100


def test_what_a_player_needs_counts_the_series_months(home_and_sokol):
    """A series of the best result a month of the best two months: two January stages
    played, one left in February. Only a player's best January result counts, so the phone's
    «what he needs» is the engine's with those limits and the stage left's month."""
    home, _sokol = home_and_sokol
    marker = UserFactory(username="m")
    with using_club(home):
        players = [Player.objects.create(full_name=f"Игрок {n}") for n in range(4)]
        first = finished_cup(home, players, marker, "Январь 1", day=date(2026, 1, 10))
        second = finished_cup(home, players, marker, "Январь 2", day=date(2026, 1, 24))
        left = Tournament.objects.create(
            name="Февраль", date=date(2026, 2, 7), variant="cue_vs_hand", format="single"
        )
        series = Series.objects.create(
            name="Кубок", season="2026", club=home, per_month=1, best_months=2, final_size=1
        )
        for number, tournament in enumerate((first, second, left), start=1):
            Stage.objects.create(
                series=series, tournament=tournament, number=number, table=PointsTable.CLUB
            )
        table = selectors.table_of(series)
    assert table.months_left == ["2026-02"] and table.stages_left == 1
    for line in table.lines:
        # His best January place only: 10, 8 or 6 points, never two stages' sum.
        assert line.total in (10, 8, 6)
        seen = selectors.outlook_of(table, line.player_id)
        assert seen == standings.outlook(
            line.player_id, table.rows, k=1, stages_left=1, max_points=10,
            next_table=standings.points_table("club"), per_month=1, best_months=2,
            months_left=["2026-02"],
        )  # fmt: skip
        if line.place > 1:  # a February win (10) makes two months: more than the leader's
            assert seen.status == "open"
            assert seen.needed == pytest.approx(table.lines[0].total - line.total + 0.01)
