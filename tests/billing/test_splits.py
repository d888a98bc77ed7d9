"""Splitting a bill (plain Python): every kopeck handed out, each mode as documented."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from billing import splits
from billing.splits import Frame, Line, apportion, split


@given(st.integers(0, 10**7), st.lists(st.integers(0, 1000), min_size=1, max_size=8))
def test_apportion_hands_out_exactly_the_total(total, weights):
    shares = apportion(total, weights)
    assert sum(shares) == total and all(share >= 0 for share in shares)
    if sum(weights):
        for share, weight in zip(shares, weights, strict=True):
            assert abs(share - total * weight / sum(weights)) < 1


def test_equal_and_percent():
    lines = [Line(1000_01, is_time=True), Line(300_00)]
    assert split("equal", ["a", "b", "c"], lines) == {"a": 433_34, "b": 433_34, "c": 433_33}
    assert split("percent", ["a", "b"], lines, percents={"a": 70, "b": 30}) == {
        "a": 910_01,
        "b": 390_00,
    }


def test_by_item_assigned_lines_and_the_rest_equally():
    lines = [Line(400_00, is_time=True), Line(350_00, payer="a"), Line(100_00)]
    assert split("items", ["a", "b"], lines) == {"a": 600_00, "b": 250_00}


def test_the_loser_pays_each_frame_hand_computed():
    # An hour of 400 ₽: frame 1 (30 min, a beat b), frame 2 (15 min, abandoned by a and b),
    # 15 min between frames; a beer for a.
    lines = [Line(400_00, is_time=True), Line(350_00, payer="a")]
    frames = [
        Frame(cost=Fraction(200_00), losers=["b"], players=["a", "b"]),
        Frame(cost=Fraction(100_00), losers=[], players=["a", "b"]),
        Frame(cost=Fraction(100_00)),
    ]
    assert split("loser", ["a", "b"], lines, frames=frames) == {
        "a": 50_00 + 50_00 + 350_00,
        "b": 200_00 + 50_00 + 50_00,
    }


def test_the_loser_pays_two_losers_of_a_three_player_frame():
    lines = [Line(301_00, is_time=True)]
    frames = [Frame(cost=Fraction(1), losers=["b", "c"], players=["a", "b", "c"])]
    assert split("loser", ["a", "b", "c"], lines, frames=frames) == {
        "a": 0,
        "b": 150_50,
        "c": 150_50,
    }


def test_the_charge_is_shared_in_proportion_to_what_each_frame_cost():
    # The bill's time (after rounding and discount) is 600 ₽; the frames cost 200 and 350.
    lines = [Line(600_00, is_time=True)]
    frames = [
        Frame(cost=Fraction(200_00), losers=["a"]),
        Frame(cost=Fraction(350_00), losers=["b"]),
    ]
    shares = split("loser", ["a", "b"], lines, frames=frames)
    assert shares == {"a": 218_18, "b": 381_82} and sum(shares.values()) == 600_00


payer_keys = st.lists(st.sampled_from("abcdef"), min_size=1, max_size=6, unique=True)


@given(
    st.integers(0, 10**6),
    st.lists(st.integers(0, 10**5), min_size=0, max_size=4),
    st.lists(
        st.tuples(
            st.integers(1, 10**5),
            st.lists(st.sampled_from("abcdefg"), max_size=3),
            st.lists(st.sampled_from("abcdefg"), max_size=3),
        ),
        min_size=1,
        max_size=5,
    ),
    payer_keys,
)
def test_the_loser_pays_breaks_down_into_parts_that_add_up_to_each_share(time, bar, frames, payers):
    """What a player's page shows of "the loser pays" (issue 31 item 4): each part of the
    time and the lines nobody takes, as the split hands them out; per payer they add up to his
    share, to the kopeck."""
    lines = [Line(time, is_time=True), *(Line(amount) for amount in bar)]
    frames = [Frame(Fraction(cost), losers=lost, players=played) for cost, lost, played in frames]
    found = splits.breakdown("loser", payers, lines, frames=frames)
    assert found.shares == split("loser", payers, lines, frames=frames)
    assert len(found.frames) == len(frames)
    for part, amount in zip(found.frames, splits.frame_parts(time, frames), strict=True):
        assert sum(part.values()) == amount and set(part) <= set(payers)
    for payer in payers:
        parts = sum(part.get(payer, 0) for part in found.frames)
        assert parts + found.shared[payer] == found.shares[payer]
    assert sum(found.shares.values()) == time + sum(bar)


def test_the_time_between_frames_is_everyones_to_the_kopeck():
    """50 ₽ between the games among three payers: 16,67 + 16,67 + 16,66, as the bill shares
    it (a player's page gave him 0,00 ₽ of it, or 16,66: his even cut, rounded down)."""
    frames = [Frame(Fraction(4), losers=["a"], players=["a", "b"]), Frame(Fraction(1))]
    found = splits.breakdown("loser", ["a", "b", "c"], [Line(250_00, is_time=True)], frames=frames)
    assert found.frames == [{"a": 200_00}, {"a": 16_67, "b": 16_67, "c": 16_66}]
    assert found.shares == {"a": 216_67, "b": 16_67, "c": 16_66}


def test_unknown_mode_is_an_error():
    import pytest

    with pytest.raises(ValueError):
        split("dice", ["a"], [Line(1)])


def test_module_examples():
    import doctest

    assert doctest.testmod(splits).failed == 0
