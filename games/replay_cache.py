"""A game's replay, cached on its row so that recording a stroke costs the same at any length.

The events stay the truth: this is only what replaying them gives — the state, how many
events are in force, the newest log lines and the event an undo would cancel — for the
``last_seq`` it was computed at. ``services.record_event`` writes it in the same transaction
as the event; ``selectors.replayed`` uses it only when it matches the game's ``last_seq`` and
this very rules engine, and otherwise replays the events (and the next write refreshes it).

The blob is a pickle, signed with the site's SECRET_KEY (``salted_hmac``) so that only what
this server wrote is ever unpickled, and tagged with a fingerprint of the rules engine's
source so that a changed engine never reuses a state computed by the old one. The process
keeps the newest blobs it wrote or checked with what they hold (``MEMO_SIZE``): the next tap
reads back the very bytes of the last one, and is spared checking and unpickling them again
(the Replayed is frozen: nobody can change what the memo holds).
"""

import hashlib
import pickle
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from django.utils.crypto import constant_time_compare, salted_hmac

from games import rules

LOG_LENGTH = 10  # newest log lines kept (what the console shows)
IN_FORCE_LENGTH = 5  # newest events still in force kept (what a board's ticker shows)
FORMAT = 3  # the layout of the pickled Replayed: a blob of another format is a miss
_SALT = "games.replay_cache"
_DIGEST = 32  # bytes of the sha256 HMAC in front of the pickle
MEMO_SIZE = 128  # blobs remembered per process, with the Replayed each holds
_memo = OrderedDict()
_memo_lock = threading.Lock()


@dataclass(frozen=True)
class LogEntry:
    """One stored event as the console lists it."""

    seq: int
    kind: str
    description: rules.Message
    undone: bool = False


@dataclass(frozen=True)
class Replayed:
    """What replaying a game's events up to ``seq`` gives the console and the boards."""

    seq: int
    state: object
    in_force: int  # events an undo could still cancel
    recent: tuple[LogEntry, ...] = field(default=())  # the newest LOG_LENGTH, oldest first
    undoable: LogEntry | None = None  # the event an undo would cancel now
    # The newest IN_FORCE_LENGTH events in force (neither undos nor undone), oldest first.
    latest_in_force: tuple[LogEntry, ...] = field(default=())
    # The event being checked (a dispute, «спорный момент»), None when none is.
    disputed: LogEntry | None = None

    @classmethod
    def from_log(cls, seq, log, initial_state):
        """From ``rules.replay_log`` of all the events (``initial_state`` when there are none)."""
        entries = [
            LogEntry(number, step.event.kind, step.description, step.undone)
            for number, step in enumerate(log, start=1)
        ]
        in_force = [e for e in entries if e.kind not in rules.META_KINDS and not e.undone]
        disputed = log[-1].disputed if log else None
        return cls(
            seq=seq,
            state=log[-1].after if log else initial_state,
            in_force=len(in_force),
            recent=tuple(entries[-LOG_LENGTH:]),
            undoable=in_force[-1] if in_force else None,
            latest_in_force=tuple(in_force[-IN_FORCE_LENGTH:]),
            disputed=entries[disputed - 1] if disputed else None,
        )

    def advance(self, variant, event):
        """After one more stroke (not an undo, a dispute or a confirmation: those replay),
        exactly as ``replay_log`` would see it.

        Raises ``rules.RuleViolation`` when the rules do not allow the event now.
        """
        rules.check_meta(event.kind, self.disputed is not None, self.in_force)
        after = variant.apply(self.state, event)
        entry = LogEntry(self.seq + 1, event.kind, variant.describe(self.state, event, after))
        return Replayed(
            seq=self.seq + 1,
            state=after,
            in_force=self.in_force + 1,
            recent=(*self.recent, entry)[-LOG_LENGTH:],
            undoable=entry,
            latest_in_force=(*self.latest_in_force, entry)[-IN_FORCE_LENGTH:],
        )


@cache
def engine_fingerprint():
    """A digest of the rules engine's source: a cached replay is valid for this engine only."""
    digest = hashlib.sha256()
    for path in sorted(Path(rules.__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def dump(replayed):
    """The signed blob to store on the game row."""
    data = pickle.dumps((FORMAT, engine_fingerprint(), replayed), protocol=pickle.HIGHEST_PROTOCOL)
    blob = salted_hmac(_SALT, data, algorithm="sha256").digest() + data
    _remember(blob, replayed)
    return blob


def load(blob, seq):
    """The Replayed stored in ``blob`` if it is ours, for this engine and ``seq``; else None."""
    if not blob:
        return None
    blob = bytes(blob)
    replayed = _recalled(blob)
    if replayed is None:
        replayed = _unpickled(blob)
        if replayed is None:
            return None
        _remember(blob, replayed)
    return replayed if replayed.seq == seq else None


def _unpickled(blob):
    """The Replayed in a blob this server signed for this engine, else None."""
    signature, data = blob[:_DIGEST], blob[_DIGEST:]
    expected = salted_hmac(_SALT, data, algorithm="sha256").digest()
    if not constant_time_compare(signature, expected):
        return None
    try:
        form, fingerprint, replayed = pickle.loads(data)  # noqa: S301 - signed by this server
    except Exception:  # noqa: BLE001 - a stale pickle (renamed class, …) is just a miss
        return None
    if form != FORMAT or fingerprint != engine_fingerprint():
        return None
    return replayed


def _remember(blob, replayed):
    with _memo_lock:
        _memo[blob] = (engine_fingerprint(), replayed)
        _memo.move_to_end(blob)
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)


def _recalled(blob):
    """What a blob this process wrote or checked holds (the very same bytes), else None."""
    with _memo_lock:
        fingerprint, replayed = _memo.get(blob, (None, None))
        if replayed is not None:
            _memo.move_to_end(blob)
    return replayed if fingerprint == engine_fingerprint() else None
