"""«Пробка»: the source's worked examples verbatim, every foul, turns, the end, the settings."""

import pytest

from games.rules import Event, RuleViolation, SettingsError, get_variant, replay, replay_log
from games.rules.cork import FOUL_CODES

CORK = get_variant("cork")

STROKE = Event("stroke")
SCORE = Event("score")


def foul(*codes):
    return Event("foul", fouls=codes or ("miss",))


def play(events, players=6, **settings):
    return replay(CORK, {"players": players, **settings}, events)


def to_seat(current, seat, players=6):
    """Plain strokes that bring the turn from 1-based seat ``current`` to ``seat``."""
    return [STROKE] * ((seat - current) % players)


def test_start_every_player_has_one_point_and_the_bank_is_the_number_of_players():
    state = play([], players=6)
    assert state.scores == (1,) * 6
    assert state.bank == 6
    assert state.turn == 0
    assert not state.finished and state.result is None


def test_seed_example_six_players():
    # «Игрок под номером «2» совершает ошибку … записывается -5 очков … сумма … до 12.»
    events = to_seat(1, 2) + [foul()]
    state = play(events)
    assert state.scores[1] == -5
    assert state.bank == 12
    # «… участник под номером «4» совершил ошибку … -11 … Сумма … с 12 на 24.»
    events += to_seat(3, 4) + [foul()]
    state = play(events)
    assert state.scores[3] == -11
    assert state.bank == 24
    # «Далее ошибку совершает игрок под номером «6» … -23 (1 – 24 = -23) … 48.»
    events += to_seat(5, 6) + [foul()]
    state = play(events)
    assert state.scores[5] == -23
    assert state.bank == 48
    # «Затем игрок под номером «6» проводит результативный удар … 48 + (-23) = 25.»
    events += to_seat(1, 6) + [SCORE]
    state = play(events)
    assert state.scores[5] == 48 + (-23) == 25
    assert state.scores == (1, -5, 1, -11, 1, 25)


def test_seed_example_ten_players_first_three_fouls_cost_10_20_40():
    state = play([foul(), foul(), foul()], players=10)
    assert state.scores[:3] == (1 - 10, 1 - 20, 1 - 40)
    assert state.bank == 80
    assert state.fouls_committed == 3


@pytest.mark.parametrize("code", FOUL_CODES)
def test_every_foul_costs_the_bank_and_doubles_it(code):
    state = play([foul(code)], players=3)
    assert state.scores == (1 - 3, 1, 1)
    assert state.bank == 6
    assert CORK.seat_stats(state)[0]["fouls"][code] == 1


def test_the_six_seed_fouls_have_labels():
    assert set(CORK.foul_labels) == set(FOUL_CODES)
    assert len(FOUL_CODES) == 6


def test_several_fouls_in_one_stroke_are_penalised_once_and_all_kept():
    state = play([foul("miss", "touched", "cue_ball_pocketed")], players=2)
    assert state.scores == (1 - 2, 1)
    assert state.bank == 4
    stats = CORK.seat_stats(state)[0]
    assert stats["fouls_total"] == 1
    assert stats["fouls"]["miss"] == stats["fouls"]["touched"] == 1
    assert stats["points_lost"] == 2


def test_turns_foul_and_plain_stroke_pass_scoring_stroke_keeps():
    assert play([STROKE], players=3).turn == 1
    assert play([foul()], players=3).turn == 1
    assert play([SCORE], players=3).turn == 0
    assert play([STROKE, STROKE, STROKE], players=3).turn == 0  # 1, 2, 3, 1, …


def test_scoring_stroke_earns_the_bank_and_doubles_it():
    state = play([SCORE], players=4)
    assert state.scores == (5, 1, 1, 1)
    assert state.bank == 8


def test_first_to_the_target_wins_and_nothing_is_accepted_after():
    # 2 players: +2 = 3, +4 = 7, +8 = 15 ≥ 10.
    state = play([SCORE, SCORE], players=2, target=10)
    assert not state.finished
    state = play([SCORE, SCORE, SCORE], players=2, target=10)
    assert state.finished
    assert state.result.winners == (0,)
    assert state.result.draw is None
    assert state.result.scores == (15, 1)
    assert CORK.legal_actions(state) == ()
    for event in (STROKE, SCORE, foul()):
        with pytest.raises(RuleViolation) as caught:
            CORK.apply(state, event)
        assert caught.value.code == "game_over"
        assert caught.value.message.render() == "The game is over."


def test_default_target_is_the_seeds_100():
    # 2 players: awards 2, 4, 8, 16, 32 → 63; then 64 → 127 ≥ 100.
    assert not play([SCORE] * 5, players=2).finished
    assert play([SCORE] * 6, players=2).finished


def test_a_foul_never_ends_the_game():
    state = play([foul()] * 20, players=2, target=2)
    assert not state.finished


def test_undo_restores_the_bank_and_the_score():
    before = play([foul(), SCORE], players=6)
    assert play([foul(), SCORE, foul(), Event("undo")], players=6) == before


def test_legal_actions_offer_score_stroke_and_every_foul():
    actions = {a.kind: a for a in CORK.legal_actions(play([]))}
    assert set(actions) == {"score", "stroke", "foul"}
    assert actions["foul"].fouls == FOUL_CODES


@pytest.mark.parametrize(
    "event, code",
    [
        (Event("foul"), "malformed_event"),
        (Event("foul", fouls=("kicked_the_table",)), "unknown_foul"),
        (Event("foul", fouls=("miss", "miss")), "duplicate_foul"),
        (Event("score", ball=3), "malformed_event"),
        (Event("pot", ball=1), "unknown_event"),
    ],
)
def test_illegal_events_are_rejected_and_change_nothing(event, code):
    state = play([foul()])
    with pytest.raises(RuleViolation) as caught:
        CORK.apply(state, event)
    assert caught.value.code == code
    assert state == play([foul()])


def test_descriptions_use_one_based_seats():
    log = replay_log(CORK, {"players": 6}, [STROKE, foul("miss"), SCORE])
    assert [step.description.render() for step in log] == [
        "Player 1: no score; Player 2 to play",
        "Player 2: Miss — foul −6 = -5, bank 12",
        "Player 3: cork down, +12 = 13, bank 24",
    ]
    win = replay_log(CORK, {"players": 2, "target": 3}, [SCORE])[0]
    assert win.description.render() == "Player 1: cork down, +2 = 3 — wins the game"


def test_seat_stats():
    # Player 1 scores (+2, bank 4), continues and misses (−4, bank 8); player 2 fouls twice
    # in one stroke (−8).
    state = play([SCORE, foul("miss"), foul("touched", "miss")], players=2)
    first, second = CORK.seat_stats(state)
    assert first == {
        "fouls": {code: int(code == "miss") for code in FOUL_CODES},
        "fouls_total": 1,
        "scoring_strokes": 1,
        "points_won": 2,
        "points_lost": 4,
        "final_score": 1 + 2 - 4,
    }
    assert second == {
        "fouls": {code: int(code in ("miss", "touched")) for code in FOUL_CODES},
        "fouls_total": 1,
        "scoring_strokes": 0,
        "points_won": 0,
        "points_lost": 8,
        "final_score": 1 - 8,
    }


def test_settings_defaults_and_round_trip():
    settings = CORK.settings_from_dict({"players": 6})
    assert settings.players == 6 and settings.target == 100
    assert CORK.settings_from_dict(settings.to_dict()) == settings
    assert CORK.settings_from_dict({"players": "4", "target": "150"}).target == 150


@pytest.mark.parametrize(
    "data, field",
    [
        ({"players": 1}, "players"),
        ({"players": 11}, "players"),
        ({}, "players"),
        ({"players": True}, "players"),
        ({"players": 6, "target": 1}, "target"),
        ({"players": 6, "target": "lots"}, "target"),
        ({"players": 6, "target": 2.5}, "target"),
        ({"players": 6, "bank": 12}, "bank"),
    ],
)
def test_settings_validation(data, field):
    with pytest.raises(SettingsError) as caught:
        CORK.settings_from_dict(data)
    assert field in caught.value.errors


def test_descriptions_in_russian():
    from django.utils import translation

    from games.i18n import render_message

    log = replay_log(CORK, {"players": 6}, [STROKE, foul("miss")])
    with translation.override("ru"):
        assert render_message(log[1].description) == "Игрок 2: Промах — штраф −6 = −5, банк 12"
