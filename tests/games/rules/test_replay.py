"""The registry, replay with undo, and the log of described steps."""

import pytest

from games import rules
from games.models import variant_choices
from games.rules import (
    UNDO,
    VARIANTS,
    Event,
    LogStep,
    RuleViolation,
    Variant,
    get_variant,
    replay,
    replay_log,
)

CORK = get_variant("cork")
UNDO_EVENT = Event(UNDO)
FOUL = Event("foul", fouls=("miss",))
SCORE = Event("score")
STROKE = Event("stroke")


def test_the_games_are_registered_under_the_stored_keys():
    assert set(VARIANTS) == {
        "cork",
        "clockwise",
        "cue_run",
        "cue_vs_hand",
        "in_order",
        "pyramid_free",
        "pyramid_combined",
        "pyramid_dynamic",
        "pyramid_classic",
    }
    assert set(VARIANTS) == {key for key, _label in variant_choices()}
    for key, variant in VARIANTS.items():
        assert isinstance(variant, Variant)
        assert variant.key == key
        assert get_variant(key) is variant


def test_unknown_game_is_a_key_error():
    with pytest.raises(KeyError):
        get_variant("snooker")


def test_base_names_are_re_exported():
    from games.rules import base

    for name in ("Message", "Pocket", "Event", "Action", "Result", "SettingField", "UNDO"):
        assert getattr(rules, name) is getattr(base, name)


def test_replay_accepts_settings_or_their_dict():
    settings = CORK.settings_from_dict({"players": 3})
    assert replay(CORK, settings, [FOUL]) == replay(CORK, {"players": 3}, [FOUL])


def test_undo_drops_the_last_effective_event():
    settings = {"players": 3}
    assert replay(CORK, settings, [FOUL, SCORE, UNDO_EVENT]) == replay(CORK, settings, [FOUL])
    # undo after undo drops the one before
    assert replay(CORK, settings, [FOUL, SCORE, UNDO_EVENT, UNDO_EVENT]) == replay(
        CORK, settings, []
    )
    # a new event after an undo replaces the undone one
    assert replay(CORK, settings, [FOUL, SCORE, UNDO_EVENT, STROKE]) == replay(
        CORK, settings, [FOUL, STROKE]
    )
    assert replay(CORK, settings, [FOUL, SCORE, UNDO_EVENT]).applied == 1


def test_undo_with_nothing_to_undo_is_rejected():
    for events in ([UNDO_EVENT], [FOUL, UNDO_EVENT, UNDO_EVENT]):
        with pytest.raises(RuleViolation) as caught:
            replay(CORK, {"players": 2}, events)
        assert caught.value.code == "nothing_to_undo"
        assert caught.value.message.render() == "There is nothing to undo."


def test_undo_reopens_a_finished_game():
    settings = {"players": 2, "target": 3}
    assert replay(CORK, settings, [SCORE]).finished
    assert not replay(CORK, settings, [SCORE, UNDO_EVENT]).finished


def test_replay_stops_at_an_illegal_event():
    settings = {"players": 2, "target": 3}
    with pytest.raises(RuleViolation) as caught:
        replay(CORK, settings, [SCORE, STROKE])
    assert caught.value.code == "game_over"


def test_replay_log_one_step_per_event_with_undone_marked():
    settings = {"players": 3}
    events = [FOUL, SCORE, STROKE, UNDO_EVENT, UNDO_EVENT, STROKE]
    log = replay_log(CORK, settings, events)
    assert [step.event for step in log] == events
    assert all(isinstance(step, LogStep) for step in log)
    assert [step.undone for step in log] == [False, True, True, False, False, False]
    assert log[0].before == replay(CORK, settings, [])
    assert log[0].after == replay(CORK, settings, [FOUL])
    # an undo step goes from the state before it to the state without the undone event
    assert log[3].before == replay(CORK, settings, [FOUL, SCORE, STROKE])
    assert log[3].after == replay(CORK, settings, [FOUL, SCORE])
    assert log[4].after == replay(CORK, settings, [FOUL])
    assert log[-1].after == replay(CORK, settings, events)
    assert log[3].description.render() == ("Undone: event 3 (Player 2: no score; Player 3 to play)")
    assert log[4].description.render() == ("Undone: event 2 (Player 2: cork down, +6 = 7, bank 12)")


def test_replay_log_rejects_what_replay_rejects():
    with pytest.raises(RuleViolation):
        replay_log(CORK, {"players": 2}, [UNDO_EVENT])


# --- a disputed stroke («спорный момент») --------------------------------------------------

DISPUTE = Event(rules.DISPUTE)
CONFIRM = Event(rules.CONFIRM)


def test_a_dispute_and_its_confirmation_leave_the_state_as_it_was():
    base = replay(CORK, {"players": 3}, [FOUL, SCORE])
    assert replay(CORK, {"players": 3}, [FOUL, SCORE, DISPUTE]) == base
    assert replay(CORK, {"players": 3}, [FOUL, SCORE, DISPUTE, CONFIRM]) == base
    assert rules.disputed(CORK, {"players": 3}, [FOUL, SCORE, DISPUTE]) == 2
    assert rules.disputed(CORK, {"players": 3}, [FOUL, SCORE, DISPUTE, CONFIRM]) is None


def test_an_undo_while_disputed_takes_back_exactly_the_disputed_stroke():
    events = [FOUL, SCORE, DISPUTE, UNDO_EVENT]
    assert replay(CORK, {"players": 3}, events) == replay(CORK, {"players": 3}, [FOUL])
    log = replay_log(CORK, {"players": 3}, events)
    assert [step.undone for step in log] == [False, True, False, False]
    assert [step.disputed for step in log] == [None, None, 2, None]
    # Undone after its confirmation, it is the last stroke in force as any other.
    later = [FOUL, SCORE, DISPUTE, CONFIRM, UNDO_EVENT]
    assert replay(CORK, {"players": 3}, later) == replay(CORK, {"players": 3}, [FOUL])


def test_the_log_says_what_is_checked_and_what_was_confirmed():
    log = replay_log(CORK, {"players": 3}, [FOUL, SCORE, DISPUTE, CONFIRM])
    dispute, confirm = log[2], log[3]
    assert dispute.before == dispute.after == log[1].after
    assert dispute.description.params["number"] == 2
    assert dispute.description.params["what"] == log[1].description
    assert "being checked" in dispute.description.msgid
    assert confirm.description.params["number"] == 2 and "Confirmed" in confirm.description.msgid
    assert not dispute.undone and not confirm.undone


@pytest.mark.parametrize(
    ("events", "code"),
    [
        ([DISPUTE], "nothing_to_dispute"),  # nothing recorded
        ([FOUL, UNDO_EVENT, DISPUTE], "nothing_to_dispute"),  # nothing left in force
        ([FOUL, DISPUTE, DISPUTE], "already_disputed"),
        ([CONFIRM], "not_disputed"),
        ([FOUL, DISPUTE, CONFIRM, CONFIRM], "not_disputed"),
        ([FOUL, DISPUTE, SCORE], "disputed"),  # no stroke until it is resolved
        ([FOUL, DISPUTE, UNDO_EVENT, CONFIRM], "not_disputed"),  # the undo resolved it
    ],
)
def test_what_a_dispute_refuses(events, code):
    for run in (replay, replay_log):
        with pytest.raises(RuleViolation) as refused:
            run(CORK, {"players": 3}, events)
        assert refused.value.code == code


def test_a_stroke_after_the_confirmation_is_recorded():
    state = replay(CORK, {"players": 3}, [FOUL, DISPUTE, CONFIRM, SCORE])
    assert state == replay(CORK, {"players": 3}, [FOUL, SCORE])
