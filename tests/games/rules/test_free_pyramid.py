"""Свободная пирамида («Американка», docs/rules/pyramid.md): sixteen balls, one point a ball,
the first to 8 wins; a foul gives the opponent a penalty ball (modern) or makes the offender
return one (legacy, with a debt when his shelf is empty); the two handicap forms."""

import pytest

from games.rules import Event, SettingsError, replay
from games.rules.free_pyramid import VARIANT as FREE

from .frames import MISS, foul, play, pot, refused, svoyak


def test_a_frame_with_the_modern_foul_rule():
    """Written out by hand: shelves (A, B), balls on the table and whose turn after each stroke."""
    state = play(
        FREE,
        {},
        [
            (pot(1), {"scores": (1, 0), "on_table": 15, "turn": 0}),  # A breaks, a ball drops
            (pot(2), {"scores": (3, 0), "on_table": 13, "turn": 0}),  # he plays on
            (MISS, {"scores": (3, 0), "on_table": 13, "turn": 1}),
            (pot(1), {"scores": (3, 1), "on_table": 12, "turn": 1}),
            (foul("miss"), {"scores": (4, 1), "on_table": 11, "turn": 0}),  # A's penalty ball
            (pot(3), {"scores": (7, 1), "on_table": 8, "turn": 0}),
            (foul("cue_ball_off_table"), {"scores": (7, 2), "on_table": 7, "turn": 1}),
            (pot(2), {"scores": (7, 4), "on_table": 5, "turn": 1}),
            (MISS, {"scores": (7, 4), "on_table": 5, "turn": 0}),
            (pot(1), {"scores": (8, 4), "on_table": 4, "finished": True}),  # the 8th ball
        ],
        expect_at_start={"scores": (0, 0), "on_table": 16, "turn": 0},
    )
    assert state.result.winners == (0,)
    assert state.result.scores == (8, 4)
    stats = FREE.seat_stats(state)
    assert stats[0] == {
        "shelf": 8,
        "balls": 7,  # 1 + 2 + 3 + 1 pocketed; the 8th ball came as a penalty ball
        "svoyaki": 0,
        "fouls": 1,
        "best_run": 3,  # visits of 1 + 2, then 3, then 1
        "penalty_balls": 1,
        "debt": 0,
    }
    assert (stats[1]["balls"], stats[1]["fouls"], stats[1]["best_run"]) == (3, 1, 2)
    # a stroke after the frame is won
    assert "over" in refused(FREE, state, pot(1), "game_over")
    assert FREE.legal_actions(state) == ()


def test_a_frame_with_the_legacy_foul_rule_and_both_handicaps():
    """ "8–7" (B, the weaker, starts with a ball on his shelf) and A's first pot returned."""
    settings = {"foul_model": "legacy", "weaker_seat": 1, "head_start": 1, "returned_pots": 1}
    state = play(
        FREE,
        settings,
        [
            # A's shelf is empty: he owes a ball
            (foul("miss"), {"scores": (0, 1), "on_table": 15, "debts": (1, 0), "turn": 1}),
            (pot(2), {"scores": (0, 3), "on_table": 13, "turn": 1}),
            (foul("touched"), {"scores": (0, 2), "on_table": 14, "turn": 0}),  # B returns one
            # A pockets 3: the first is returned (handicap), the next pays his debt, one kept
            (pot(3), {"scores": (1, 2), "on_table": 13, "debts": (0, 0), "to_return": 0}),
            (pot(2), {"scores": (3, 2), "on_table": 11, "turn": 0}),
            (foul("double_hit"), {"scores": (2, 2), "on_table": 12, "turn": 1}),
            (pot(5), {"scores": (2, 7), "on_table": 7, "turn": 1}),
            (pot(1), {"scores": (2, 8), "on_table": 6, "finished": True}),
        ],
        expect_at_start={"scores": (0, 1), "on_table": 15, "to_return": 1},
    )
    assert state.result.winners == (1,)
    assert FREE.settings_from_dict({"players": 2, **settings}).handicap.shorthand(8) == "8–7"


def test_a_modern_foul_can_win_the_frame_for_the_opponent():
    state = play(FREE, {}, [(pot(7), {}), (MISS, {}), (foul("touched"), {"scores": (8, 0)})])
    assert state.finished and state.result.winners == (0,)


def test_the_description_of_a_stroke_says_what_happened():
    settings = {"players": 2, "returned_pots": 1, "weaker_seat": 1}
    state = FREE.initial_state(FREE.settings_from_dict(settings))
    after = FREE.apply(state, pot(2))
    text = FREE.describe(state, pot(2), after).render()
    assert text == ("Player 1: +2, shelf 1 (on the table: 15); 1 returned to the table (handicap)")


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (pot(17), "not_enough_balls"),  # more balls than are on the table
        (pot(0), "malformed_event"),
        (Event("pot"), "malformed_event"),  # how many?
        (Event("pot", count=True), "malformed_event"),
        (Event("pot", count=2.5), "malformed_event"),  # not a whole number
        (svoyak(), "no_svoyak"),  # no свояк in Свободная
        (Event("foul"), "malformed_event"),
        (foul("offside"), "unknown_foul"),
        (Event("foul", fouls=("miss", "miss")), "duplicate_foul"),
        (Event("stroke", count=1), "malformed_event"),
        (Event("pot", count=1, ball=3), "malformed_event"),
        (Event("nominate"), "unknown_event"),
    ],
)
def test_illegal_events_are_refused_with_a_reason_and_change_nothing(event, code):
    state = replay(FREE, {"players": 2}, [pot(1), MISS])
    refused(FREE, state, event, code)


def test_a_pot_of_more_balls_than_are_left_is_refused():
    state = replay(FREE, {"players": 2}, [pot(7), MISS, pot(7)])
    assert state.on_table == 2
    assert refused(FREE, state, pot(3), "not_enough_balls") == "Only 2 balls are on the table."
    assert [a.max_count for a in FREE.legal_actions(state) if a.kind == "pot"] == [2]


def test_the_buttons_offered():
    state = FREE.initial_state(FREE.settings_from_dict({"players": 2}))
    kinds = [a.kind for a in FREE.legal_actions(state)]
    assert kinds == ["pot", "stroke", "foul"]  # no свояк in Свободная


@pytest.mark.parametrize(
    "data",
    [
        {"head_start": 8},  # 8 on the shelf would win before the break
        {"returned_pots": 4},
        {"foul_model": "soviet"},
        {"weaker_seat": "2"},
        {"players": 3},
    ],
)
def test_bad_settings_are_refused(data):
    with pytest.raises(SettingsError):
        FREE.settings_from_dict({"players": 2, **data})


def test_the_settings_round_trip():
    settings = FREE.settings_from_dict({"players": 2, "weaker_seat": 0, "head_start": "2"})
    assert settings.to_dict() == {
        "players": 2,
        "foul_model": "modern",
        "weaker_seat": 0,
        "head_start": 2,
        "returned_pots": 0,
    }
    assert FREE.settings_from_dict(settings.to_dict()) == settings
