"""The TV board's pages (tournaments.board_pages): a small tournament is one page; a big one
is cut into pages each of which fits the screen at a readable size, and together show every
match ready to be played."""

import doctest
import random
from types import SimpleNamespace

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments import board_pages, brackets
from tournaments.board_pages import COLUMNS, ROWS, paginate


def board(fmt, entrants, played, seed=0, groups=1, advance=0):
    """The board's sections and group tables after ``played`` random results, built as
    ``fragments.sections`` builds them (items with a status and the two names)."""
    rng = random.Random(seed)
    bracket = brackets.build(fmt, entrants, groups, advance)
    results = {}
    for _ in range(played):
        ready = [
            key
            for key, match in brackets.compute(bracket, results).matches.items()
            if match.status == brackets.READY
        ]
        if not ready:
            break
        results[rng.choice(ready)] = brackets.Result(rng.choice("ab"), kind=brackets.WALKOVER)
    state = brackets.compute(bracket, results)
    rounds = {}
    for spec in bracket.matches:
        match = state.matches[spec.key]
        item = SimpleNamespace(
            spec=spec,
            status=match.status,
            name_a=f"Игрок {match.a}" if match.a else "",
            name_b=f"Игрок {match.b}" if match.b else "",
        )
        rounds.setdefault(spec.bracket, {}).setdefault(spec.round, []).append(item)
    sections = [
        {"name": name, "title": name, "rounds": sorted(rounds[name].items())}
        for name in (brackets.GROUP, brackets.UPPER, brackets.LOWER, brackets.FINAL)
        if name in rounds
    ]
    standings = [(n, list(table)) for n, table in enumerate(state.standings, start=1)]
    return sections, standings


def shown(pages):
    """Every match box on the pages, with how many times it is shown."""
    counts = {}
    for page in pages:
        for section in page["sections"]:
            for _round, items in section["rounds"]:
                for item in items:
                    counts[item.spec.key] = counts.get(item.spec.key, 0) + 1
    return counts


def test_the_documented_examples_run():
    assert doctest.testmod(board_pages).failed == 0


def test_a_club_evening_of_up_to_sixteen_is_one_page_with_every_match():
    for fmt, entrants in [("single", 3), ("single", 16), ("double", 8), ("double", 16)]:
        sections, standings = board(fmt, entrants, played=5)
        pages = paginate(sections, standings)
        assert len(pages) == 1, (fmt, entrants)
        everything = sum(len(items) for s in sections for _r, items in s["rounds"])
        assert len(shown(pages)) == everything


def test_128_in_double_elimination_at_the_start_is_turned_in_pages_of_sixteen_boxes():
    sections, standings = board("double", 128, played=0)
    pages = paginate(sections, standings)
    # the upper bracket's first five rounds in quarters; nobody is in the lower one yet
    assert [(p["sections"][0]["name"], p["label"]) for p in pages] == [
        ("upper", "1/4"), ("upper", "2/4"), ("upper", "3/4"), ("upper", "4/4"),
    ]  # fmt: skip
    assert {p["rows"] for p in pages} == {16}
    assert [(p["number"], p["count"]) for p in pages][-1] == (4, 4)
    sections, standings = board("double", 128, played=64)  # the first round played
    labels = [(p["sections"][0]["name"], p["label"]) for p in paginate(sections, standings)]
    assert labels[-2:] == [("lower", "1/2"), ("lower", "2/2")]


def test_rounds_played_are_left_to_the_tournament_page_and_the_final_comes_beside_the_end():
    sections, standings = board("double", 128, played=250)
    pages = paginate(sections, standings)
    lower = [p for p in pages if p["sections"][0]["name"] == "lower"]
    first_round_shown = lower[0]["sections"][0]["rounds"][0][0]
    assert first_round_shown > 1
    assert lower[-1]["has_final"] and lower[-1]["sections"][-1]["name"] == "final"


@settings(max_examples=60, deadline=None)
@example(fmt="double", entrants=92, fraction=153.5 / 183, seed=404)  # one half runs ahead
@example(fmt="double", entrants=104, fraction=148.5 / 207, seed=706)
@given(
    fmt=st.sampled_from(["single", "double"]),
    entrants=st.integers(3, 128),
    fraction=st.floats(0, 1),
    seed=st.integers(0, 1000),
)
def test_every_page_fits_and_every_match_ready_to_play_is_on_a_page(fmt, entrants, fraction, seed):
    total = entrants - 1 if fmt == "single" else 2 * entrants - 1
    sections, standings = board(fmt, entrants, played=int(fraction * total), seed=seed)
    pages = paginate(sections, standings)
    for page in pages:
        assert page["rows"] <= ROWS or len(pages) == 1
        assert page["columns"] <= COLUMNS
    counts = shown(pages)
    for section in sections:
        for _round, items in section["rounds"]:
            for item in items:
                if item.status == brackets.READY:
                    assert counts.get(item.spec.key, 0) >= 1, item.spec.key
                if section["name"] != "final":  # (beside each page whose round feeds it)
                    assert counts.get(item.spec.key, 0) <= 1, item.spec.key


def test_groups_come_four_to_a_page_before_their_matches_and_the_knockout():
    sections, standings = board("round_robin", 32, played=20, groups=8, advance=2)
    pages = paginate(sections, standings)
    assert [len(p["standings"]) for p in pages if p["standings"]] == [4, 4]
    assert [n for p in pages for n, _rows in p["standings"]] == list(range(1, 9))
    assert all(p["rows"] <= ROWS for p in pages)


def test_a_group_stands_beside_its_matches_and_the_knockout_comes_once_reached():
    sections, standings = board("round_robin", 6, played=3, groups=1, advance=2)
    pages = paginate(sections, standings)
    assert len(pages) == 1  # the knockout's boxes are all «…» yet
    assert len(pages[0]["standings"]) == 1 and pages[0]["sections"][0]["name"] == "group"
    sections, standings = board("round_robin", 6, played=15, groups=1, advance=2)  # group done
    pages = paginate(sections, standings)
    assert [[s["name"] for s in p["sections"]] for p in pages] == [["group"], ["final"]]


def test_groups_of_four_matches_a_round_have_their_matches_on_a_page_of_their_own():
    sections, standings = board("round_robin", 9, played=3, groups=2, advance=2)
    pages = paginate(sections, standings)
    assert [(len(p["standings"]), [s["name"] for s in p["sections"]]) for p in pages] == [
        (2, []),
        (0, ["group"]),
    ]
