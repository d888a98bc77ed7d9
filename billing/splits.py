"""Splitting a bill between its payers: plain Python, integer kopecks, nothing lost.

Every split hands out exactly the bill's total: kopecks that do not divide evenly go one
each to the largest remainders (ties to the earlier payer), so the shares always add up.

Modes:

- ``equal``: the total in equal shares.
- ``percent``: each payer's percentage (they add up to 100).
- ``items``: each line to the payer it is assigned to; unassigned lines in equal shares.
- ``loser``: "the loser pays". The time is cut into *parts*: each frame (a game played on
  the session's table while its clock ran) and the time between frames. Each part costs
  what its own seconds cost at their bands (``weights``); the session's time charge is
  handed out in proportion to those costs. A finished frame's part goes to its loser(s) in
  equal shares; a drawn or abandoned frame's to its players in equal shares; time between
  frames to every payer equally. Bar lines follow ``items`` (assigned, else equal).

>>> apportion(1000, [1, 1, 1])
[334, 333, 333]
>>> apportion(100_00, [3, 1])
[7500, 2500]
"""

from dataclasses import dataclass, field
from fractions import Fraction

EQUAL, PERCENT, ITEMS, LOSER = "equal", "percent", "items", "loser"


def apportion(total, weights):
    """``total`` kopecks in proportion to ``weights`` (≥ 0), adding up exactly.

    With no weight at all, equal shares.
    """
    if not weights:
        return []
    weights = [max(weight, 0) for weight in weights]
    whole = sum(weights)
    if whole == 0:
        weights, whole = [1] * len(weights), len(weights)
    shares = [total * weight // whole for weight in weights]
    remainders = [total * weight % whole for weight in weights]
    left = total - sum(shares)
    order = sorted(range(len(weights)), key=lambda i: (-remainders[i], i))
    for index in order[:left]:
        shares[index] += 1
    return shares


@dataclass
class Line:
    amount: int  # kopecks
    is_time: bool = False
    payer: object = None  # the payer key it is assigned to, or None


@dataclass
class Frame:
    """A part of the session's time: ``cost`` weighs it (its exact cost in any unit);
    ``losers`` pay it; empty losers with ``players`` = a draw or abandoned frame; neither =
    time between frames (everyone pays)."""

    cost: object
    losers: list = field(default_factory=list)
    players: list = field(default_factory=list)
    about: object = None  # the caller's own description of the part (not used here)


@dataclass
class Breakdown:
    """A split and what it is made of, each adding up exactly: ``shares`` ``{payer:
    kopecks}`` the whole bill; ``frames`` (``loser``) each part of the time's charge as
    ``{payer: kopecks}``, in the order of the frames given; ``shared`` (``items``,
    ``loser``) the lines nobody takes, in equal shares."""

    shares: dict
    frames: list = field(default_factory=list)
    shared: dict = field(default_factory=dict)


def split(mode, payers, lines, *, percents=None, frames=None):
    """``{payer: kopecks}`` for every payer in ``payers`` (keys, in order)."""
    return breakdown(mode, payers, lines, percents=percents, frames=frames).shares


def breakdown(mode, payers, lines, *, percents=None, frames=None):
    """The ``Breakdown`` of the split (``split`` is its shares)."""
    payers = list(payers)
    shares = dict.fromkeys(payers, 0)
    if not payers:
        return Breakdown(shares)
    total = sum(line.amount for line in lines)
    if mode == EQUAL:
        return Breakdown(_add(shares, payers, apportion(total, [1] * len(payers))))
    if mode == PERCENT:
        weights = [(percents or {}).get(payer, 0) for payer in payers]
        return Breakdown(_add(shares, payers, apportion(total, weights)))
    if mode not in (ITEMS, LOSER):
        raise ValueError(f"Unknown split mode {mode!r}")
    unassigned, time, timed = 0, 0, False
    for line in lines:
        if mode == LOSER and line.is_time:
            time, timed = time + line.amount, True
        elif line.payer in shares:
            shares[line.payer] += line.amount
        else:
            unassigned += line.amount
    parts = frame_shares(time, frames or [], payers) if timed else []
    for part in parts:
        for payer, amount in part.items():
            shares[payer] += amount
    shared = _add(dict.fromkeys(payers, 0), payers, apportion(unassigned, [1] * len(payers)))
    for payer, amount in shared.items():
        shares[payer] += amount
    return Breakdown(shares, parts, shared)


def frame_parts(amount, frames):
    """``amount`` (the time's charge) handed out to the ``frames`` in proportion to their
    own costs: what each frame's payers share in "the loser pays". Each part is the frame's
    own cost plus its share of what the minimum, the rounding (and a discount) add.

    >>> frame_parts(551_00, [Frame(198_89), Frame(322_78)])
    [21007, 34093]
    """
    return apportion(amount, [_weight(frame.cost) for frame in frames]) if frames else []


def frame_shares(amount, frames, payers):
    """ "The loser pays" part by part: ``amount`` (the time's charge) as ``frame_parts``
    hands it out, each part ``{payer: kopecks}`` among those who pay it — its losers in
    equal shares; else its players (a draw, an abandoned frame); else every payer (the time
    between frames, or a frame none of whose players pays the bill). No frames: one part
    for everyone.

    >>> frame_shares(100_01, [Frame(2, losers=["a"]), Frame(1)], ["a", "b"])
    [{'a': 6667}, {'a': 1667, 'b': 1667}]
    """
    frames = frames or [Frame(1)]
    found = []
    for frame, part in zip(frames, frame_parts(amount, frames), strict=True):
        who = [p for p in frame.losers if p in payers] or [p for p in frame.players if p in payers]
        who = who or list(payers)
        mine = {}
        for payer, share in zip(who, apportion(part, [1] * len(who)), strict=True):
            mine[payer] = mine.get(payer, 0) + share
        found.append(mine)
    return found


def _weight(cost):
    """Exact costs may be Fractions: scale them to integers that keep their proportions."""
    return int(Fraction(cost) * 3600)


def _add(shares, payers, amounts):
    for payer, amount in zip(payers, amounts, strict=True):
        shares[payer] += amount
    return shares
