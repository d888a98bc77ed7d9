"""The prize engine (tournaments.prizes): fees, their split, the payout tables, ties, the
wins' returns and the remainder — by hand, and a property over random tournaments."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import prizes
from tournaments.prizes import Player, Regulation, RegulationError, Row, Split, Table


def evening(**more):
    return Regulation(
        fee=100_000,
        bands=((1500, 70_000),),
        split=Split(prizes.PERCENT, 7000, 2000),
        preset="evening",
        **more,
    )


def test_fee_by_band():
    regulation = evening()
    assert regulation.fee_for(1400) == 70_000
    assert regulation.fee_for(1500) == 70_000
    assert regulation.fee_for(1501) == 100_000
    assert regulation.fee_for(None) == 100_000


def test_split_costs_take_the_remainder():
    shares = Split(prizes.PERCENT, 7000, 2000).of(99_999)
    # 70 % of 999.99 ₽ = 699.993 → 699.99; 20 % = 199.998 → 199.99; costs the rest.
    assert (shares.prize, shares.final, shares.costs) == (69_999, 19_999, 10_001)
    fixed = Split(prizes.FIXED, 50_000, 30_000)
    assert fixed.of(100_000) == prizes.Shares(100_000, 50_000, 30_000, 20_000)
    assert fixed.of(60_000) == prizes.Shares(60_000, 50_000, 10_000, 0)


def test_tables_chosen_by_entrants():
    regulation = evening()
    assert regulation.table_for(12).up_to == 12
    assert regulation.table_for(13).up_to == 16
    assert regulation.table_for(64).up_to is None


def test_semifinalists_share_and_remainder_to_winner():
    regulation = Regulation(fee=100_000, preset="semifinals", unit=100)
    players = [
        Player("a", (1, 1)),
        Player("b", (2, 2)),
        Player("c", (3, 4)),
        Player("d", (3, 4)),
        Player("e", (5, 8)),
    ]
    result = prizes.payout(regulation, 100_001, players)
    amounts = {prize.key: prize.amount for prize in result.prizes}
    # 30 % of 1000.01 ₽ rounded to roubles: 300 ₽, 20 %: 200 ₽, 25 % each: 250 ₽ each; the
    # winner takes the rest, 0.01 ₽.
    assert amounts == {"a": 30_001, "b": 20_000, "c": 25_000, "d": 25_000, "e": 0}
    assert result.paid == 100_001


def test_tie_shares_positions():
    # ≤ 12: 50/30/15; two players tied for 3–4 share 15 % + 0 %.
    regulation = evening()
    players = [Player(1, (1, 1)), Player(2, (2, 2)), Player(3, (3, 4)), Player(4, (3, 4))]
    result = prizes.payout(regulation, 100_000, players)
    amounts = [prize.amount for prize in result.prizes]
    assert amounts == [55_000, 30_000, 7_500, 7_500]


def test_wins_returned_first():
    regulation = evening(per_win=10_000)
    players = [Player(1, (1, 1), wins=3), Player(2, (2, 2), wins=1), Player(3, (3, 3), wins=0)]
    result = prizes.payout(regulation, 100_000, players)
    # 4 wins × 100 ₽ = 400 ₽ first; 600 ₽ by the table: 300 / 180 / 90, the rest 30 ₽ to 1st.
    assert [p.wins for p in result.prizes] == [30_000, 10_000, 0]
    assert [p.table for p in result.prizes] == [33_000, 18_000, 9_000]
    # A fund too small for the returns: each win gets the fund divided by the wins.
    short = prizes.payout(regulation, 30_001, players)
    assert short.per_win == 7_500
    assert short.paid == 30_001


def test_regulation_json_round_trip_and_refusals():
    regulation = evening(per_win=5_000, unit=100)
    assert Regulation.from_json(regulation.to_json()) == regulation
    custom = Regulation(fee=1, preset="", tables=(Table(None, (Row(1, 2, 5000),)),))
    assert Regulation.from_json(custom.to_json()) == custom
    assert Regulation.from_json({}) is None
    for bad in (
        {"fee": -1},
        {"fee": "100"},
        {"fee": 1, "split": {"mode": "percent", "prize": 9000, "final": 2000}},
        {"fee": 1, "bands": [[1500, 1], [1400, 1]]},
        {"fee": 1, "preset": "nope"},
        {"fee": 1, "unit": 10},
        {"fee": 1, "preset": "", "tables": [{"up_to": None, "rows": [[1, 2, 6000]]}]},
        {"fee": 1, "preset": "", "tables": [{"up_to": None, "rows": [[2, 1, 100]]}]},
        {"fee": 1, "preset": "", "tables": []},
        [1, 2],
    ):
        with pytest.raises(RegulationError):
            Regulation.from_json(bad)


def _places(draw, n):
    """Random places with ties: consecutive groups of players share a range."""
    places = []
    position = 1
    while position <= n:
        size = draw(st.integers(1, min(4, n - position + 1)))
        places.extend([(position, position + size - 1)] * size)
        position += size
    return places


@st.composite
def tournaments(draw):
    n = draw(st.integers(2, 64))
    mode = draw(st.sampled_from(prizes.SPLIT_MODES))
    if mode == prizes.PERCENT:
        prize = draw(st.integers(0, prizes.WHOLE))
        final = draw(st.integers(0, prizes.WHOLE - prize))
    else:
        prize, final = draw(st.integers(0, 200_000)), draw(st.integers(0, 200_000))
    limits = sorted(draw(st.sets(st.integers(0, 3000), max_size=3)))
    bands = tuple((limit, draw(st.integers(0, 500_000))) for limit in limits)
    preset = draw(st.sampled_from([*prizes.PRESETS, ""]))
    tables = ()
    if not preset:
        size = draw(st.integers(1, 10))
        cuts = sorted(draw(st.lists(st.integers(1, size), max_size=3, unique=True)))
        rows, best, budget = [], 1, prizes.WHOLE
        for worst in [*cuts, size]:
            if worst < best:
                continue
            share = draw(st.integers(0, budget // (worst - best + 1)))
            budget -= share * (worst - best + 1)
            rows.append(Row(best, worst, share))
            best = worst + 1
        tables = (Table(None, tuple(rows)),)
    regulation = Regulation(
        fee=draw(st.integers(0, 500_000)),
        bands=bands,
        split=Split(mode, prize, final),
        preset=preset,
        tables=tables,
        per_win=draw(st.integers(0, 50_000)),
        unit=draw(st.sampled_from(prizes.UNITS)),
    )
    regulation.check()
    ratings = draw(st.lists(st.none() | st.integers(0, 3000), min_size=n, max_size=n))
    places = _places(draw, n)
    order = draw(st.permutations(range(n)))
    players = [Player(key, places[order[key]], wins=draw(st.integers(0, 6))) for key in range(n)]
    return regulation, ratings, players


@settings(max_examples=300, deadline=None)
@given(tournaments())
def test_every_kopeck_accounted_for(tournament):
    regulation, ratings, players = tournament
    fees = [regulation.fee_for(rating) for rating in ratings]
    fund = prizes.fund_of(regulation, fees)
    result = prizes.payout(regulation, fund.prize, players)
    # Fees in = prizes paid + the final's fund + the club's costs, to the kopeck.
    assert sum(fees) == result.paid + fund.final + fund.costs
    assert result.paid == fund.prize
    assert all(prize.table >= 0 and prize.wins >= 0 for prize in result.prizes)
    by_place = {}
    for player, prize in zip(players, result.prizes, strict=True):
        by_place.setdefault(player.place, []).append(prize)
    for place, shared in by_place.items():
        tables = [prize.table for prize in shared]
        if place[0] == 1:  # the winners' remainder: at most a kopeck apart
            assert max(tables) - min(tables) <= 1
        else:  # everyone else: the same, in the regulation's unit
            assert len(set(tables)) == 1
            assert tables[0] % regulation.unit == 0
