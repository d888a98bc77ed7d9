"""«Кладка шаров кием»: strokes and penalties, the three handicaps with worked numbers, the
normal and the conditional draw, the early decision, the end of the game, the settings."""

import pytest
from django.utils import translation

from games.i18n import render_message
from games.rules import Event, RuleViolation, SettingsError, get_variant, replay, replay_log

CUE_RUN = get_variant("cue_run")

STROKE = Event("stroke")  # nothing pocketed
POT = Event("pot")  # one ball pocketed
BALL_OFF = Event("ball_off")
STOP = Event("stop")


def foul_stroke(*fouls):
    return Event("foul_stroke", fouls=fouls or ("double_hit",))


def foul_pot(*fouls):
    return Event("foul_pot", fouls=fouls or ("double_hit",))


def touch():
    return Event("penalty", fouls=("touched",))


def run_in(strokes):
    """A complete run of 16 balls in ``strokes`` strokes (the misses come first)."""
    assert strokes >= 16
    return [STROKE] * (strokes - 16) + [POT] * 16


def play(events, players=2, **settings):
    return replay(CUE_RUN, {"players": players, **settings}, events)


def describe_last(events, players=2, **settings):
    return replay_log(CUE_RUN, {"players": players, **settings}, events)[-1].description.render()


# --- strokes and penalties ------------------------------------------------------------------


def test_every_stroke_counts_one_and_a_pot_puts_one_ball_down():
    state = play([STROKE, POT, POT, STROKE])
    assert state.strokes == (4, 0)
    assert state.scores == state.strokes
    assert state.balls_down == (2, 0)
    assert state.penalties == (0, 0)
    assert state.turn == 0
    assert not state.runs_done[0]


def test_double_hit_costs_the_stroke_and_a_penalty_stroke():
    state = play([foul_stroke("double_hit")])
    assert state.strokes == (2, 0)
    assert state.penalties == (1, 0)
    assert state.balls_down == (0, 0)


def test_a_ball_pocketed_with_a_double_hit_stays_down_and_the_penalty_is_plus_one():
    state = play([foul_pot("double_hit")])
    assert state.balls_down == (1, 0)
    assert state.strokes == (2, 0)


@pytest.mark.parametrize("kind", ["foul_stroke", "foul_pot"])
def test_touching_a_ball_with_clothing_hand_cue_machine_or_mazik_costs_plus_one(kind):
    state = play([Event(kind, fouls=("touched",))])
    assert state.strokes == (2, 0)
    assert state.penalties == (1, 0)
    assert CUE_RUN.seat_stats(state)[0]["fouls"] == {"double_hit": 0, "touched": 1}


def test_a_touch_between_strokes_is_plus_one_without_a_stroke():
    state = play([POT, touch()])
    assert state.strokes == (2, 0)
    assert state.penalties == (1, 0)
    assert state.balls_down == (1, 0)


def test_a_double_hit_is_recorded_with_its_stroke_not_on_its_own():
    with pytest.raises(RuleViolation) as raised:
        play([Event("penalty", fouls=("double_hit",))])
    assert raised.value.code == "malformed_event"


def test_several_fouls_in_one_stroke_are_penalised_once():
    state = play([foul_pot("double_hit", "touched")])
    assert state.strokes == (2, 0)
    assert state.penalties == (1, 0)
    assert CUE_RUN.seat_stats(state)[0]["fouls"] == {"double_hit": 1, "touched": 1}


def test_a_ball_off_the_table_goes_back_without_penalty_but_the_stroke_counts():
    state = play([POT, BALL_OFF])
    assert state.strokes == (2, 0)
    assert state.penalties == (0, 0)
    assert state.balls_down == (1, 0)
    assert CUE_RUN.seat_stats(state)[0]["balls_off"] == 1


def test_a_stroke_event_carries_no_count_and_foul_events_need_a_foul():
    with pytest.raises(RuleViolation):
        play([Event("pot", count=2)])  # a stroke counts one ball at most
    with pytest.raises(RuleViolation):
        play([Event("foul_stroke")])
    with pytest.raises(RuleViolation) as raised:
        play([Event("foul_stroke", fouls=("miss",))])
    assert raised.value.code == "unknown_foul"
    with pytest.raises(RuleViolation) as raised:
        play([Event("score")])
    assert raised.value.code == "unknown_event"


# --- runs and the result ----------------------------------------------------------------------


def test_a_run_ends_when_all_16_balls_are_down_and_the_next_participant_starts():
    state = play(run_in(18))
    assert state.runs_done == (True, False)
    assert state.adjusted == (18, None)
    assert state.turn == 1
    assert state.to_beat == 18  # the second runner must not exceed 18 to win or draw


def test_fewer_strokes_win():
    state = play(run_in(18) + run_in(17))
    assert state.finished
    assert state.result.winners == (1,)
    assert state.result.draw is None
    assert state.result.scores == (18, 17)


def test_16_in_16_by_every_participant_is_a_normal_draw():
    state = play(run_in(16) + run_in(16))
    assert state.result.winners == (0, 1)
    assert state.result.draw == "normal"
    assert [s["perfect"] for s in CUE_RUN.seat_stats(state)] == [True, True]


@pytest.mark.parametrize(
    "handicap",
    [
        {"handicap": "start", "strong_seat": 1},
        {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 0},
        {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 1},
        {"handicap": "mixed", "handicap_strokes": 2, "strong_seat": 0},
        {"handicap": "mixed", "handicap_strokes": 2, "strong_seat": 1},
    ],
)
def test_16_in_16_by_both_is_a_normal_draw_also_with_a_handicap(handicap):
    # «если и сильный (дающий фору), и слабый (берущий фору) игроки сыгрывают 16 шаров за 16
    # ударов» — a normal draw, whatever the adjusted totals would say.
    state = play(run_in(16) + run_in(16), **handicap)
    assert state.finished
    assert state.result.winners == (0, 1)
    assert state.result.draw == "normal"


def test_equal_totals_that_are_not_all_perfect_are_a_conditional_draw():
    state = play(run_in(18) + run_in(18))
    assert state.result.winners == (0, 1)
    assert state.result.draw == "conditional"
    assert state.result.scores == (18, 18)


def test_penalties_make_a_run_not_perfect():
    state = play([touch()] + run_in(16) + run_in(17))
    assert state.strokes == (17, 17)
    assert state.result.draw == "conditional"
    assert [s["perfect"] for s in CUE_RUN.seat_stats(state)] == [False, False]


# --- handicaps, worked numbers ----------------------------------------------------------------


def test_handicap_start_the_stronger_player_runs_first():
    state = play([], handicap="start", strong_seat=1)
    assert state.turn == 1
    state = play(run_in(17) + run_in(18), handicap="start", strong_seat=1)
    assert state.strokes == (18, 17)
    assert state.adjusted == (18, 17)  # no strokes are given
    assert state.result.winners == (1,)


def test_handicap_extra_strokes_the_weaker_total_is_his_strokes_minus_n():
    # Player 2 is stronger; player 1 (weaker) gets 3 strokes: 19 − 3 = 16 beats 17.
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 1}
    state = play(run_in(19) + run_in(17), **settings)
    assert state.turn == 1  # the seating order: the weaker player ran first
    assert state.adjusted == (16, 17)
    assert state.result.winners == (0,)
    assert state.result.scores == (16, 17)


def test_handicap_extra_strokes_equal_adjusted_totals_are_a_conditional_draw():
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 1}
    state = play(run_in(20) + run_in(17), **settings)
    assert state.adjusted == (17, 17)
    assert state.result.draw == "conditional"


def test_handicap_mixed_the_stronger_starts_and_his_total_is_his_strokes_plus_n():
    # Player 1 is stronger, starts, and has 2 strokes fewer: 18 + 2 = 20.
    settings = {"handicap": "mixed", "handicap_strokes": 2, "strong_seat": 0}
    first = play(run_in(18), **settings)
    assert first.adjusted == (20, None)
    assert first.to_beat == 20
    assert play(run_in(18) + run_in(19), **settings).result.winners == (1,)
    assert play(run_in(18) + run_in(20), **settings).result.draw == "conditional"
    assert play(run_in(18) + run_in(21), **settings).result.winners == (0,)


def test_handicap_mixed_with_the_second_seat_stronger_starts_with_him():
    settings = {"handicap": "mixed", "handicap_strokes": 2, "strong_seat": 1}
    state = play(run_in(16), **settings)
    assert state.adjusted == (None, 18)
    assert state.turn == 0
    # Player 1 may still draw normally with 16 in 16; otherwise he needs 18 or fewer.
    assert state.to_beat == 18


def test_to_beat_counts_the_runners_own_extra_strokes():
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 0}
    state = play(run_in(18), **settings)  # the stronger ran first: 18
    assert state.to_beat == 21  # the weaker may take 21 strokes: 21 − 3 = 18


def test_to_win_is_one_below_the_figure_to_beat_which_draws():
    """Issue 22 item 2: the console said «Ударов, чтобы выиграть: 18» where 18 draws. The
    engine says both: at most ``to_win`` strokes win, ``to_draw`` strokes draw."""
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 0}
    state = play(run_in(18), **settings)  # the weaker may take 21: 21 − 3 = 18, a draw
    assert (state.to_win, state.to_draw) == (20, 21)
    assert play(run_in(18) + run_in(20), **settings).result.winners == (1,)
    assert play(run_in(18) + run_in(21), **settings).result.draw == "conditional"
    # Once the run has used more strokes than a win allows, only the draw is left; then not
    # even that (the result is declared).
    state = play(run_in(18) + [STROKE] * 5, **settings)  # 5 + 16 balls: 21 at least
    assert (state.to_win, state.to_draw) == (None, 21)
    state = play(run_in(18) + [STROKE] * 6, **settings)
    assert (state.to_win, state.to_draw) == (None, None) and state.decided
    assert play([], **settings).to_win is None  # nothing to win against before the first run


def test_after_a_weaker_perfect_run_the_stronger_can_still_draw_with_16_in_16():
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 1}
    state = play(run_in(16), **settings)  # the weaker: 16 − 3 = 13
    assert state.adjusted == (13, None)
    assert state.to_beat == 16
    assert (state.to_win, state.to_draw) == (None, 16)  # 16 in 16: a normal draw, no win
    assert not state.decided


# --- the result is declared as soon as it is decided --------------------------------------------


def test_the_result_is_declared_as_soon_as_the_second_runner_exceeds_the_first():
    events = run_in(20) + [STROKE] * 20  # 20 strokes, nothing down yet: at best 36
    state = play(events)
    assert state.decided
    assert state.declared.winners == (0,)
    assert not state.finished and state.result is None
    assert "stop" in [a.kind for a in CUE_RUN.legal_actions(state)]
    assert describe_last(run_in(20) + [STROKE] * 5).endswith("decided: Player 1 wins")


def test_the_result_is_declared_when_the_balls_left_make_it_impossible_to_win():
    events = run_in(20) + [STROKE] * 4 + [POT] * 12  # 16 strokes, 4 balls left: at best 20
    assert not play(events).decided  # 20 would still draw
    state = play(events + [STROKE])  # now at best 21
    assert state.decided
    assert state.declared.winners == (0,)


def test_the_marker_may_let_the_decided_run_finish():
    state = play(run_in(18) + run_in(25))
    assert state.finished
    assert state.result.winners == (0,)
    assert state.result.scores == (18, 25)
    assert [s["complete"] for s in CUE_RUN.seat_stats(state)] == [True, True]


def test_stop_ends_a_run_that_can_no_longer_win_and_finishes_the_game():
    state = play(run_in(18) + [STROKE] * 15 + [POT] * 4 + [STOP])
    assert state.finished
    assert state.result.winners == (0,)
    # The stopped run counts as its 19 strokes plus the 12 balls still on the table.
    assert state.result.scores == (18, 31)
    assert state.adjusted == (18, 31)
    stats = CUE_RUN.seat_stats(state)[1]
    assert stats["stopped"] and not stats["complete"] and stats["balls"] == 4


def test_stop_is_refused_while_the_run_can_still_win_or_draw():
    for events in ([], run_in(18), run_in(18) + [STROKE, STROKE]):
        state = play(events)
        assert "stop" not in [a.kind for a in CUE_RUN.legal_actions(state)]
        with pytest.raises(RuleViolation) as raised:
            CUE_RUN.apply(state, STOP)
        assert raised.value.code == "run_can_still_win"


def test_with_extra_strokes_the_result_can_be_decided_before_the_stronger_starts():
    # The weaker ran first: 18 − 3 = 15; the stronger cannot do better than 16.
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 1}
    state = play(run_in(18), **settings)
    assert state.declared.winners == (0,)
    assert not state.finished
    state = play(run_in(18) + [STOP], **settings)
    assert state.result.winners == (0,)
    assert state.result.scores == (15, 16)


# --- more than two players ------------------------------------------------------------------


def test_three_players_equal_best_totals_draw_conditionally_and_the_rest_lose():
    state = play(run_in(19) + run_in(17) + run_in(17), players=3)
    assert state.result.winners == (1, 2)
    assert state.result.draw == "conditional"


def test_four_players_all_16_in_16_is_a_normal_draw():
    state = play(run_in(16) * 4, players=4)
    assert state.result.winners == (0, 1, 2, 3)
    assert state.result.draw == "normal"


def test_three_players_two_perfect_runs_share_a_normal_draw():
    state = play(run_in(16) + run_in(20) + run_in(16), players=3)
    assert state.result.winners == (0, 2)
    assert state.result.draw == "normal"


def test_five_players_two_share_the_best_total_the_other_three_lose():
    """docs/rules/cue_run.md: the best adjusted total wins; the seats sharing it draw
    (normally only when each of them ran 16 in 16), every other seat loses."""
    state = play(run_in(18) + run_in(17) + run_in(20) + run_in(17) + run_in(19), players=5)
    assert state.finished
    assert state.result.winners == (1, 3)
    assert state.result.draw == "conditional"
    assert state.result.scores == (18, 17, 20, 17, 19)
    state = play(run_in(16) + run_in(17) + run_in(16) + run_in(16), players=4)
    assert state.result.winners == (0, 2, 3)
    assert state.result.draw == "normal"  # each drawer ran 16 in 16; player 2 did not


def test_a_late_runner_can_still_win_so_nothing_is_decided_early():
    state = play(run_in(17) + [STROKE] * 10, players=3)
    assert not state.decided  # player 2 is out of it, but player 3 may still win
    assert "stop" in [a.kind for a in CUE_RUN.legal_actions(state)]
    state = play(run_in(17) + [STROKE] * 10 + [STOP] + run_in(16), players=3)
    assert state.result.winners == (2,)


# --- the end of the game --------------------------------------------------------------------


def test_a_finished_game_accepts_no_further_event():
    state = play(run_in(16) + run_in(17))
    assert state.finished
    assert CUE_RUN.legal_actions(state) == ()
    for event in (STROKE, POT, touch(), STOP):
        with pytest.raises(RuleViolation) as raised:
            CUE_RUN.apply(state, event)
        assert raised.value.code == "game_over"


def test_apply_never_changes_the_state_it_is_given():
    state = play(run_in(18))
    copy = play(run_in(18))
    CUE_RUN.apply(state, foul_pot("touched"))
    with pytest.raises(RuleViolation):
        CUE_RUN.apply(state, STOP)
    assert state == copy


def test_every_offered_action_is_accepted():
    for events in ([], run_in(18), run_in(18) + [STROKE] * 10):
        state = play(events)
        for action in CUE_RUN.legal_actions(state):
            fouls = action.fouls[:1]
            CUE_RUN.apply(state, Event(action.kind, fouls=fouls))


# --- descriptions ---------------------------------------------------------------------------


def test_descriptions_name_the_player_the_stroke_and_the_penalty():
    assert describe_last([POT]) == "Player 1: stroke 1, ball pocketed (1 of 16)"
    assert describe_last([STROKE, foul_stroke()]) == (
        "Player 1: stroke 2, nothing pocketed; Double hit: penalty +1; strokes: 3"
    )
    assert describe_last([BALL_OFF]).startswith("Player 1: stroke 1, a ball off the table")
    assert describe_last(run_in(16)).endswith("perfect run: 16 in 16")
    assert describe_last(run_in(16) + run_in(16)).endswith(
        "game over: normal draw (Player 1, Player 2)"
    )
    settings = {"handicap": "extra_strokes", "handicap_strokes": 3, "strong_seat": 1}
    assert describe_last(run_in(19), **settings).endswith(
        "run complete, strokes: 19, with the handicap: 16"
    )


def test_descriptions_are_in_russian_by_default():
    step = replay_log(CUE_RUN, {"players": 2}, [STROKE, foul_stroke()])[-1]
    with translation.override("ru"):
        text = render_message(step.description)
    assert text == "Игрок 1: удар 2, ничего не забито; Двойной удар: штраф +1; ударов: 3"


# --- settings -------------------------------------------------------------------------------


def test_default_settings_two_players_no_handicap_and_round_trip():
    settings = CUE_RUN.settings_from_dict({"players": 2})
    assert settings.to_dict() == {
        "players": 2,
        "handicap": "none",
        "handicap_strokes": 0,
        "strong_seat": 0,
    }
    assert CUE_RUN.settings_from_dict(settings.to_dict()) == settings


def test_settings_accept_form_data_strings():
    settings = CUE_RUN.settings_from_dict(
        {"players": "2", "handicap": "mixed", "handicap_strokes": "2", "strong_seat": "1"}
    )
    assert (settings.handicap, settings.handicap_strokes, settings.strong_seat) == ("mixed", 2, 1)
    assert CUE_RUN.settings_from_dict(settings.to_dict()) == settings


def test_settings_a_value_the_handicap_does_not_use_is_reset():
    settings = CUE_RUN.settings_from_dict(
        {"players": 2, "handicap": "start", "handicap_strokes": 4, "strong_seat": 1}
    )
    assert (settings.handicap_strokes, settings.strong_seat) == (0, 1)
    settings = CUE_RUN.settings_from_dict(
        {"players": 3, "handicap": "none", "handicap_strokes": 4, "strong_seat": 1}
    )
    assert (settings.handicap_strokes, settings.strong_seat) == (0, 0)


@pytest.mark.parametrize(
    "data, field",
    [
        ({"players": 1}, "players"),
        ({"players": 9}, "players"),
        ({}, "players"),
        ({"players": 3, "handicap": "start"}, "handicap"),
        ({"players": 2, "handicap": "extra_strokes"}, "handicap_strokes"),
        ({"players": 2, "handicap": "mixed", "handicap_strokes": 0}, "handicap_strokes"),
        ({"players": 2, "handicap": "mixed", "handicap_strokes": 16}, "handicap_strokes"),
        ({"players": 2, "handicap": "double"}, "handicap"),
        ({"players": 2, "handicap": "start", "strong_seat": 2}, "strong_seat"),
        ({"players": 2, "handicap_strokes": "two"}, "handicap_strokes"),
        ({"players": 2, "target": 5}, "target"),
    ],
)
def test_settings_are_validated(data, field):
    with pytest.raises(SettingsError) as raised:
        CUE_RUN.settings_from_dict(data)
    assert field in raised.value.errors


def test_up_to_eight_players_without_a_handicap():
    state = play([], players=8)
    assert state.seats == 8
    assert state.order == tuple(range(8))


def test_settings_fields_mark_the_decisions_and_fouls_have_labels():
    fields = {f.name: f for f in CUE_RUN.settings_fields}
    assert set(fields) == {"handicap", "handicap_strokes", "strong_seat"}
    assert fields["handicap"].default == "none"
    assert [code for code, _ in fields["handicap"].choices] == [
        "none",
        "start",
        "extra_strokes",
        "mixed",
    ]
    assert fields["handicap_strokes"].decision
    assert not fields["handicap"].decision  # the three kinds are the source's
    assert set(CUE_RUN.foul_labels) == {"double_hit", "touched"}
    assert CUE_RUN.decisions


def test_seat_stats_have_the_agreed_keys():
    stats = CUE_RUN.seat_stats(play(run_in(17)))
    assert stats[0] == {
        "strokes": 17,
        "penalties": 0,
        "adjusted": 17,
        "balls": 16,
        "complete": True,
        "perfect": False,
        "fouls": {"double_hit": 0, "touched": 0},
        "balls_off": 0,
        "stopped": False,
    }
    assert stats[1]["adjusted"] is None
