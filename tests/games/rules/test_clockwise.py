"""«Кладка шаров по часовой стрелке»: the source's pocket groups and late-error example, the break
and nomination, wrong-pocket return, every foul, the end, the settings."""

import pytest

from games.rules import Event, Pocket, RuleViolation, SettingsError, get_variant, replay, replay_log
from games.rules.clockwise import FOUL_CODES
from games.rules.clockwise import Settings as ClockwiseSettings

CLOCKWISE = get_variant("clockwise")

BREAK = Event("break")
STROKE = Event("stroke")


def nominate(pocket):
    return Event("nominate", pocket=pocket)


def pot(ball, pocket):
    return Event("pot", ball=ball, pocket=pocket)


def foul(*codes):
    return Event("foul", fouls=codes or ("miss",))


def play(events, **settings):
    return replay(CLOCKWISE, {"players": 2, **settings}, events)


def pot_designated(events, balls, **settings):
    """``events`` followed by legal pots of ``balls`` into their designated pockets."""
    events = list(events)
    for ball in balls:
        events.append(pot(ball, play(events, **settings).pocket_map[ball]))
    return events


OPENING = [BREAK, nominate(Pocket.FAR_LEFT)]


def test_before_the_break_nothing_is_nominated():
    state = play([])
    assert not state.broken and state.awaiting_nomination
    assert state.pocket_map == {}
    assert state.ball_on == 1
    assert [a.kind for a in CLOCKWISE.legal_actions(state)] == ["break", "foul"]


def test_after_the_break_the_opponent_nominates_the_pocket_for_ball_1():
    state = play([BREAK])
    assert state.awaiting_nomination
    (action,) = CLOCKWISE.legal_actions(state)
    assert action.kind == "nominate"
    assert action.label.render() == "Player 2 nominates the pocket for ball 1"
    assert set(action.pockets) == set(Pocket)
    state = play([BREAK, nominate(Pocket.RIGHT_MIDDLE)])
    assert not state.awaiting_nomination
    assert state.pocket_map[1] is Pocket.RIGHT_MIDDLE


def test_after_the_break_the_turn_passes_unless_the_breaker_continues():
    assert play(OPENING).turn == 1
    assert play(OPENING, breaker_continues=True).turn == 0


@pytest.mark.parametrize("first", list(Pocket))
def test_seed_pocket_groups(first):
    # «В одну лузу играются такие шары: 1) 1, 7, 13; 2) 2, 8, 14; 3) 3, 9, 15; 4) 4, 10;
    #  5) 5, 11; 6) 6, 12.»
    pockets = play([BREAK, nominate(first)]).pocket_map
    groups = [(1, 7, 13), (2, 8, 14), (3, 9, 15), (4, 10), (5, 11), (6, 12)]
    for group in groups:
        assert len({pockets[ball] for ball in group}) == 1, group
    assert len({pockets[group[0]] for group in groups}) == 6


def test_seed_clockwise_order_right_middle_then_near_right():
    # «Предположим, «единица» была сыграна в правую среднюю лузу. В таком случае «двойку»
    #  следует направлять в правую угловую лузу, находящуюся со стороны «дома».»
    pockets = play([BREAK, nominate(Pocket.RIGHT_MIDDLE)]).pocket_map
    assert pockets[2] is Pocket.NEAR_RIGHT


def test_seed_error_found_late():
    # «Предположим, «тройку» нужно было положить в правую среднюю лузу» — ball 1 nominated
    # into the far left corner, so 2 → far right, 3 → right middle.
    events = [BREAK, nominate(Pocket.FAR_LEFT)]
    assert play(events).pocket_map[3] is Pocket.RIGHT_MIDDLE
    # «… но участник сыграл ее в правую угловую, расположенную со стороны «дома». После этого
    #  он играет шар «4» в левую угловую лузу, находящуюся в районе «дома», и шар «5» – в левую
    #  среднюю.» The marker accepted them all (recorded in the designated pockets).
    events = pot_designated(events, [1, 2, 3, 4, 5])
    before = play(events)
    # «Ошибка была обнаружена на данном этапе игры.» One event: the last ball (5) really went
    # into the left middle.
    state = play([*events, Event("order_error", pocket=Pocket.LEFT_MIDDLE)])
    # «Все сыгранные в лузы шары засчитываются.»
    assert state.scores == before.scores == (0, 1 + 2 + 3 + 4 + 5)
    assert state.pocketed == before.pocketed
    assert state.turn == before.turn
    # «… «шестерку» нужно будет направлять в дальнюю левую угловую лузу, а «семерку» – в
    #  дальнюю правую угловую лузу и т.д.»
    assert state.pocket_map[6] is Pocket.FAR_LEFT
    assert state.pocket_map[7] is Pocket.FAR_RIGHT
    assert state.pocket_map[8] is Pocket.RIGHT_MIDDLE
    assert state.ball_on == 6
    # and play goes on in the new order
    state = play(
        [*events, Event("order_error", pocket=Pocket.LEFT_MIDDLE), pot(6, Pocket.FAR_LEFT)]
    )
    assert state.scores == (0, 21)


def test_order_error_needs_a_pocketed_ball_and_a_different_pocket():
    with pytest.raises(RuleViolation) as caught:
        CLOCKWISE.apply(play(OPENING), Event("order_error", pocket=Pocket.NEAR_LEFT))
    assert caught.value.code == "nothing_pocketed"
    events = pot_designated(OPENING, [1])
    with pytest.raises(RuleViolation) as caught:
        CLOCKWISE.apply(play(events), Event("order_error", pocket=Pocket.FAR_LEFT))
    assert caught.value.code == "order_unchanged"
    (action,) = [a for a in CLOCKWISE.legal_actions(play(events)) if a.kind == "order_error"]
    assert Pocket.FAR_LEFT not in action.pockets and len(action.pockets) == 5


def test_legal_pot_scores_the_number_and_the_player_continues():
    state = play([*OPENING, pot(1, Pocket.FAR_LEFT)])
    assert state.scores == (0, 1)
    assert state.turn == 1
    assert state.pocketed == ((), (1,))
    assert state.ball_on == 2
    assert 1 not in state.pocket_map and 1 not in state.balls_left


def test_wrong_pocket_the_ball_goes_back_and_the_turn_passes():
    # «… если участник по ошибке все же сыграет не в назначенную лузу, удар не засчитывается,
    #  а положенный шар вновь возвращается на стол.»
    state = play([*OPENING, pot(1, Pocket.NEAR_LEFT)])
    assert state.scores == (0, 0)
    assert state.ball_on == 1 and 1 in state.balls_left
    assert state.pocket_map[1] is Pocket.FAR_LEFT
    assert state.turn == 0
    assert CLOCKWISE.seat_stats(state)[1]["wrong_pockets"] == 1


def test_pot_action_offers_the_ball_on_and_its_designated_pocket():
    state = play(pot_designated(OPENING, [1, 2]))
    pot_action = next(a for a in CLOCKWISE.legal_actions(state) if a.kind == "pot")
    assert pot_action.balls == (3,)
    assert pot_action.default_pocket is Pocket.RIGHT_MIDDLE
    assert set(pot_action.pockets) == set(Pocket)
    assert pot_action.label.render() == "Ball 3 pocketed (right middle)"


def test_a_ball_not_on_the_table_or_not_on_is_rejected():
    state = play(pot_designated(OPENING, [1, 2]))
    with pytest.raises(RuleViolation) as caught:
        CLOCKWISE.apply(state, pot(2, Pocket.FAR_RIGHT))
    assert caught.value.code == "ball_not_on_table"
    assert caught.value.message.render() == "Ball 2 is not on the table."
    with pytest.raises(RuleViolation) as caught:
        CLOCKWISE.apply(state, pot(5, Pocket.NEAR_LEFT))
    assert caught.value.code == "not_ball_on"
    assert caught.value.message.render() == "Ball 5 is not the ball on: ball 3 is."


@pytest.mark.parametrize("code", FOUL_CODES)
def test_every_foul_costs_the_number_of_the_ball_on_and_passes_the_turn(code):
    events = pot_designated(OPENING, [1, 2, 3])  # player 2 has 6 points, ball 4 is on
    state = play([*events, foul(code)])
    assert state.scores == (0, 6 - 4)
    assert state.turn == 0
    assert state.ball_on == 4
    assert CLOCKWISE.seat_stats(state)[1]["fouls"] == 1


def test_several_fouls_in_one_stroke_are_penalised_once():
    state = play([*OPENING, foul("miss", "touched", "cue_ball_off_table")])
    assert state.scores == (0, -1)


def test_fixed_foul_penalty():
    state = play([*OPENING, foul()], foul_penalty="fixed", foul_penalty_points=5)
    assert state.scores == (0, -5)


def test_foul_on_the_break_is_penalised_and_counts_as_the_break():
    state = play([foul("cue_ball_pocketed")])
    assert state.scores == (-1, 0)
    assert state.broken and state.awaiting_nomination
    assert state.turn == 1
    assert play([foul()], breaker_continues=True).turn == 1


def test_plain_stroke_passes_the_turn():
    assert play([*OPENING, STROKE]).turn == 0


def test_events_out_of_phase_are_rejected():
    cases = [
        ([], pot(1, Pocket.FAR_LEFT), "break_first"),
        ([], nominate(Pocket.FAR_LEFT), "break_first"),
        ([BREAK], BREAK, "nomination_first"),
        ([BREAK], pot(1, Pocket.FAR_LEFT), "nomination_first"),
        (OPENING, BREAK, "already_broken"),
        (OPENING, nominate(Pocket.FAR_RIGHT), "already_nominated"),
        (OPENING, Event("score"), "unknown_event"),
        (OPENING, Event("pot", ball=1), "malformed_event"),
        (OPENING, Event("foul", fouls=("fell_asleep",)), "unknown_foul"),
        (OPENING, Event("stroke", pocket=Pocket.FAR_LEFT), "malformed_event"),
    ]
    for events, event, code in cases:
        state = play(events)
        with pytest.raises(RuleViolation) as caught:
            CLOCKWISE.apply(state, event)
        assert caught.value.code == code, (events, event)
        assert play(events) == state


def test_first_to_more_than_half_wins_and_nothing_is_accepted_after():
    # Player 2 pockets 1…10 = 55, then 11 → 66 > 60.
    events = pot_designated(OPENING, range(1, 11))
    assert not play(events).finished
    events = pot_designated(events, [11])
    state = play(events)
    assert state.finished
    assert state.result.winners == (1,) and state.result.draw is None
    assert state.result.scores == (0, 66)
    assert state.ball_on is None
    assert CLOCKWISE.legal_actions(state) == ()
    with pytest.raises(RuleViolation) as caught:
        CLOCKWISE.apply(state, pot(12, state.pocket_map[12]))
    assert caught.value.code == "game_over"


def test_one_point_a_ball_first_to_eight_balls_wins():
    events = pot_designated(OPENING, range(1, 8), points_per_ball="one")
    assert play(events, points_per_ball="one").scores == (0, 7)
    assert not play(events, points_per_ball="one").finished
    events = pot_designated(events, [8], points_per_ball="one")
    state = play(events, points_per_ball="one")
    assert state.finished and state.result.winners == (1,)
    # the penalty is the value of the ball on: one point
    assert play([*OPENING, foul()], points_per_ball="one").scores == (0, -1)


def test_one_point_a_ball_a_foul_on_a_high_ball_still_costs_one_point():
    """docs/rules/clockwise.md: with "one", the value of the ball on is 1 whatever its
    number."""
    events = pot_designated(OPENING, range(1, 7), points_per_ball="one")  # ball 7 is on
    state = play([*events, foul()], points_per_ball="one")
    assert state.scores == (0, 6 - 1)
    # by number, the same foul costs 7
    events = pot_designated(OPENING, range(1, 7))
    assert play([*events, foul()]).scores == (0, 21 - 7)
    assert ClockwiseSettings(points_per_ball="one").winning_points == 8


def clear_the_table(settings, spare_player_1=0):
    """One point a ball: the players take turns to pot one ball each, then pass the turn
    with a foul (player 1 passes with a plain stroke the first ``spare_player_1`` times);
    player 2 pots the odd balls (8), player 1 the even ones (7)."""
    events = list(OPENING)  # player 2 to play
    spared = 0
    for ball in range(1, 16):
        events = pot_designated(events, [ball], **settings)
        if ball == 15:
            break
        if play(events, **settings).turn == 0 and spared < spare_player_1:
            events.append(STROKE)
            spared += 1
        else:
            events.append(foul())
    return events


def test_table_clear_decides_on_the_scores():
    settings = {"points_per_ball": "one", "foul_penalty": "fixed", "foul_penalty_points": 3}
    state = play(clear_the_table(settings), **settings)
    assert state.finished and not state.balls_left
    assert [len(p) for p in state.pocketed] == [7, 8]
    assert state.scores == (7 - 3 * 7, 8 - 3 * 7)
    assert state.result.winners == (1,) and state.result.draw is None


def test_table_clear_with_equal_scores_is_a_normal_draw():
    settings = {"points_per_ball": "one", "foul_penalty": "fixed", "foul_penalty_points": 1}
    events = clear_the_table(settings, spare_player_1=1)
    state = play(events, **settings)
    assert state.finished
    assert state.scores == (7 - 6, 8 - 7)
    assert state.result.draw == "normal"
    assert state.result.winners == (0, 1)
    last = replay_log(CLOCKWISE, {"players": 2, **settings}, events)[-1]
    assert last.description.render() == (
        "Player 2: ball 15 (right middle), +1 = 1 — table clear: the game is drawn"
    )


def test_undo_of_a_pot():
    events = pot_designated(OPENING, [1])
    assert play([*events, Event("undo")]) == play(OPENING)


def test_descriptions():
    events = pot_designated(OPENING, [1, 2])
    events += [pot(3, Pocket.NEAR_LEFT), foul("miss"), STROKE]
    events += [Event("order_error", pocket=Pocket.NEAR_RIGHT)]
    texts = [step.description.render() for step in replay_log(CLOCKWISE, {"players": 2}, events)]
    assert texts == [
        "Player 1 breaks; Player 2 to play",
        "Player 2 nominates the pocket for ball 1: far left corner",
        "Player 2: ball 1 (far left corner), +1 = 1",
        "Player 2: ball 2 (far right corner), +2 = 3",
        "Player 2: ball 3 into the wrong pocket (near left corner (home side) instead of "
        "right middle) — back on the table",
        "Player 1: Miss — penalty −3 = -3",
        "Player 2: nothing pocketed; Player 1 to play",
        "Order error found: ball 2 was in: near right corner (home side); ball 3 now goes "
        "to: near left corner (home side)",
    ]


def test_description_of_the_winning_pot():
    events = pot_designated(OPENING, range(1, 12))
    last = replay_log(CLOCKWISE, {"players": 2}, events)[-1]
    assert last.description.render() == (
        "Player 2: ball 11 (near left corner (home side)), +11 = 66 — Player 2 wins the game"
    )


def test_seat_stats():
    events = pot_designated(OPENING, [1, 2]) + [pot(3, Pocket.FAR_LEFT), foul()]
    state = play(events)
    assert CLOCKWISE.seat_stats(state) == (
        {"balls": 0, "points": -3, "wrong_pockets": 0, "fouls": 1},
        {"balls": 2, "points": 3, "wrong_pockets": 1, "fouls": 0},
    )


def test_settings_defaults_and_round_trip():
    settings = CLOCKWISE.settings_from_dict({"players": 2})
    assert settings.points_per_ball == "number"
    assert settings.foul_penalty == "ball_on"
    assert settings.breaker_continues is False
    assert settings.winning_points == 61
    assert CLOCKWISE.settings_from_dict(settings.to_dict()) == settings
    decided = {f.name for f in CLOCKWISE.settings_fields if f.decision}
    assert decided == {
        "points_per_ball",
        "foul_penalty",
        "foul_penalty_points",
        "breaker_continues",
    }


@pytest.mark.parametrize(
    "data, field",
    [
        ({"players": 3}, "players"),
        ({"players": 2, "points_per_ball": "two"}, "points_per_ball"),
        ({"players": 2, "foul_penalty": "double"}, "foul_penalty"),
        ({"players": 2, "foul_penalty_points": -1}, "foul_penalty_points"),
        ({"players": 2, "breaker_continues": "maybe"}, "breaker_continues"),
        ({"players": 2, "target": 61}, "target"),
    ],
)
def test_settings_validation(data, field):
    with pytest.raises(SettingsError) as caught:
        CLOCKWISE.settings_from_dict(data)
    assert field in caught.value.errors


def test_descriptions_in_russian():
    from django.utils import translation

    from games.i18n import render_message

    events = pot_designated(OPENING, [1, 2])
    log = replay_log(CLOCKWISE, {"players": 2}, events)
    with translation.override("ru"):
        assert render_message(log[-1].description) == (
            "Игрок 2: шар 2 (дальняя правая угловая), +2 = 3"
        )
