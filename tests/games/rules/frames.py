"""Hand-computed frames for the rules tests: a frame is written out stroke by stroke, each
stroke with the figures expected after it, and ``play`` checks them one by one."""

import copy

from games.rules import Event, Pocket, RuleViolation, replay_log

# The six pockets, clockwise from the far left corner (docs/rules).
FL, FR, RM, NR, NL, LM = (
    Pocket.FAR_LEFT,
    Pocket.FAR_RIGHT,
    Pocket.RIGHT_MIDDLE,
    Pocket.NEAR_RIGHT,
    Pocket.NEAR_LEFT,
    Pocket.LEFT_MIDDLE,
)


def pot(count=1):
    return Event("pot", count=count)


def svoyak(count=None):
    return Event("svoyak", count=count)


MISS = Event("stroke")  # «Мимо»: nothing pocketed (as called)


def foul(*codes):
    return Event("foul", fouls=codes or ("miss",))


def play(variant, settings, strokes, expect_at_start=None):
    """Plays ``strokes`` — (event, {figure: expected value}) pairs — from the start, checking
    every figure after every stroke (a figure is a state attribute); every description must
    render. Returns the final state."""
    settings = variant.settings_from_dict({"players": 2, **settings})
    state = variant.initial_state(settings)
    for figure, expected in (expect_at_start or {}).items():
        assert getattr(state, figure) == expected, ("at the start", figure)
    for number, (event, expected) in enumerate(strokes, start=1):
        after = variant.apply(state, event)
        assert variant.describe(state, event, after).render()
        for figure, value in expected.items():
            assert getattr(after, figure) == value, (number, event, figure, getattr(after, figure))
        state = after
    assert len(replay_log(variant, settings, [e for e, _ in strokes])) == len(strokes)
    return state


def refused(variant, state, event, code):
    """``event`` is refused with ``code`` and a readable reason; ``state`` is unchanged."""
    before = copy.deepcopy(state)
    try:
        variant.apply(state, event)
    except RuleViolation as violation:
        assert violation.code == code, violation.code
        assert violation.message.render()
        assert state == before
        return violation.message.render()
    raise AssertionError(f"{event} was accepted")
