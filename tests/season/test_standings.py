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
