"""Playing frames stroke by stroke through the services, for the demo club and the bench:
the frame goes to the side asked for (its player pots whatever the rules offer, the other
misses), each stroke recorded with ``games.services.record_event`` like a marker's tap."""

from games import rules, selectors
from games import services as game_services

# What the player who is to win taps first, and what his opponent taps.
_WINNING = ("pot", "score", "nominate", "break", "run", "stroke")
_LOSING = ("break", "nominate", "stop", "stroke", "miss", "pass")
# A game where a player keeps the table until his run is over («Кладка шаров кием»): after
# this many misses in a row the losing side pots too, so that his run ends (worse).
_PATIENCE = 20


def _event(action):
    ball = action.balls[0] if action.balls else None
    pocket = action.default_pocket or (action.pockets[0] if action.pockets else None)
    count = 1 if action.max_count else None
    return rules.Event(action.kind, ball=ball, pocket=pocket, count=count)


def _pick(actions, preference):
    by_kind = {a.kind: a for a in actions if not a.fouls}
    for kind in preference:
        if kind in by_kind:
            return by_kind[kind]
    clean = [a for a in actions if not a.fouls]
    return (clean or list(actions))[0]


def play_frame(game, winner_seat, user=None, max_strokes=2000):
    """Records strokes until the frame is over with seat ``winner_seat`` winning."""
    variant = selectors.variant_of(game)
    same_turn, last_turn = 0, None
    for _ in range(max_strokes):
        state = selectors.replayed(game).state
        if state.finished:
            return game
        actions = variant.legal_actions(state)
        if not actions:
            return game
        same_turn = same_turn + 1 if state.turn == last_turn else 0
        last_turn = state.turn
        mine = state.turn == winner_seat or same_turn > _PATIENCE
        action = _pick(actions, _WINNING if mine else _LOSING)
        game = game_services.record_event(
            game=game, expected_seq=game.last_seq, event=_event(action), user=user
        )
    raise RuntimeError(f"frame {game.pk} did not end in {max_strokes} strokes")
