"""The series' engine: its documented examples and its properties over random series."""

import doctest
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from season import standings
from season.standings import Result


def test_the_documented_examples_run_as_doctests():
    assert doctest.testmod(standings).failed == 0


tables = st.one_of(
    st.sampled_from(sorted(standings.PRESETS)).map(standings.points_table),
    st.lists(st.integers(0, 200), min_size=1, max_size=40).map(tuple),
)


@given(tables, st.lists(st.integers(1, 6), min_size=1, max_size=12))
def test_shared_places_points_add_up_to_their_positions(table, sizes):
    """Groups of tied players (a bracket's places 3–4, 5–8…) share exactly the points of
    their positions."""
    position = 1
    for size in sizes:
        best, worst = position, position + size - 1
        shared = standings.place_points(table, best, worst) * size
        alone = sum(standings.position_points(table, p) for p in range(best, worst + 1))
        assert math.isclose(shared, alone, abs_tol=0.01 * size)
        position = worst + 1


def test_a_place_out_of_order_is_refused():
    with pytest.raises(ValueError):
        standings.place_points((10, 5), 3, 2)
    with pytest.raises(ValueError):
        standings.points_table([10, -1])


results_of_one = st.lists(
    st.builds(
        Result,
        player=st.just("p"),
        stage=st.integers(1, 30),
        points=st.integers(0, 100),
        month=st.sampled_from(["2026-01", "2026-02", "2026-03"]),
    ),
    max_size=12,
)


@given(results_of_one, st.integers(1, 12), st.integers(1, 3), st.integers(1, 3))
def test_the_best_results_never_exceed_the_total(results, best_n, per_month, months):
    everything = standings.total(results)
    best = standings.total(results, best_n=best_n)
    monthly = standings.total(results, per_month=per_month, best_months=months)
    assert best <= everything and monthly <= everything
    assert len(standings.counted(results, best_n=best_n)) == min(best_n, len(results))
    # The best N are the N largest.
    top = sorted((r.points for r in results), reverse=True)[:best_n]
    assert math.isclose(best, sum(top))


@given(
    st.lists(
        st.tuples(st.sampled_from("abcdef"), st.integers(1, 6), st.integers(1, 8)),
        min_size=1,
        max_size=30,
    ),
    st.permutations(["best_place", "head_to_head", "rating", "events"]),
    st.dictionaries(st.sampled_from("abcdef"), st.integers(1000, 2000)),
)
def test_the_order_respects_the_chain(entries, chain, ratings):
    table = standings.points_table("club")
    seen = set()
    results = []
    for player, stage, place in entries:
        if (player, stage) in seen:
            continue
        seen.add((player, stage))
        points = standings.place_points(table, place, place)
        results.append(Result(player, stage, points, (place, place)))
    rows = standings.rank(results, chain=("points", *chain), ratings=ratings)
    assert sorted(r.player for r in rows) == sorted({r.player for r in results})
    for above, below in zip(rows, rows[1:], strict=False):
        assert above.total >= below.total
        assert above.place <= below.place
        if above.total == below.total and chain[0] == "best_place":
            assert above.best_place <= below.best_place
        if above.total == below.total and chain[0] == "rating":
            assert (above.rating or -(10**6)) >= (below.rating or -(10**6))
        if above.total == below.total and chain[0] == "events":
            assert above.events >= below.events


@given(
    st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 300), min_size=2),
    st.integers(1, 4),
    st.integers(1, 3),
)
def test_what_a_player_needs_is_consistent(totals, k, left):
    rows = standings.rank([Result(p, 1, points) for p, points in totals.items()])
    for row in rows:
        seen = standings.outlook(row.player, rows, k=k, stages_left=left, max_points=100)
        others = sorted((t for p, t in totals.items() if p != row.player), reverse=True)
        if seen.status == "in":
            # Even if every rival wins every stage left, fewer than k pass him.
            assert sum(1 for t in others if t + 100 * left >= row.total) < k
        elif seen.status == "out":
            assert others[k - 1] >= row.total + 100 * left
        else:
            assert 0 <= seen.needed <= 100 * left
            line = others[k - 1] if len(others) >= k else 0
            assert row.total + seen.needed > line
            # (the least: a hundredth less would not do; to a hair of floating point)
            assert row.total + seen.needed - 0.01 <= line + 1e-9 or seen.needed == 0


@given(st.lists(st.integers(800, 2600), max_size=20), st.integers(1, 15))
def test_the_value_stays_in_its_range(ratings, race):
    assert standings.LOW <= standings.event_value(ratings, race) <= standings.HIGH


# --- what a player needs when the series counts the best result a month of the best months ---
#
# The best result of a month, of the best two months; the final: the top one. Three stages
# played (two in January, one in February), one left in March worth at most 50 (the ranking
# table: 50, 40, 32…):
#
#   a: Jan 50, Feb 40         → 50 + 40 = 90
#   b: Jan 45, Jan 30, Feb 35 → 45 + 35 = 80 (the second January result does not count)
#   c: Jan 50, Jan 50         → 50       = 50 (one month only)
#
# b passes a's 90 only with March counted instead of February: 45 + x > 90, x > 45 — a
# March stage won (50: 95), not second (40: 85). Counting every result (the best N's rule,
# what the phone said before), b's 110 would already be past everybody's.
MONTHLY = [
    Result("a", 1, 50, (1, 1), "2026-01"),
    Result("a", 3, 40, (2, 2), "2026-02"),
    Result("b", 1, 45, (2, 2), "2026-01"),
    Result("b", 2, 30, (3, 4), "2026-01"),
    Result("b", 3, 35, (3, 4), "2026-02"),
    Result("c", 1, 50, (1, 1), "2026-01"),
    Result("c", 2, 50, (1, 1), "2026-01"),
]
LIMITS = {"per_month": 1, "best_months": 2}


def monthly_outlook(player, months_left=("2026-03",), max_points=50, k=1):
    rows = standings.rank(MONTHLY, **LIMITS)
    return standings.outlook(
        player,
        rows,
        k=k,
        stages_left=len(months_left),
        max_points=max_points,
        next_table=standings.points_table("ranking"),
        months_left=list(months_left),
        **LIMITS,
    )


def test_the_months_limits_count_in_what_a_player_needs_computed_by_hand():
    rows = standings.rank(MONTHLY, **LIMITS)
    assert [(row.player, row.total) for row in rows] == [("a", 90), ("b", 80), ("c", 50)]
    seen = monthly_outlook("b")
    assert seen == standings.Outlook("open", 45.01, 1)
    assert seen.beyond == 45
    # The stage left in January instead: a result there counts only over his 45, and
    # February's 35 stays: 50 + 35 = 85 at best, short of a's 90.
    assert monthly_outlook("b", months_left=("2026-01",)).status == "out"
    # c has a single month: any March result counts in full, 50 + x > 90 needs x > 40 …
    assert monthly_outlook("c") == standings.Outlook("open", 40.01, 1)
    # … and a, first now, is not safe yet (c could make 50 + 50 = 100), but needs nothing
    # more while the others score nothing more.
    assert monthly_outlook("a").status == "open" and monthly_outlook("a").needed == 0


def test_the_points_left_go_where_the_months_count_most():
    # Two stages left, one in January, one in March: b's 50 more points count in March
    # (45 + 50 = 95 > 90), not in January (50 + 35 = 85).
    seen = monthly_outlook("b", months_left=("2026-01", "2026-03"))
    assert seen.status == "open" and seen.needed == 45.01
    assert seen.next_place is None  # the next stage, January's, cannot do it alone
