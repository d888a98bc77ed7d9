"""«Снимание шаров рукой»: the source's break rules, then the decided rules — pots, turns,
fouls returning a ball, the first to 8, the balls on the table, the settings."""

import pytest
from django.utils import translation

from games.i18n import render_message
from games.rules import Event, RuleViolation, SettingsError, get_variant, replay, replay_log

CUE_VS_HAND = get_variant("cue_vs_hand")

POSITION = Event("position")
STROKE = Event("stroke")
BREAK_DROPPED = Event("pot")  # on the break: a ball dropped
BREAK_NOTHING = Event("stroke")  # on the break: nothing dropped


def pot(count=1):
    return Event("pot", count=count)


def foul(*codes):
    return Event("foul", fouls=codes or ("miss",))


def play(events, **settings):
    return replay(CUE_VS_HAND, {"players": 2, **settings}, events)


def describe_last(events, **settings):
    log = replay_log(CUE_VS_HAND, {"players": 2, **settings}, events)
    return log[-1].description.render()


# --- the break (stated by the seed) -------------------------------------------------------


def test_the_cue_player_opens_and_breaks():
    state = play([])
    assert (state.cue_seat, state.hand_seat) == (0, 1)
    assert state.turn == 0
    assert not state.broken
    assert state.balls_on_table == 15
    state = play([], cue_seat=1)
    assert (state.cue_seat, state.hand_seat, state.turn) == (1, 0, 1)


def test_he_may_first_play_the_cue_ball_off_a_cushion_behind_the_pyramid():
    state = play([POSITION])
    assert not state.broken
    assert state.turn == 0
    assert state.applied == 1


def test_a_ball_that_drops_on_the_break_is_put_back_and_the_same_player_keeps_the_stroke():
    state = play([BREAK_DROPPED])
    assert state.broken
    assert state.scores == (0, 0)
    assert state.balls_on_table == 15
    assert state.turn == 0  # the cue player plays on
    assert play([Event("pot", count=3)]).scores == (0, 0)


def test_if_nothing_drops_on_the_break_the_turn_passes_to_the_hand_player():
    state = play([BREAK_NOTHING])
    assert state.broken
    assert state.turn == 1


def test_a_foul_on_the_break_opens_the_game_and_passes_the_turn():
    state = play([foul("cue_ball_pocketed")])
    assert state.broken
    assert state.turn == 1
    assert state.scores == (0, 0)


def test_no_positioning_stroke_after_the_break():
    with pytest.raises(RuleViolation) as raised:
        play([BREAK_NOTHING, POSITION])
    assert raised.value.code == "already_broken"


def test_the_break_offers_the_break_buttons():
    kinds = [a.kind for a in CUE_VS_HAND.legal_actions(play([]))]
    assert kinds == ["pot", "stroke", "foul", "position"]
    kinds = [a.kind for a in CUE_VS_HAND.legal_actions(play([BREAK_NOTHING]))]
    assert kinds == ["pot", "stroke", "foul"]


# --- after the break (decisions) ------------------------------------------------------------


def test_balls_count_one_each_for_whoever_pocketed_them_and_a_pot_continues():
    state = play([BREAK_NOTHING, pot(), pot(2)])  # the hand player pockets 3 in two strokes
    assert state.scores == (0, 3)
    assert state.turn == 1
    assert state.balls_on_table == 12


def test_a_stroke_without_a_pot_passes_the_turn():
    state = play([BREAK_DROPPED, pot(), STROKE])
    assert state.scores == (1, 0)
    assert state.turn == 1


@pytest.mark.parametrize("code", ["miss", "cue_ball_pocketed", "cue_ball_off_table", "touched"])
def test_each_foul_returns_one_of_the_fouling_players_balls_and_passes_the_turn(code):
    state = play([BREAK_DROPPED, pot(3), foul(code)])
    assert state.scores == (2, 0)
    assert state.balls_on_table == 13  # the returned ball is back on the table
    assert state.turn == 1
    assert CUE_VS_HAND.seat_stats(state)[0]["fouls"][code] == 1


def test_a_foul_with_no_ball_to_return_only_passes_the_turn():
    state = play([BREAK_NOTHING, foul("miss")])
    assert state.scores == (0, 0)
    assert state.turn == 0


def test_several_fouls_in_one_stroke_return_one_ball():
    state = play([BREAK_DROPPED, pot(3), foul("miss", "touched")])
    assert state.scores == (2, 0)
    stats = CUE_VS_HAND.seat_stats(state)[0]
    assert stats["fouls_total"] == 1
    assert stats["fouls"] == {
        "miss": 1,
        "cue_ball_pocketed": 0,
        "cue_ball_off_table": 0,
        "touched": 1,
    }


def test_the_hand_player_fouls_too():
    state = play([BREAK_NOTHING, pot(2), foul("cue_ball_pocketed")])
    assert state.scores == (0, 1)
    assert state.turn == 0


def test_the_first_to_8_balls_wins():
    state = play([BREAK_DROPPED, pot(7)])
    assert not state.finished
    state = play([BREAK_DROPPED, pot(7), pot()])
    assert state.finished
    assert state.result.winners == (0,)
    assert state.result.draw is None
    assert state.result.scores == (8, 0)


def test_the_hand_player_can_win():
    state = play([BREAK_NOTHING, pot(4), STROKE, pot(7), STROKE, pot(4)])
    assert state.scores == (7, 8)
    assert state.result.winners == (1,)


def test_the_target_is_configurable():
    state = play([BREAK_DROPPED, pot(5)], target=5)
    assert state.result.winners == (0,)


def test_a_finished_game_accepts_no_further_event():
    state = play([BREAK_DROPPED, pot(8)])
    assert CUE_VS_HAND.legal_actions(state) == ()
    for event in (STROKE, pot(), foul(), POSITION):
        with pytest.raises(RuleViolation) as raised:
            CUE_VS_HAND.apply(state, event)
        assert raised.value.code == "game_over"


# --- the balls on the table -----------------------------------------------------------------


def test_balls_on_the_table_are_15_minus_both_scores_and_a_pot_cannot_exceed_them():
    state = play([BREAK_DROPPED, pot(7), STROKE, pot(7)])
    assert state.balls_on_table == 1
    assert CUE_VS_HAND.legal_actions(state)[0].max_count == 1
    with pytest.raises(RuleViolation) as raised:
        CUE_VS_HAND.apply(state, pot(2))
    assert raised.value.code == "not_enough_balls"
    assert CUE_VS_HAND.apply(state, pot(1)).result.winners == (1,)


def test_the_game_ends_before_the_table_is_empty():
    # With the target at most 8 of 15, the last ball always makes a winner.
    state = play([BREAK_DROPPED, pot(7), STROKE, pot(7), pot(1)])
    assert state.finished and state.balls_on_table == 0


@pytest.mark.parametrize("count", [0, -1])
def test_a_pot_counts_at_least_one_ball(count):
    with pytest.raises(RuleViolation):
        play([BREAK_DROPPED, pot(count)])


def test_events_with_wrong_details_are_rejected():
    for event in (
        Event("stroke", fouls=("miss",)),
        Event("foul"),
        Event("foul", fouls=("double_hit",)),
        Event("pot", ball=3),
        Event("penalty"),
    ):
        with pytest.raises(RuleViolation):
            play([BREAK_NOTHING, event])


def test_apply_never_changes_the_state_it_is_given():
    state = play([BREAK_DROPPED, pot(3)])
    CUE_VS_HAND.apply(state, foul())
    assert state == play([BREAK_DROPPED, pot(3)])


# --- descriptions ---------------------------------------------------------------------------


def test_descriptions_say_who_did_what_with_his_role():
    assert describe_last([BREAK_NOTHING]) == (
        "Player 1 (cue): break, nothing dropped; Player 2 (hand) to play"
    )
    assert describe_last([BREAK_DROPPED]).startswith("Player 1 (cue): break, a ball dropped")
    assert describe_last([BREAK_NOTHING, pot(2)]) == (
        "Player 2 (hand): +2, balls: 2 (on the table: 13)"
    )
    assert describe_last([BREAK_NOTHING, pot(2), foul("miss")]) == (
        "Player 2 (hand): foul (Miss), returns a ball: 1; Player 1 (cue) to play"
    )
    assert describe_last([BREAK_DROPPED, pot(8)]).endswith("wins the game")


def test_descriptions_are_in_russian_by_default():
    step = replay_log(CUE_VS_HAND, {"players": 2}, [BREAK_NOTHING])[-1]
    with translation.override("ru"):
        text = render_message(step.description)
    assert text == "Игрок 1 (кий): разбивка, ничего не упало; играет Игрок 2 (рука)"


# --- settings -------------------------------------------------------------------------------


def test_default_settings_and_round_trip():
    settings = CUE_VS_HAND.settings_from_dict({"players": 2})
    assert settings.to_dict() == {"players": 2, "target": 8, "cue_seat": 0}
    assert CUE_VS_HAND.settings_from_dict(settings.to_dict()) == settings
    form_data = {"players": "2", "target": "6", "cue_seat": "1"}
    assert CUE_VS_HAND.settings_from_dict(form_data).to_dict() == {
        "players": 2,
        "target": 6,
        "cue_seat": 1,
    }


@pytest.mark.parametrize(
    "data, field",
    [
        ({"players": 3}, "players"),
        ({"players": 2, "target": 9}, "target"),
        ({"players": 2, "target": 0}, "target"),
        ({"players": 2, "cue_seat": 2}, "cue_seat"),
        ({"players": 2, "handicap": "start"}, "handicap"),
    ],
)
def test_settings_are_validated(data, field):
    with pytest.raises(SettingsError) as raised:
        CUE_VS_HAND.settings_from_dict(data)
    assert field in raised.value.errors


def test_settings_fields_and_fouls():
    fields = {f.name: f for f in CUE_VS_HAND.settings_fields}
    assert fields["target"].default == 8
    assert fields["target"].decision
    assert set(CUE_VS_HAND.foul_labels) == {
        "miss",
        "cue_ball_pocketed",
        "cue_ball_off_table",
        "touched",
    }


def test_seat_stats_name_the_roles():
    stats = CUE_VS_HAND.seat_stats(play([BREAK_NOTHING, pot(2)], cue_seat=1))
    assert [s["role"] for s in stats] == ["hand", "cue"]
    assert [s["balls"] for s in stats] == [2, 0]
