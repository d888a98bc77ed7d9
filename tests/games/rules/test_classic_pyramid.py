"""Классическая пирамида («71 очко», docs/rules/pyramid.md): a called ball and pocket; a ball
scores its number, the ace 11, the last ball 10 more; first to 71; 70 : 70 is a draw; a foul
costs 5 points (from the offender by default, or to the opponent)."""

import pytest

from games.rules import Event, Pocket, SettingsError, replay
from games.rules.classic_pyramid import TOTAL_POINTS, stroke_points
from games.rules.classic_pyramid import VARIANT as CLASSIC

from .frames import FL, FR, LM, MISS, NL, NR, RM, foul, play, refused


def called(ball, pocket, *others):
    """The called ball went into the called pocket; ``others`` fell on the same stroke."""
    return Event("pot", ball=ball, pocket=pocket, extra_balls=others)


def test_all_the_points_make_140():
    assert TOTAL_POINTS == 140  # 2 + … + 15 = 119, the ace 11, the last ball 10


def test_a_frame_written_out_stroke_by_stroke():
    state = play(
        CLASSIC,
        {},
        [
            (called(3, FL), {"scores": (3, 0), "turn": 0}),
            (called(1, NR, 5), {"scores": (19, 0), "turn": 0}),  # the ace 11 + ball 5
            (MISS, {"scores": (19, 0), "turn": 1}),
            (called(15, RM), {"scores": (19, 15), "turn": 1}),
            (foul("cue_ball_pocketed"), {"scores": (19, 10), "turn": 0, "in_hand": "home"}),
            (called(14, FR, 13, 12), {"scores": (58, 10), "in_hand": ""}),  # 14 + 13 + 12
            (called(2, LM), {"scores": (60, 10)}),
            (MISS, {"turn": 1}),
            (called(11, NL, 10), {"scores": (60, 31)}),
            (called(9, FL), {"scores": (60, 40)}),
            (called(8, FL), {"scores": (60, 48), "table": (4, 6, 7)}),
            (foul("miss"), {"scores": (60, 43), "turn": 0, "in_hand": ""}),
            (called(7, RM), {"scores": (67, 43), "table": (4, 6)}),
            (foul("double_hit"), {"scores": (62, 43), "turn": 1}),
            # B clears the table: 6 + 4 + the last-ball bonus 10
            (called(6, NL, 4), {"scores": (62, 63), "table": (), "finished": True}),
        ],
        expect_at_start={"scores": (0, 0), "table": tuple(range(1, 16)), "in_hand": "home"},
    )
    # nobody reached 71 (fouls cost 15 points): the higher score wins
    assert state.result.winners == (1,)
    assert state.result.draw is None
    # the called ball first, then the others in number order
    assert state.shelves == ((3, 1, 5, 14, 12, 13, 2, 7), (15, 11, 10, 9, 8, 6, 4))
    stats = CLASSIC.seat_stats(state)
    assert stats[0] == {"points": 62, "balls": 8, "fouls": 1, "penalty_points": 5, "best_run": 4}
    assert stats[1] == {"points": 63, "balls": 7, "fouls": 2, "penalty_points": 10, "best_run": 4}


def test_the_first_to_71_wins():
    state = play(
        CLASSIC,
        {},
        [
            (called(15, FL, 14, 13, 12, 11), {"scores": (65, 0)}),
            (called(6, FL), {"scores": (71, 0), "finished": True}),
        ],
    )
    assert state.result.winners == (0,)
    refused(CLASSIC, state, called(2, FL), "game_over")


def test_the_table_cleared_at_70_70_is_a_draw():
    state = play(
        CLASSIC,
        {},
        [
            (called(15, FL, 14, 13, 12, 11, 5), {"scores": (70, 0)}),  # 70: not yet 71
            (MISS, {"turn": 1}),
            (called(1, FR, 2, 3, 4, 6, 7, 8, 9), {"scores": (70, 50)}),  # 11 + 2 + … + 9
            (called(10, RM), {"scores": (70, 70), "table": (), "finished": True}),  # 10 + 10
        ],
    )
    assert state.result.winners == (0, 1)
    assert state.result.draw == "normal"


def test_a_penalty_to_the_opponent_may_win_the_frame():
    state = play(
        CLASSIC,
        {"penalty_to": "opponent", "target": 51},
        [
            (called(15, FL, 14, 13), {"scores": (42, 0)}),
            (called(4, FL), {"scores": (46, 0)}),
            (called(2, FL), {"scores": (48, 0)}),
            (MISS, {"turn": 1}),
            (foul("touched"), {"scores": (53, 0), "finished": True}),
        ],
    )
    assert state.result.winners == (0,)


def test_the_handicap_a_head_start_and_the_stronger_s_called_ball_returned():
    state = play(
        CLASSIC,
        {"weaker_seat": 1, "head_start": 10, "returned_pots": 2},
        [
            # A (the stronger) pockets 15 as called with 14: both spotted back, no points
            (called(15, FL, 14), {"scores": (0, 10), "table": tuple(range(1, 16))}),
            # then 13 with 12 and 3: 13 and 12 count; he plays on
            (called(13, FL, 12), {"scores": (25, 10), "to_return": 0, "turn": 0}),
        ],
        expect_at_start={"scores": (0, 10), "to_return": 2},
    )
    assert stroke_points(state, 15, (14,)).points == 29


def test_the_points_shown_before_the_stroke_is_recorded():
    state = replay(CLASSIC, {"players": 2}, [called(15, FL, *range(3, 15))])
    assert state.table == (1, 2)
    preview = stroke_points(state, 1)
    assert (preview.points, preview.bonus) == (11, 0)
    preview = stroke_points(state, 2, (1,))  # clears the table: 2 + 11 + 10
    assert (preview.points, preview.bonus, preview.kept) == (23, 10, (2, 1))


@pytest.mark.parametrize(
    ("event", "code", "reason"),
    [
        (called(3, FL), "ball_not_on_table", "Ball 3 is not on the table: it is already down."),
        (
            called(16, FL),
            "ball_not_on_table",
            "There is no ball 16: the balls are numbered 1 to 15.",
        ),
        (called(5, FL, 3), "ball_not_on_table", "Ball 3 is not on the table: it is already down."),
        (called(5, FL, 5), "malformed_event", "Ball 5 is the called ball; list only the others."),
        (called(5, FL, 6, 6), "malformed_event", "A ball is listed more than once."),
        (Event("pot", ball=5), "malformed_event", "This event needs its “pocket”."),
        (Event("pot", pocket=FL), "malformed_event", "This event needs its “ball”."),
        (Event("pot", ball=5, pocket=FL, count=2), "malformed_event", None),
        (Event("stroke", extra_balls=(5,)), "malformed_event", "This event takes no “balls”."),
        (Event("svoyak"), "unknown_event", None),
        (Event("foul", fouls=("bogus",)), "unknown_foul", None),
    ],
)
def test_illegal_events_are_refused_with_a_reason_and_change_nothing(event, code, reason):
    state = replay(CLASSIC, {"players": 2}, [called(3, FL)])
    text = refused(CLASSIC, state, event, code)
    if reason:
        assert text == reason


def test_the_buttons_offered_are_the_balls_on_the_table_and_the_six_pockets():
    state = replay(CLASSIC, {"players": 2}, [called(3, FL, 7)])
    pot_action = CLASSIC.legal_actions(state)[0]
    assert pot_action.kind == "pot"
    assert 3 not in pot_action.balls and 7 not in pot_action.balls
    assert len(pot_action.balls) == 13
    assert pot_action.pockets == tuple(Pocket)
    assert pot_action.extra_balls == pot_action.balls


@pytest.mark.parametrize(
    "data", [{"head_start": 71}, {"target": 150}, {"penalty_to": "marker"}, {"foul_penalty": -1}]
)
def test_bad_settings_are_refused(data):
    with pytest.raises(SettingsError):
        CLASSIC.settings_from_dict({"players": 2, **data})


# --- the log keeps what the marker said (issue 22 item 8) ------------------------------------


def test_a_stroke_keeps_the_call_the_marker_gave():
    """«Лена: заказ — шар 7, луза: дальняя левая угловая — заказ не выполнен; бьёт Сокол»
    (docs/rules/pyramid.md): the call stays in the log; nothing else changes."""
    state = replay(CLASSIC, {"players": 2}, [])
    events = [
        Event("stroke", ball=7, pocket=FL),
        Event("stroke", ball=7),
        Event("stroke", pocket=FL),
        MISS,
    ]
    texts = [CLASSIC.describe(state, e, CLASSIC.apply(state, e)).render() for e in events]
    assert texts == [
        "Player 1: ball 7 called into the far left corner — not pocketed as called; "
        "Player 2 to play",
        "Player 1: ball 7 called — not pocketed as called; Player 2 to play",
        "Player 1: called into the far left corner — not pocketed as called; Player 2 to play",
        "Player 1: nothing pocketed as called; Player 2 to play",
    ]
    assert {CLASSIC.apply(state, e).turn for e in events} == {1}
    assert Event("stroke", ball=7, pocket=FL).to_payload() == {"ball": 7, "pocket": "far_left"}
    refused(
        CLASSIC, replay(CLASSIC, {"players": 2}, [called(7, FL)]), events[0], "ball_not_on_table"
    )


def test_a_foul_keeps_the_balls_pocketed_on_it_which_are_spotted():
    state = replay(CLASSIC, {"players": 2}, [called(3, FL)])
    event = Event("foul", fouls=("miss",), extra_balls=(12, 5))
    after = CLASSIC.apply(state, event)
    assert after.table == state.table and after.scores == (-2, 0)  # spotted: only the log
    assert CLASSIC.describe(state, event, after).render() == (
        "Player 1: foul (Miss (no ball hit)) — −5 = -2; balls pocketed on it, spotted: 12, 5"
    )
    refused(CLASSIC, state, Event("foul", fouls=("miss",), extra_balls=(3,)), "ball_not_on_table")
    refused(CLASSIC, state, Event("foul", fouls=("miss",), extra_balls=(5, 5)), "malformed_event")


def test_the_marker_names_the_balls_the_handicap_puts_back():
    """docs/rules/pyramid.md, worked example: returned pots 1, A (the stronger) pockets 13 as
    called with 12 and 3; the marker names 3 as the ball spotted: 13 + 12 = 25 points; naming
    none, 13 goes back: 12 + 3 = 15."""
    settings = {"weaker_seat": 1, "returned_pots": 1}
    named = play(
        CLASSIC,
        settings,
        [(Event("pot", ball=13, pocket=FL, extra_balls=(12, 3), returned=(3,)), {})],
    )
    assert (named.scores, named.shelves[0], 3 in named.table) == ((25, 0), (13, 12), True)
    default = play(CLASSIC, settings, [(called(13, FL, 12, 3), {})])
    assert (default.scores, default.shelves[0], 13 in default.table) == ((15, 0), (3, 12), True)
    state = replay(CLASSIC, {"players": 2, **settings}, [])
    assert CLASSIC.legal_actions(state)[0].returns == 1
    event = Event("pot", ball=13, pocket=FL, extra_balls=(12, 3), returned=(3,))
    text = CLASSIC.describe(state, event, CLASSIC.apply(state, event)).render()
    assert text.endswith("returned to the table (handicap): 3")
    # what may not be named: a ball that did not fall, too many or too few, a ball twice, and
    # anything once the handicap's balls are back (or for the weaker)
    for returned, code in [
        ((5,), "malformed_event"),
        ((3, 12), "returned_count"),
        ((3, 3), "malformed_event"),
    ]:
        wrong = Event("pot", ball=13, pocket=FL, extra_balls=(12, 3), returned=returned)
        refused(CLASSIC, state, wrong, code)
    after = replay(CLASSIC, {"players": 2, **settings}, [called(15, FL), MISS])
    assert CLASSIC.legal_actions(after)[0].returns == 0  # the weaker's turn
    wrong = Event("pot", ball=13, pocket=FL, returned=(13,))
    refused(CLASSIC, after, wrong, "nothing_returned")
