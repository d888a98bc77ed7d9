"""Property-based tests over every game of the engine: random games made of the events that
``legal_actions`` offers (with undos mixed in) keep docs/rules/'s
invariants, replay is deterministic, an undo cancels exactly one event, every offered event is
accepted, and an event the rules reject changes nothing and fails only with a RuleViolation."""

import dataclasses
import itertools
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from games.rules import UNDO, VARIANTS, Event, Pocket, RuleViolation, SettingsError, replay
from games.rules.base import PLAYER
from games.rules.classic_pyramid import value as classic_value
from games.rules.pyramid import TARGET as FAMILY_TARGET

FAMILY = ["pyramid_free", "pyramid_combined", "pyramid_dynamic"]
PYRAMID = [*FAMILY, "pyramid_classic", "in_order"]  # docs/rules/pyramid.md

ALL = sorted(VARIANTS)
# These also promise: apply accepts only what is offered.
OURS = ["cork", "clockwise", *sorted(PYRAMID)]

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- strategies ------------------------------------------------------------------------------


@st.composite
def settings_for(draw, variant):
    """Valid settings drawn from the variant's own SettingFields (small numbers, so that
    games end within the drawn number of events)."""
    data = {"players": draw(st.integers(variant.min_seats, variant.max_seats))}
    for field in variant.settings_fields:
        if field.name == "players" or draw(st.booleans()):
            continue  # missing settings take their defaults
        if field.kind == "bool":
            data[field.name] = draw(st.booleans())
        elif field.kind == "choice":
            data[field.name] = draw(st.sampled_from([code for code, _ in field.choices]))
        else:
            low = field.min_value if field.min_value is not None else 0
            high = field.max_value if field.max_value is not None else low + 200
            data[field.name] = draw(st.integers(low, min(high, low + 200)))
    try:
        return variant.settings_from_dict(data)
    except SettingsError:  # a combination the game rules out (e.g. a seat beyond players)
        return variant.settings_from_dict({"players": data["players"]})


def maybe(name, action, strategy):
    """A detail's strategy: also left out when the action makes it optional."""
    return strategy | st.none() if name in action.optional else strategy


@st.composite
def returned_for(draw, action, event):
    """The balls the marker names as put back (when the action lets him): as many as go
    back, of those that fell; or none (the game's own order)."""
    fallen = (event.ball, *event.extra_balls) if event.ball is not None else ()
    if not action.returns or not fallen or draw(st.booleans()):
        return event
    back = draw(st.permutations(fallen))[: min(action.returns, len(fallen))]
    return dataclasses.replace(event, returned=tuple(back))


def event_for(action):
    """Every concrete event the action stands for, as a strategy."""
    return (
        st.builds(
            Event,
            kind=st.just(action.kind),
            fouls=(
                st.lists(st.sampled_from(action.fouls), min_size=1, unique=True).map(tuple)
                if action.fouls
                else st.just(())
            ),
            ball=maybe("ball", action, st.sampled_from(action.balls))
            if action.balls
            else st.none(),
            pocket=maybe("pocket", action, st.sampled_from(action.pockets))
            if action.pockets
            else st.none(),
            count=maybe("count", action, st.integers(1, action.max_count))
            if action.max_count
            else st.none(),
            extra_balls=(
                st.lists(st.sampled_from(action.extra_balls), unique=True, max_size=4).map(tuple)
                if action.extra_balls
                else st.just(())
            ),
        )
        .filter(lambda event: event.ball not in event.extra_balls)
        .flatmap(lambda event: returned_for(action, event))
    )


@st.composite
def games(draw, key, max_events=200):
    """(variant, settings, events, states): ``states`` is the stack of effective states.

    A drawn length and seed drive the choices: an undo one time in ten, else an offered
    action with its details (the designated pocket more often than not, so that games of
    balls-in-order reach their end). A failure shrinks to the shortest failing game."""
    variant = VARIANTS[key]
    game_settings = draw(settings_for(variant))
    length = draw(st.integers(0, max_events))
    choice = random.Random(draw(st.integers(0, 2**32)))
    events = []
    stack = [variant.initial_state(game_settings)]
    for _ in range(length):
        if len(stack) > 1 and choice.random() < 0.1:
            events.append(Event(UNDO))
            stack.pop()
            continue
        actions = variant.legal_actions(stack[-1])
        if not actions:
            break
        action = actions[choice.randrange(len(actions))]
        event = action.pick(choice.randrange)
        if action.default_pocket is not None and choice.random() < 0.7:
            event = dataclasses.replace(event, pocket=action.default_pocket)
        if action.max_count and choice.random() < 0.7:  # mostly a ball or two, as in play
            event = dataclasses.replace(event, count=min(action.max_count, choice.randint(1, 2)))
        stack.append(variant.apply(stack[-1], event))  # an offered event is never rejected
        events.append(event)
    return variant, game_settings, events, stack


KINDS = sorted(
    {
        "stroke",
        "score",
        "foul",
        "break",
        "nominate",
        "pot",
        "svoyak",
        "order_error",
        "penalty",
        "bogus",
    }
)
FOULS = sorted({code for v in VARIANTS.values() for code in v.foul_labels} | {"bogus"})

any_event = st.builds(
    Event,
    kind=st.sampled_from(KINDS),
    fouls=st.lists(st.sampled_from(FOULS), max_size=3).map(tuple),
    ball=st.none() | st.integers(-1, 17),
    pocket=st.none() | st.sampled_from(list(Pocket)),
    count=st.none() | st.integers(-1, 20),
    extra_balls=st.lists(st.integers(-1, 17), max_size=3).map(tuple),
    returned=st.just(()) | st.lists(st.integers(-1, 17), max_size=3).map(tuple),
)


# --- invariants --------------------------------------------------------------------------------


def check_invariants(variant, state):
    assert 0 <= state.turn < state.seats
    assert len(state.scores) == state.seats == state.settings.players
    assert state.finished == (state.result is not None)
    if state.finished:
        assert variant.legal_actions(state) == ()
        assert set(state.result.winners) <= set(range(state.seats))
        assert state.result.winners
        assert state.result.draw in (None, "normal", "conditional")
        assert len(state.result.scores) == state.seats
    else:
        assert variant.legal_actions(state), "a game in progress always offers something"
    stats = variant.seat_stats(state)
    assert len(stats) == state.seats
    json.dumps(stats)
    json.dumps(state.settings.to_dict())
    EXTRA[variant.key](state)


def cork_invariants(state):
    # docs/rules: the bank is N·2^k, k = the number of fouls and awards so far.
    stats = VARIANTS["cork"].seat_stats(state)
    awards = sum(s["scoring_strokes"] for s in stats)
    assert state.bank == state.settings.players * 2 ** (state.fouls_committed + awards)
    for seat, s in enumerate(stats):
        assert state.scores[seat] == 1 + s["points_won"] - s["points_lost"]


def clockwise_invariants(state):
    # docs/rules: each ball is pocketed at most once; the ball on is the lowest on the table.
    pocketed = [ball for balls in state.pocketed for ball in balls]
    assert len(pocketed) == len(set(pocketed))
    assert sorted(pocketed + list(state.balls_left)) == list(range(1, 16))
    assert list(state.balls_left) == sorted(state.balls_left)
    if state.awaiting_nomination:
        assert state.pocket_map == {}
    else:
        assert set(state.pocket_map) == set(state.balls_left)
    if not state.finished:
        assert state.ball_on == state.balls_left[0]


def cue_run_invariants(state):
    # docs/rules: strokes ≥ balls down (penalties are counted as strokes).
    for strokes, down in zip(state.strokes, state.balls_down, strict=True):
        assert 0 <= down <= 16
        assert strokes >= down


def cue_vs_hand_invariants(state):
    # A foul returns one of the fouling player's balls only if he has one.
    assert all(score >= 0 for score in state.scores)
    assert sum(state.scores) <= 16


def family_invariants(state):
    # docs/rules/pyramid.md: balls on the table + balls on both shelves = the game's ball count
    # (a legacy debt is counted apart); nobody reaches the target before the frame ends.
    assert state.on_table >= 0 and min(state.scores) >= 0
    assert state.on_table + sum(state.scores) == state.family.balls
    assert min(state.debts) >= 0
    if state.settings.foul_model == "modern":
        assert state.debts == (0, 0)
    assert 0 <= state.to_return <= state.settings.returned_pots
    assert state.in_hand in ("", "home", "anywhere")
    assert state.in_hand != "anywhere" or state.family.svoyak_from == "anywhere"
    if not state.finished:
        assert max(state.scores) < FAMILY_TARGET
    else:
        assert state.result.draw is None
        assert state.scores[state.result.winners[0]] >= FAMILY_TARGET
    stats = VARIANTS[state.family.key].seat_stats(state)
    for s in stats:
        assert s["best_run"] <= s["balls"]
        assert s["svoyaki"] <= s["balls"]


def classic_invariants(state):
    # Every ball is on the table or on exactly one shelf; a score is the head start, the
    # balls' values, the last-ball bonus, less (or plus) the fouls' penalties.
    shelved = [ball for shelf in state.shelves for ball in shelf]
    assert sorted(shelved + list(state.table)) == list(range(1, 16))
    assert list(state.table) == sorted(state.table)
    settings = state.settings
    excess = []
    for seat in (0, 1):
        expected = sum(classic_value(b) for b in state.shelves[seat])
        if seat == settings.weaker_seat:
            expected += settings.head_start
        if settings.penalty_to == "offender":
            expected -= state.penalties[seat]
        else:
            expected += state.penalties[1 - seat]
        excess.append(state.scores[seat] - expected)
    # the last-ball bonus: once, to whoever cleared the table
    assert sorted(excess) == ([0, 10] if not state.table else [0, 0])
    if not state.finished:
        assert max(state.scores) < settings.target and state.table
    elif state.result.draw:
        assert not state.table and state.scores[0] == state.scores[1]


def in_order_invariants(state):
    pocketed = [ball for balls in state.pocketed for ball in balls]
    assert sorted(pocketed + list(state.balls_left)) == list(range(1, 16))
    assert list(state.balls_left) == sorted(state.balls_left)
    for balls in state.pocketed:
        assert list(balls) == sorted(balls)
    if not state.finished:
        assert state.ball_on == state.balls_left[0]
        assert max(state.scores) < state.settings.winning_points


EXTRA = {
    **dict.fromkeys(FAMILY, family_invariants),
    "pyramid_classic": classic_invariants,
    "in_order": in_order_invariants,
    "cork": cork_invariants,
    "clockwise": clockwise_invariants,
    "cue_run": cue_run_invariants,
    "cue_vs_hand": cue_vs_hand_invariants,
}


def concrete_events(action, limit_fouls=6):
    """Every event an action stands for (foul combinations capped for long foul lists)."""
    if action.fouls:
        if len(action.fouls) <= limit_fouls:
            foul_sets = [
                combo
                for size in range(1, len(action.fouls) + 1)
                for combo in itertools.combinations(action.fouls, size)
            ]
        else:
            foul_sets = [(code,) for code in action.fouls] + [action.fouls]
    else:
        foul_sets = [()]
    balls = (*action.balls, *((None,) if "ball" in action.optional else ())) or (None,)
    pockets = (*action.pockets, *((None,) if "pocket" in action.optional else ())) or (None,)
    counts = (
        (*range(1, action.max_count + 1), *((None,) if "count" in action.optional else ()))
        if action.max_count
        else (None,)
    )
    for fouls, ball, pocket, count in itertools.product(foul_sets, balls, pockets, counts):
        others = tuple(b for b in action.extra_balls if b != ball)
        # extra balls: none, the first other one, all the others
        for extra in dict.fromkeys([(), others[:1], others]):
            yield Event(action.kind, fouls, ball, pocket, count, extra)
            fallen = (ball, *extra) if ball is not None else ()
            if action.returns and fallen:  # the last balls named as those that go back
                back = fallen[::-1][: min(action.returns, len(fallen))]
                yield Event(action.kind, fouls, ball, pocket, count, extra, back)


def offered(actions, event):
    """Does one of ``actions`` stand for ``event``?"""

    def fits(offer, value, name=""):
        if value is None and name in action.optional:
            return True
        return value in offer if offer else value is None

    for action in actions:
        if action.kind != event.kind:
            continue
        fallen = (event.ball, *event.extra_balls) if event.ball is not None else ()
        back = event.returned
        returned_fit = not back or (
            action.returns > 0
            and len(set(back)) == len(back) == min(action.returns, len(fallen))
            and set(back) <= set(fallen)
        )
        if action.fouls:
            fouls_fit = bool(event.fouls) and len(set(event.fouls)) == len(event.fouls)
            fouls_fit = fouls_fit and set(event.fouls) <= set(action.fouls)
        else:
            fouls_fit = not event.fouls
        counts = range(1, action.max_count + 1) if action.max_count else ()
        extra = event.extra_balls
        extra_fit = len(set(extra)) == len(extra) and event.ball not in extra
        extra_fit = extra_fit and set(extra) <= set(action.extra_balls)
        if (
            fouls_fit
            and extra_fit
            and returned_fit
            and fits(action.balls, event.ball, "ball")
            and fits(action.pockets, event.pocket, "pocket")
            and fits(counts, event.count, "count")
        ):
            return True
    return False


# --- properties --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ALL)
@PROPERTY
@given(data=st.data())
def test_random_legal_games_keep_the_invariants(key, data):
    variant, _, events, stack = data.draw(games(key))
    note(f"finished: {stack[-1].finished}")
    note(f"events: {len(events) // 50 * 50}+")
    for state in stack:
        check_invariants(variant, state)
    assert stack[-1].applied == len(stack) - 1
    if key in PYRAMID:
        for before, after in itertools.pairwise(stack):
            pyramid_step(before, after)


def pyramid_step(before, after):
    """docs/rules/pyramid.md: a frame has at most one winner (or a draw); scores never exceed the
    target by more than what one stroke brought; the state only changes by one event."""
    if before.finished:
        return
    if after.finished:
        gained = max(after.scores[s] - before.scores[s] for s in after.result.winners)
        for seat in after.result.winners:
            assert after.scores[seat] < after.target + gained
        assert len(after.result.winners) == 1 or after.result.draw == "normal"


@pytest.mark.parametrize("key", ALL)
@PROPERTY
@given(data=st.data())
def test_replay_is_deterministic(key, data):
    variant, game_settings, events, stack = data.draw(games(key))
    assert replay(variant, game_settings, events) == stack[-1]
    assert replay(variant, game_settings.to_dict(), events) == stack[-1]


@pytest.mark.parametrize("key", ALL)
@PROPERTY
@given(data=st.data())
def test_undo_cancels_exactly_the_last_event(key, data):
    variant, game_settings, events, stack = data.draw(games(key))
    state = stack[-1]
    actions = variant.legal_actions(state)
    if actions:  # undo(apply(s, e)) == s
        event = data.draw(event_for(data.draw(st.sampled_from(actions))))
        assert replay(variant, game_settings, [*events, event, Event(UNDO)]) == state
    if len(stack) > 1:
        assert replay(variant, game_settings, [*events, Event(UNDO)]) == stack[-2]


@pytest.mark.parametrize("key", ALL)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_legal_actions_never_offer_an_event_apply_rejects(key, data):
    variant, _, _, stack = data.draw(games(key, max_events=100))
    for state in stack:
        for action in variant.legal_actions(state):
            for event in concrete_events(action):
                variant.apply(state, event)  # raises if the offer was wrong


@pytest.mark.parametrize("key", ALL)
@PROPERTY
@given(data=st.data(), event=any_event)
def test_a_rejected_event_changes_nothing(key, data, event):
    variant, game_settings, events, stack = data.draw(games(key))
    state = stack[-1]
    try:
        variant.apply(state, event)
    except RuleViolation as violation:
        assert violation.code
        assert violation.message.render()
    assert state == replay(variant, game_settings, events)


@pytest.mark.parametrize("key", OURS)
@PROPERTY
@given(data=st.data(), event=any_event)
def test_apply_accepts_exactly_what_is_offered(key, data, event):
    variant, _, _, stack = data.draw(games(key))
    state = stack[-1]
    actions = variant.legal_actions(state)
    if data.draw(st.booleans()) and actions:  # half the time, an offered event
        event = data.draw(event_for(data.draw(st.sampled_from(actions))))
    try:
        variant.apply(state, event)
        accepted = True
    except RuleViolation:
        accepted = False
    assert accepted == offered(actions, event), event


@pytest.mark.parametrize("key", ALL)
@PROPERTY
@given(data=st.data())
def test_descriptions_name_every_player_through_player_ref(key, data):
    """Issue 14, item 7: the site renders ``player_ref`` as the seat's name («Сокол: …»), so a
    description may name a seat no other way (no "Player %(seat)s" of its own)."""
    variant, _, events, stack = data.draw(games(key))
    effective = []  # the events behind stack[1:], undone ones taken out
    for event in events:
        effective.pop() if event.kind == UNDO else effective.append(event)
    named = {PLAYER: "<seat %(seat)s>"}
    for before, event, after in zip(stack[:-1], effective, stack[1:], strict=True):
        text = variant.describe(before, event, after).render(lambda s: named.get(s, s))
        assert not re.search(r"player \d", text, re.IGNORECASE), text
