"""Динамичная пирамида («Невская», docs/rules/pyramid.md): as Комбинированная, but after a
свояк the cue ball is played from anywhere, and on that premium stroke pocketing the cue ball
is a foul, not a свояк."""

from games.rules import replay
from games.rules.dynamic_pyramid import VARIANT as DYNAMIC

from .frames import MISS, foul, play, pot, refused, svoyak


def test_a_frame_written_out_stroke_by_stroke():
    state = play(
        DYNAMIC,
        {},
        [
            (svoyak(), {"scores": (1, 0), "on_table": 14, "in_hand": "anywhere", "premium": True}),
            (pot(1), {"scores": (2, 0), "on_table": 13, "in_hand": "", "premium": False}),
            (svoyak(2), {"scores": (5, 0), "on_table": 10, "in_hand": "anywhere"}),
            # the cue ball pocketed on the premium stroke: a foul, B takes a penalty ball
            (foul("cue_ball_pocketed"), {"scores": (5, 1), "on_table": 9, "turn": 1}),
            (svoyak(), {"scores": (5, 2), "on_table": 8, "turn": 1, "in_hand": "anywhere"}),
            (pot(2), {"scores": (5, 4), "on_table": 6, "in_hand": ""}),
            (MISS, {"turn": 0}),
            (pot(3), {"scores": (8, 4), "on_table": 3, "finished": True}),
        ],
    )
    assert state.result.winners == (0,)
    assert DYNAMIC.seat_stats(state)[0]["svoyaki"] == 2


def test_after_a_foul_that_lost_the_cue_ball_the_opponent_plays_from_home():
    state = replay(DYNAMIC, {"players": 2}, [svoyak(), foul("cue_ball_pocketed")])
    assert state.in_hand == "home"
    assert not state.premium


def test_no_svoyak_on_the_premium_stroke():
    state = replay(DYNAMIC, {"players": 2}, [svoyak()])
    reason = refused(DYNAMIC, state, svoyak(), "premium_stroke")
    assert "only object balls" in reason
    refused(DYNAMIC, state, svoyak(1), "premium_stroke")
    assert "svoyak" not in [a.kind for a in DYNAMIC.legal_actions(state)]
    after = DYNAMIC.apply(state, pot(1))  # the premium stroke pockets an object ball
    assert "svoyak" in [a.kind for a in DYNAMIC.legal_actions(after)]
