"""The challenge ladder's rules: plain Python, no Django, no I/O.

A ladder is an order of players, the first place on top. Its places are derived from its
stored moves, replayed in order (``standing``): a player joins at the bottom, a challenger
who wins (or whose challenge is not answered in time) takes the place of the player he beat
and everyone from there down to his old place moves one down, an inactive player drops one
place (just below the next player who plays: ``other``, else the next one), a player who
leaves is taken out.

    >>> moves = [Move(JOIN, "Ann"), Move(JOIN, "Bob"), Move(JOIN, "Cid"), Move(JOIN, "Dan")]
    >>> standing(moves)
    ['Ann', 'Bob', 'Cid', 'Dan']
    >>> standing(moves + [Move(WIN, "Dan", "Bob")])
    ['Ann', 'Dan', 'Bob', 'Cid']
    >>> standing(moves + [Move(DROP, "Ann")])
    ['Bob', 'Ann', 'Cid', 'Dan']

Whether a challenge may be made is ``refusal``: ``None``, or the rule that blocks it, with
the numbers it names and, where waiting helps, the moment it stops blocking.

    >>> two_up = Rules(reach=2, max_open=1, rematch_days=14)
    >>> refusal(two_up, ["Ann", "Bob", "Cid", "Dan"], "Dan", "Ann", NOW, []).code
    'out_of_reach'
    >>> refusal(two_up, ["Ann", "Bob", "Cid", "Dan"], "Dan", "Bob", NOW, []) is None
    True
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

JOIN, WIN, DROP, LEAVE = "join", "win", "drop", "leave"
NOW = datetime(2026, 12, 7, 19, 0, tzinfo=UTC)  # the examples' moment


@dataclass(frozen=True)
class Rules:
    """A ladder's rules: a challenge reaches up to ``reach`` places above; the challenged
    player accepts within ``accept_days`` or loses his place to the challenger; an accepted
    challenge is played within ``play_days`` (else it lapses, the places as they were); at
    most ``max_open`` open challenges each (made or received); the same two players meet
    again by challenge only after ``rematch_days``; a player loses a place after each
    ``inactive_days`` without a ladder game."""

    reach: int = 3
    accept_days: int = 3
    play_days: int = 7
    max_open: int = 1
    rematch_days: int = 14
    inactive_days: int = 30


@dataclass(frozen=True)
class Move:
    """One change of the ladder: ``JOIN`` / ``LEAVE`` of ``player``; ``WIN`` of ``player``
    (the challenger) over ``other`` (the challenged, higher); ``DROP`` of ``player`` to just
    below ``other`` (or the next player when ``other`` is not given or not below him)."""

    kind: str
    player: object
    other: object = None


def standing(moves):
    """The places after ``moves``, the first place first."""
    order = []
    for move in moves:
        if move.kind == JOIN:
            if move.player not in order:
                order.append(move.player)
        elif move.kind == LEAVE:
            if move.player in order:
                order.remove(move.player)
        elif move.kind == DROP:
            if move.player in order:
                place = order.index(move.player)
                below = move.other if move.other in order[place + 1 :] else None
                if below is None and place + 1 < len(order):
                    below = order[place + 1]
                if below is not None:  # he goes just below that player
                    order.remove(move.player)
                    order.insert(order.index(below) + 1, move.player)
        elif move.kind == WIN:
            if move.player in order and move.other in order:
                high, low = order.index(move.other), order.index(move.player)
                if low > high:  # the challenger below takes the place; those between go down
                    order.pop(low)
                    order.insert(high, move.player)
    return order


@dataclass(frozen=True)
class Refusal:
    """Why a challenge may not be made: ``code`` names the rule, ``numbers`` what it counts
    (for the sentence that says it), ``until`` when it stops blocking (``None``: waiting
    does not help)."""

    code: str
    numbers: dict = field(default_factory=dict)
    until: datetime | None = None


@dataclass(frozen=True)
class Past:
    """A challenge already made, as the rules need it: who challenged whom, when, and
    whether it is still open (made or accepted, not yet decided)."""

    challenger: object
    challenged: object
    made_at: datetime
    open: bool


def open_count(player, past):
    return sum(1 for c in past if c.open and player in (c.challenger, c.challenged))


def refusal(rules, order, challenger, challenged, now, past):
    """``None`` if ``challenger`` may challenge ``challenged`` now, else the first rule that
    blocks it. ``order`` is the ladder's standing, ``past`` its challenges (``Past``)."""
    if challenger not in order:
        return Refusal("not_on_ladder")
    if challenged not in order or challenged == challenger:
        return Refusal("not_above")
    mine, theirs = order.index(challenger), order.index(challenged)
    if theirs >= mine:
        return Refusal("not_above")
    if mine - theirs > rules.reach:
        return Refusal("out_of_reach", {"reach": rules.reach, "gap": mine - theirs})
    if any(c.open and {c.challenger, c.challenged} == {challenger, challenged} for c in past):
        return Refusal("already_open")
    if open_count(challenger, past) >= rules.max_open:
        return Refusal("too_many_mine", {"max": rules.max_open})
    if open_count(challenged, past) >= rules.max_open:
        return Refusal("too_many_theirs", {"max": rules.max_open})
    last = max(
        (c.made_at for c in past if {c.challenger, c.challenged} == {challenger, challenged}),
        default=None,
    )
    if last is not None:
        until = last + timedelta(days=rules.rematch_days)
        if now < until:
            return Refusal("rematch", {"days": rules.rematch_days}, until)
    return None


def accept_by(rules, made_at):
    """The moment a challenge made at ``made_at`` must be accepted by."""
    return made_at + timedelta(days=rules.accept_days)


def play_by(rules, accepted_at):
    """The moment an accepted challenge must be played by."""
    return accepted_at + timedelta(days=rules.play_days)


def drops_due(rules, last_game, dropped, now):
    """How many places a player loses now for his inactivity: one for each whole
    ``inactive_days`` since ``last_game`` (his last ladder game, or his joining), less the
    ``dropped`` places he has already lost for it.

    >>> day = timedelta(days=1)
    >>> drops_due(Rules(inactive_days=30), NOW - 65 * day, 0, NOW)
    2
    >>> drops_due(Rules(inactive_days=30), NOW - 65 * day, 2, NOW)
    0
    """
    if rules.inactive_days <= 0:
        return 0
    periods = int((now - last_game) / timedelta(days=rules.inactive_days))
    return max(0, periods - dropped)


def next_drop(rules, last_game, dropped):
    """When the player loses his next place if he plays no ladder game before."""
    return last_game + timedelta(days=rules.inactive_days) * (dropped + 1)
