"""Комбинированная пирамида («Московская», docs/rules/pyramid.md): fifteen object balls, the
coloured cue ball; a свояк is a point (a ball of the shooter's choice from the table) and the
next stroke is from hand from дом; after a foul that lost the cue ball the opponent plays
from дом; the first to 8 wins."""

import pytest

from games.rules import Event, replay
from games.rules.combined_pyramid import VARIANT as COMBINED

from .frames import MISS, foul, play, pot, refused, svoyak


def test_a_frame_written_out_stroke_by_stroke():
    state = play(
        COMBINED,
        {},
        [
            (pot(1), {"scores": (1, 0), "on_table": 14, "turn": 0, "in_hand": ""}),
            (svoyak(), {"scores": (2, 0), "on_table": 13, "turn": 0, "in_hand": "home"}),
            # an object ball and the cue ball after it: the ball + the свояк's ball
            (svoyak(1), {"scores": (4, 0), "on_table": 11, "turn": 0, "in_hand": "home"}),
            (MISS, {"scores": (4, 0), "on_table": 11, "turn": 1, "in_hand": ""}),
            # B pockets the cue ball without a свояк: A's penalty ball, A plays from дом
            (foul("cue_ball_pocketed"), {"scores": (5, 0), "on_table": 10, "in_hand": "home"}),
            (pot(2), {"scores": (7, 0), "on_table": 8, "turn": 0, "in_hand": ""}),
            (foul("miss"), {"scores": (7, 1), "on_table": 7, "turn": 1, "in_hand": ""}),
            (pot(3), {"scores": (7, 4), "on_table": 4, "turn": 1}),
            (svoyak(), {"scores": (7, 5), "on_table": 3, "turn": 1, "in_hand": "home"}),
            (MISS, {"scores": (7, 5), "on_table": 3, "turn": 0, "in_hand": ""}),
            (svoyak(), {"scores": (8, 5), "on_table": 2, "finished": True}),
        ],
        expect_at_start={"scores": (0, 0), "on_table": 15, "in_hand": "home"},
    )
    assert state.result.winners == (0,)
    stats = COMBINED.seat_stats(state)
    # A: 1 + 1 + 2 + 2 + 1 balls by his strokes (his 8th was a penalty ball); best visit 4
    assert (stats[0]["svoyaki"], stats[0]["balls"], stats[0]["best_run"]) == (3, 7, 4)
    assert (stats[1]["svoyaki"], stats[1]["balls"], stats[1]["fouls"]) == (1, 4, 1)
    refused(COMBINED, state, svoyak(), "game_over")


def test_a_legacy_foul_returns_a_ball_and_the_cue_ball_goes_in_hand():
    state = play(
        COMBINED,
        {"foul_model": "legacy"},
        [
            (pot(2), {"scores": (2, 0), "on_table": 13}),
            (foul("cue_ball_off_table"), {"scores": (1, 0), "on_table": 14, "in_hand": "home"}),
            (foul("touched"), {"scores": (1, 0), "debts": (0, 1), "in_hand": ""}),
            (MISS, {"turn": 1}),
            (svoyak(), {"scores": (1, 0), "debts": (0, 0), "on_table": 14, "in_hand": "home"}),
        ],
    )
    assert state.turn == 1


def test_the_buttons_offered():
    state = replay(COMBINED, {"players": 2}, [pot(7), MISS, pot(7)])
    actions = COMBINED.legal_actions(state)
    assert [(a.kind, a.max_count) for a in actions] == [
        ("pot", 1),
        ("stroke", None),
        ("svoyak", None),
        ("foul", 1),  # and, optional, the ball pocketed on it (spotted)
    ]  # one ball left: a свояк with an object ball is not possible
    assert actions[-1].optional == ("count",)
    assert "cue_ball_pocketed" in actions[-1].fouls


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (pot(14), "not_enough_balls"),
        (svoyak(14), "not_enough_balls"),
        # 13 object balls fell with the cue ball: none is left to take for the свояк
        (svoyak(13), "no_ball_for_svoyak"),
        (svoyak(0), "malformed_event"),
        (Event("svoyak", count=1.5), "malformed_event"),
        (Event("svoyak", fouls=("miss",)), "malformed_event"),
    ],
)
def test_illegal_events_are_refused(event, code):
    state = replay(COMBINED, {"players": 2}, [pot(2)])
    assert state.on_table == 13
    refused(COMBINED, state, event, code)
    assert COMBINED.apply(state, svoyak(12)).on_table == 0  # the table is cleared: 12 + 1


def test_a_foul_keeps_how_many_balls_fell_on_it():
    """docs/rules/pyramid.md, worked example (Комбинированная): A pockets 2 (on the shelf 2,
    on the table 13); B fouls (a miss) and two balls fell on it — they are spotted, A takes a
    penalty ball: shelves 3 : 0, on the table 12."""
    state = replay(COMBINED, {"players": 2}, [pot(2), MISS])
    event = Event("foul", fouls=("miss",), count=2)
    after = COMBINED.apply(state, event)
    assert (after.scores, after.on_table) == ((3, 0), 12)
    assert COMBINED.describe(state, event, after).render() == (
        "Player 2: foul (Miss (no ball hit)) — Player 1 takes a penalty ball, shelf 3; "
        "pocketed on it and spotted: 2"
    )
    refused(COMBINED, state, Event("foul", fouls=("miss",), count=14), "not_enough_balls")
    refused(COMBINED, state, Event("foul", fouls=("miss",), count=0), "malformed_event")


def test_a_svoyak_with_no_object_ball_left_says_so():
    """The cue ball followed the last object ball: there is none to take for the свояк. It
    said «Only 1 balls are on the table»."""
    state = replay(COMBINED, {"players": 2}, [pot(7), MISS, pot(7)])
    assert state.on_table == 1
    violation = refused(COMBINED, state, svoyak(1), "no_ball_for_svoyak")
    assert violation == (
        "No object ball is left on the table to take for the svoyak: record the balls "
        "pocketed without it."
    )
    assert refused(COMBINED, state, pot(2), "not_enough_balls") == (
        "Only one ball is on the table."
    )
