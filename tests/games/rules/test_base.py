"""The shared vocabulary: messages, pockets, events, actions, settings parsing."""

import pytest

from games.rules import (
    VARIANTS,
    Action,
    Event,
    Message,
    Pocket,
    RuleViolation,
    SettingField,
    SettingsError,
)
from games.rules.base import expect_details, join_messages, parse_settings, seat_number

from .frames import FL, FR, LM, NL, NR, RM


def test_message_renders_its_parameters_and_nested_messages():
    inner = Message("right middle")
    message = Message("Ball %(ball)s: %(pocket)s", {"ball": 3, "pocket": inner})
    assert message.render() == "Ball 3: right middle"
    russian = {
        "Ball %(ball)s: %(pocket)s": "Шар %(ball)s: %(pocket)s",
        "right middle": "правая средняя",
    }
    # the inner message is translated too
    assert message.render(lambda s: russian.get(s, s)) == "Шар 3: правая средняя"
    assert Message("100%").render() == "100%"  # no parameters: no formatting


def test_join_messages():
    joined = join_messages([Message("Miss"), Message("Cue ball pocketed")])
    assert joined.render() == "Miss; Cue ball pocketed"
    assert joined.render(str.lower) == "miss; cue ball pocketed"
    single = Message("Miss")
    assert join_messages([single]) is single


def test_pockets_are_declared_clockwise():
    # docs/rules: FAR_LEFT → FAR_RIGHT → RIGHT_MIDDLE → NEAR_RIGHT → NEAR_LEFT → LEFT_MIDDLE.
    assert list(Pocket) == [FL, FR, RM, NR, NL, LM]
    # the source: "right middle" is followed by "the right corner on the home side" …
    assert Pocket.RIGHT_MIDDLE.next_clockwise() is Pocket.NEAR_RIGHT
    # … and "left middle" by "the far left corner", then "the far right corner".
    assert Pocket.LEFT_MIDDLE.next_clockwise() is Pocket.FAR_LEFT
    assert Pocket.LEFT_MIDDLE.next_clockwise(2) is Pocket.FAR_RIGHT
    assert Pocket.FAR_LEFT.next_clockwise(6) is Pocket.FAR_LEFT
    assert Pocket.FAR_LEFT.next_clockwise(-1) is Pocket.LEFT_MIDDLE
    assert all(isinstance(p.label, Message) for p in Pocket)


def test_event_payload_round_trip():
    event = Event("pot", fouls=("miss",), ball=3, pocket=Pocket.NEAR_LEFT, count=2)
    payload = event.to_payload()
    assert payload == {"fouls": ["miss"], "ball": 3, "pocket": "near_left", "count": 2}
    assert Event.from_payload("pot", payload) == event
    assert Event("stroke").to_payload() == {}


@pytest.mark.parametrize(
    "payload",
    [
        {"ball": "seven"},
        {"pocket": "under_the_table"},
        {"count": [1]},
        # not true integers: refused, never truncated (2.5 → 2) nor parsed ("3" → 3)
        {"count": 2.5},
        {"count": 3.0},
        {"count": True},
        {"count": "3"},
        {"ball": 2.5},
        {"ball": True},
        {"ball": False},
        {"ball": "7"},
        {"fouls": "miss"},
    ],
)
def test_malformed_payloads_are_a_rule_violation(payload):
    with pytest.raises(RuleViolation) as caught:
        Event.from_payload("pot", payload)
    assert caught.value.code == "malformed_event"


def test_action_event_fills_in_the_defaults():
    action = Action(
        "pot",
        Message("Ball"),
        balls=(3,),
        pockets=tuple(Pocket),
        default_pocket=Pocket.RIGHT_MIDDLE,
    )
    assert action.event() == Event("pot", ball=3, pocket=Pocket.RIGHT_MIDDLE)
    assert action.event(pocket=Pocket.FAR_LEFT).pocket is Pocket.FAR_LEFT
    fouls = Action("foul", Message("Foul"), fouls=("miss", "touched"))
    assert fouls.event() == Event("foul", fouls=("miss",))
    assert fouls.event(fouls=("touched", "miss")).fouls == ("touched", "miss")
    counted = Action("penalty", Message("Penalty"), max_count=3)
    assert counted.event() == Event("penalty", count=1)
    assert Action("stroke", Message("Stroke")).event() == Event("stroke")


def test_expect_details():
    expect_details(Event("pot", ball=1, pocket=Pocket.FAR_LEFT), ball=True, pocket=True)
    with pytest.raises(RuleViolation):
        expect_details(Event("pot", ball=1), ball=True, pocket=True)
    with pytest.raises(RuleViolation):
        expect_details(Event("stroke", count=1))


def test_seat_numbers_are_one_based_in_texts():
    assert seat_number(0) == 1


FIELDS = (
    SettingField("target", Message("Target"), "int", 100, min_value=2, max_value=500),
    SettingField(
        "kind", Message("Kind"), "choice", "a", choices=(("a", Message("A")), ("b", Message("B")))
    ),
    SettingField("flag", Message("Flag"), "bool", False),
)


def test_parse_settings_defaults_and_form_values():
    assert parse_settings(FIELDS, {"players": 2}, min_seats=2, max_seats=4) == {
        "players": 2,
        "target": 100,
        "kind": "a",
        "flag": False,
    }
    clean = parse_settings(
        FIELDS,
        {"players": "3", "target": " 250 ", "kind": "b", "flag": "on"},
        min_seats=2,
        max_seats=4,
    )
    assert clean == {"players": 3, "target": 250, "kind": "b", "flag": True}


def test_parse_settings_reports_every_bad_field():
    with pytest.raises(SettingsError) as caught:
        parse_settings(
            FIELDS,
            {"players": 5, "target": 501, "kind": "c", "flag": "perhaps", "extra": 1},
            min_seats=2,
            max_seats=4,
        )
    errors = caught.value.errors
    assert set(errors) == {"players", "target", "kind", "flag", "extra"}
    assert errors["players"].render() == "Must be at most 4."
    assert errors["target"].render() == "Must be at most 500."
    assert errors["kind"].render() == "Choose one of: a, b."
    assert errors["extra"].render() == "Unknown setting “extra”."
    with pytest.raises(SettingsError) as caught:
        parse_settings(FIELDS, {"target": 1}, min_seats=2, max_seats=4)
    assert caught.value.errors["players"].render() == "The number of players is required."
    assert caught.value.errors["target"].render() == "Must be at least 2."


@pytest.mark.parametrize(
    "details", [{"count": 2.5}, {"count": True}, {"count": "3"}, {"ball": 1.0}, {"ball": "1"}]
)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_an_event_with_a_number_that_is_not_an_int_is_malformed(variant, details):
    """However it was built, every game refuses it (never truncated, never parsed)."""
    game = VARIANTS[variant]
    state = game.initial_state(game.settings_from_dict({"players": game.min_seats}))
    for action in game.legal_actions(state):
        taken = {"count": action.max_count, "ball": action.balls}
        for name, value in details.items():
            if not taken[name]:
                continue
            event = action.event()
            event = Event(
                event.kind, event.fouls, **{**_numbers(event), name: value}, pocket=event.pocket
            )
            with pytest.raises(RuleViolation) as caught:
                game.apply(state, event)
            assert caught.value.code == "malformed_event"
    # every game is also refused a number where it takes none
    with pytest.raises(RuleViolation) as caught:
        game.apply(state, Event(game.legal_actions(state)[0].kind, **details))
    assert caught.value.code == "malformed_event"


def _numbers(event):
    return {"ball": event.ball, "count": event.count}
