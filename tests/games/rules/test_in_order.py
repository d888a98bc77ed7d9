"""«Кладка шаров по порядку номеров» (docs/rules/pyramid.md): the clockwise game without the
pocket order — the lowest ball on the table is on, any pocket, it scores its number, the first
to 61 wins; a foul costs the value of the ball on."""

import pytest

from games.rules import Event, SettingsError, replay
from games.rules.in_order import VARIANT as IN_ORDER

from .frames import MISS, foul, play, refused


def ball(number):
    return Event("pot", ball=number)


def test_a_frame_written_out_stroke_by_stroke():
    state = play(
        IN_ORDER,
        {},
        [
            (ball(1), {"scores": (1, 0), "ball_on": 2, "turn": 0}),  # on the break: it counts
            (ball(2), {"scores": (3, 0), "ball_on": 3}),
            (MISS, {"turn": 1}),
            (foul("miss"), {"scores": (3, -3), "turn": 0}),  # ball 3 is on: −3
            (ball(3), {"scores": (6, -3)}),
            (ball(4), {"scores": (10, -3)}),
            (MISS, {"turn": 1}),
            (ball(5), {"scores": (10, 2)}),
            (ball(6), {"scores": (10, 8)}),
            (ball(7), {"scores": (10, 15)}),
            (ball(8), {"scores": (10, 23)}),
            (ball(9), {"scores": (10, 32)}),
            (MISS, {"turn": 0}),
            (ball(10), {"scores": (20, 32)}),
            (ball(11), {"scores": (31, 32)}),
            (ball(12), {"scores": (43, 32)}),
            (foul("cue_ball_pocketed"), {"scores": (30, 32), "turn": 1}),  # ball 13 on: −13
            (ball(13), {"scores": (30, 45)}),
            (ball(14), {"scores": (30, 59), "balls_left": (15,)}),
            (ball(15), {"scores": (30, 74), "finished": True}),
        ],
    )
    assert state.result.winners == (1,)
    stats = IN_ORDER.seat_stats(state)
    assert stats[1] == {"points": 74, "balls": 8, "fouls": 1, "best_run": 5}


def test_with_one_point_a_ball_8_win_before_the_table_is_cleared():
    pots = [ball(n) for n in range(1, 9)]
    state = replay(IN_ORDER, {"players": 2, "points_per_ball": "one"}, pots)
    assert state.finished and state.scores == (8, 0)
    assert state.balls_left == tuple(range(9, 16))


def test_the_handicap_head_start_in_points_and_a_returned_pot():
    state = play(
        IN_ORDER,
        {"weaker_seat": 1, "head_start": 20, "returned_pots": 1},
        [
            (ball(1), {"scores": (0, 20), "ball_on": 1, "to_return": 0, "turn": 0}),
            (ball(1), {"scores": (1, 20), "ball_on": 2}),
        ],
        expect_at_start={"scores": (0, 20)},
    )
    assert state.turn == 0


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (ball(1), "ball_not_on_table"),  # already down
        (ball(5), "not_ball_on"),
        (Event("pot"), "malformed_event"),
        (Event("pot", ball=True), "malformed_event"),
        (Event("pot", ball=2, count=1), "malformed_event"),
        (Event("break"), "unknown_event"),
    ],
)
def test_illegal_events_are_refused(event, code):
    state = replay(IN_ORDER, {"players": 2}, [ball(1)])
    refused(IN_ORDER, state, event, code)


def test_a_stroke_after_the_frame_is_won_is_refused():
    state = replay(IN_ORDER, {"players": 2}, [ball(n) for n in range(1, 12)])
    assert state.finished  # 1 + … + 11 = 66
    refused(IN_ORDER, state, MISS, "game_over")


@pytest.mark.parametrize(
    "data",
    [{"head_start": 61}, {"points_per_ball": "one", "head_start": 8}, {"breaker_continues": True}],
)
def test_bad_settings_are_refused(data):
    with pytest.raises(SettingsError):
        IN_ORDER.settings_from_dict({"players": 2, **data})


@pytest.mark.parametrize("code", ["double_hit", "no_foot_on_floor", "balls_moving", "out_of_turn"])
def test_the_fouls_every_pyramid_game_has_count_here_too(code):
    """Issue 22 item 8: only the clockwise game's five fouls were accepted."""
    state = replay(IN_ORDER, {"players": 2}, [ball(1), ball(2)])
    after = IN_ORDER.apply(state, Event("foul", fouls=(code,)))
    assert (after.scores, after.turn) == ((0, 0), 1)  # ball 3 on: −3
    assert code in IN_ORDER.legal_actions(state)[-1].fouls


def test_a_foul_keeps_the_balls_pocketed_on_it():
    state = replay(IN_ORDER, {"players": 2}, [ball(1)])
    event = Event("foul", fouls=("miss",), extra_balls=(7,))
    after = IN_ORDER.apply(state, event)
    assert after.balls_left == state.balls_left  # spotted
    assert (
        IN_ORDER.describe(state, event, after).render().endswith("balls pocketed on it, spotted: 7")
    )
    refused(IN_ORDER, state, Event("foul", fouls=("miss",), extra_balls=(1,)), "ball_not_on_table")
