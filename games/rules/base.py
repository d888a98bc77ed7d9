"""The vocabulary and contract shared by every game module.

Vocabulary (docs/rules/README.md): cue ball, object ball, cork, pocket, home, stroke, foul,
handicap.

Messages
    Every text the engine produces (an error, an event's description, a setting's label) is a
    ``Message(msgid, params)``: ``msgid`` is an English gettext msgid wrapped in
    ``gettext_noop`` where it is written (so ``makemessages`` collects it), ``params`` are
    %-format parameters. The Django side renders it with ``gettext(msgid) % params``.

Events
    ``Event(kind, fouls=(), ball=None, pocket=None, count=None, extra_balls=(), returned=())``:
    what the marker recorded (``extra_balls``: other numbered balls that fell with ``ball``,
    for games that score balls by number, or that fell on a foul and were spotted;
    ``returned``: which of the balls that fell a handicap puts back, where the marker
    chooses). Stored as ``kind`` + ``payload`` (``event.to_payload()`` /
    ``Event.from_payload(kind, p)``); whole numbers only (a count of 2.5 is malformed).
    The kind ``"undo"`` is handled by ``replay`` for every game: it drops the last effective
    event. So are ``"dispute"`` (the last stroke in force is being checked: no stroke until
    it is resolved) and ``"confirm"`` (the check is over, the stroke stands), see
    ``META_KINDS``.

Actions
    ``legal_actions(state)`` returns the ``Action`` templates the marker may send now. An
    action stands for every event with its ``kind`` and: a non-empty subset of ``fouls`` (when
    ``fouls`` is offered; several fouls in one stroke are penalised once), a ``ball`` from
    ``balls`` (when offered), a ``pocket`` from ``pockets`` (when offered; ``default_pocket`` is
    the designated one), a ``count`` from 1 to ``max_count`` (when offered), and any subset of
    ``extra_balls`` other than ``ball`` as the event's ``extra_balls`` (when offered). A detail
    named in ``optional`` may also be left out (the classic pyramid's call on a stroke that
    pocketed nothing; the balls spotted after a foul). With ``returns`` > 0 the event may name
    as ``returned`` which of the balls that fell (``ball`` and its ``extra_balls``) the
    handicap puts back: as many as it puts back, min(``returns``, the balls that fell); left
    out, the game's own order applies. ``apply`` accepts every such event: the UI offers
    exactly these buttons.

Variants
    Each game module exposes ``VARIANT: Variant`` (see the class). States are frozen
    dataclasses; ``apply`` returns a new state and never mutates; an illegal event raises
    ``RuleViolation`` and changes nothing. ``Variant.decisions`` lists, for the rules page,
    what docs/rules/ marks as [decision] that no ``SettingField(decision=True)`` shows.

Helpers for the game modules (bottom of this file)
    ``parse_settings`` (validates "players" and the SettingFields; SettingsError names every
    bad field), ``expect_details`` / ``check_fouls`` (malformed or unknown details),
    ``game_over`` / ``unknown_event`` (the common violations), ``evolve`` (a cheap copy of a
    frozen state with some fields changed), ``bump`` (one seat's count raised),
    ``ending`` (a description's last words when the game ended), ``count_fouls`` /
    ``foul_tallies`` (per-seat counts of each foul), ``per_seat`` (a game's ``seat_stats``
    from per-seat columns),
    ``seat_number`` / ``player_ref`` (1-based seats in texts: "Player 1", which the site
    renders as the player's name) and ``join_messages`` (several Messages as one, e.g. the
    fouls of one stroke). A Message's parameter may itself be a Message: it is translated too
    (pocket names, foul names).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Protocol
from typing import TypeVar

_T = TypeVar("_T")
# A whole number as people and forms send it: ASCII digits only ("²" passes str.isdigit()
# but not int()), and no more of them than a 64-bit column holds. The engine imports nothing
# from the site, so it has this one check of its own (the site's is toolbox.parsing).
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}", re.ASCII)


def gettext_noop(msgid: str) -> str:
    """Marks ``msgid`` for translation (collected by makemessages); returns it unchanged."""
    return msgid


@dataclass(frozen=True)
class Message:
    """A translatable text: render with ``gettext(msgid) % params`` (or ``msgid`` alone)."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """Translates and formats; a parameter that is itself a Message is rendered first."""
        text = translate(self.msgid)
        if not self.params:
            return text
        params = {
            key: value.render(translate) if isinstance(value, Message) else value
            for key, value in self.params.items()
        }
        return text % params


class RuleViolation(Exception):
    """An event the rules do not allow now. ``code`` is stable; ``message`` is translatable."""

    def __init__(self, code: str, message: Message):
        super().__init__(message.render())
        self.code = code
        self.message = message


class SettingsError(Exception):
    """Invalid settings: ``errors`` maps a setting's name (or "__all__") to a Message."""

    def __init__(self, errors: Mapping[str, Message]):
        super().__init__("; ".join(f"{k}: {m.render()}" for k, m in errors.items()))
        self.errors = dict(errors)


class Pocket(enum.Enum):
    """The six pockets, declared in clockwise order seen from above, home at the bottom."""

    FAR_LEFT = "far_left"
    FAR_RIGHT = "far_right"
    RIGHT_MIDDLE = "right_middle"
    NEAR_RIGHT = "near_right"
    NEAR_LEFT = "near_left"
    LEFT_MIDDLE = "left_middle"

    def next_clockwise(self, steps: int = 1) -> Pocket:
        return _CLOCKWISE[(_CLOCKWISE_INDEX[self] + steps) % 6]

    @property
    def label(self) -> Message:
        return POCKET_LABELS[self]


_CLOCKWISE: tuple[Pocket, ...] = tuple(Pocket)
_CLOCKWISE_INDEX: dict[Pocket, int] = {pocket: i for i, pocket in enumerate(_CLOCKWISE)}

POCKET_LABELS = {
    Pocket.FAR_LEFT: Message(gettext_noop("far left corner")),
    Pocket.FAR_RIGHT: Message(gettext_noop("far right corner")),
    Pocket.RIGHT_MIDDLE: Message(gettext_noop("right middle")),
    Pocket.NEAR_RIGHT: Message(gettext_noop("near right corner (home side)")),
    Pocket.NEAR_LEFT: Message(gettext_noop("near left corner (home side)")),
    Pocket.LEFT_MIDDLE: Message(gettext_noop("left middle")),
}


@dataclass(frozen=True)
class Event:
    kind: str
    fouls: tuple[str, ...] = ()
    ball: int | None = None
    pocket: Pocket | None = None
    count: int | None = None
    extra_balls: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()

    def has_whole_numbers(self) -> bool:
        """Its ball, count and balls are true ints (not 2.5, True or "3") where given."""
        return all(
            value is None or (isinstance(value, int) and not isinstance(value, bool))
            for value in (self.ball, self.count, *self.extra_balls, *self.returned)
        )

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {}
        if self.fouls:
            payload["fouls"] = list(self.fouls)
        if self.ball is not None:
            payload["ball"] = self.ball
        if self.pocket is not None:
            payload["pocket"] = self.pocket.value
        if self.count is not None:
            payload["count"] = self.count
        if self.extra_balls:
            payload["balls"] = list(self.extra_balls)
        if self.returned:
            payload["returned"] = list(self.returned)
        return payload

    @classmethod
    def from_payload(cls, kind: str, payload: Mapping[str, Any]) -> Event:
        """Builds an event from stored data (or posted data whose numbers the caller has
        parsed); malformed data raises RuleViolation.

        ``ball`` and ``count`` must be true integers: a float (even 3.0), a bool or a string
        is malformed, never truncated or parsed here (the Django side parses form digits).
        """
        try:
            pocket = payload.get("pocket")
            fouls = payload.get("fouls", ())
            if isinstance(fouls, str | bytes):
                raise TypeError("fouls must be a list")
            event = cls(
                kind=str(kind),
                fouls=tuple(str(f) for f in fouls),
                ball=payload.get("ball"),
                pocket=None if pocket in (None, "") else Pocket(pocket),
                count=payload.get("count"),
                extra_balls=tuple(payload.get("balls", ()) or ()),
                returned=tuple(payload.get("returned", ()) or ()),
            )
        except (TypeError, ValueError) as exc:
            raise _malformed_payload() from exc
        if not event.has_whole_numbers():
            raise _malformed_payload()
        return event


def _malformed_payload() -> RuleViolation:
    return RuleViolation(
        "malformed_event", Message(gettext_noop("The event's details are malformed."))
    )


def _whole_number(value: Any) -> int:
    """A setting's int, or a string of digits (form data); anything else (2.5, "2.5", True)
    is refused rather than rounded. (An event's numbers must be true ints already.)"""
    if isinstance(value, bool):
        raise TypeError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value.strip()):
        return int(value)
    raise ValueError(value)


UNDO = "undo"
# A disputed stroke («спорный момент»): the marker marks the last stroke in force as being
# checked; strokes wait until he confirms it (CONFIRM) or undoes it (an UNDO cancels exactly
# that stroke). Neither changes the game's state: ``replay`` and ``replay_log`` handle them
# for every game, as they handle UNDO.
DISPUTE = "dispute"
CONFIRM = "confirm"
# The kinds that are about the log, not the table: never a stroke in force.
META_KINDS = frozenset({UNDO, DISPUTE, CONFIRM})


@dataclass(frozen=True)
class Action:
    kind: str
    label: Message
    fouls: tuple[str, ...] = ()
    balls: tuple[int, ...] = ()
    pockets: tuple[Pocket, ...] = ()
    default_pocket: Pocket | None = None
    max_count: int | None = None
    extra_balls: tuple[int, ...] = ()
    optional: tuple[str, ...] = ()  # details ("ball", "pocket", "count") that may be left out
    returns: int = 0  # at most this many of the balls that fell go back (the handicap)

    def event(
        self,
        *,
        fouls: tuple[str, ...] | None = None,
        ball: int | None = None,
        pocket: Pocket | None = None,
        count: int | None = None,
        extra_balls: tuple[int, ...] = (),
    ) -> Event:
        """The event this button sends. Details not given default to the first foul offered,
        the first ball offered, the designated (else the first) pocket offered, a count of 1,
        no extra balls (an optional detail not given is left out)."""
        if self.fouls and not fouls:
            fouls = self.fouls[:1]
        if self.balls and ball is None and "ball" not in self.optional:
            ball = self.balls[0]
        if self.pockets and pocket is None and "pocket" not in self.optional:
            pocket = self.default_pocket or self.pockets[0]
        if self.max_count and count is None and "count" not in self.optional:
            count = 1
        return Event(self.kind, tuple(fouls or ()), ball, pocket, count, tuple(extra_balls))

    def pick(self, choose: Callable[[int], int]) -> Event:
        """One of the events this action stands for, each detail chosen by ``choose(n)``
        (an index below n): for random games in tests, benchmarks and demo data."""
        fouls: tuple[str, ...] = ()
        if self.fouls:
            mask = choose((1 << len(self.fouls)) - 1) + 1  # a non-empty subset
            fouls = tuple(code for i, code in enumerate(self.fouls) if mask >> i & 1)
        ball = self.balls[choose(len(self.balls))] if self.balls else None
        pocket = self.pockets[choose(len(self.pockets))] if self.pockets else None
        count = choose(self.max_count) + 1 if self.max_count else None
        # An optional detail: left out one time in two.
        if "ball" in self.optional and choose(2):
            ball = None
        if "pocket" in self.optional and choose(2):
            pocket = None
        if "count" in self.optional and choose(2):
            count = None
        # Extra balls: each of the others offered falls with probability about 1/8.
        extra = tuple(b for b in self.extra_balls if b != ball and choose(8) == 0)
        returned: tuple[int, ...] = ()
        fallen = (ball, *extra) if ball is not None else ()
        if self.returns and fallen and choose(2):  # the marker names them, else the default
            back = list(fallen)
            for i in range(len(back) - 1, 0, -1):  # a shuffle by ``choose``
                j = choose(i + 1)
                back[i], back[j] = back[j], back[i]
            returned = tuple(back[: min(self.returns, len(fallen))])
        return Event(self.kind, fouls, ball, pocket, count, extra, returned)


@dataclass(frozen=True)
class Result:
    """``winners``: seat indexes (all tied seats for a draw); ``draw``: None, "normal" or
    "conditional"; ``scores``: the final figure per seat (what the result was decided on)."""

    winners: tuple[int, ...]
    draw: str | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class SettingField:
    """One setting, enough to build a form field and the rules page."""

    name: str
    label: Message
    kind: str  # "int", "choice" or "bool"
    default: Any
    help: Message | None = None
    choices: tuple[tuple[str, Message], ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    decision: bool = False  # docs/rules/ marks this [decision]: not stated by the source


class State(Protocol):
    settings: Any
    seats: int
    turn: int
    scores: tuple[int, ...]
    finished: bool
    result: Result | None
    applied: int


@dataclass(frozen=True)
class RatingFamily:
    """Games rated together: their results measure the same skill (one Elo rating)."""

    key: str
    name: Message


# The pocketing games of balls in order and of the traditional source measure potting: one rating.
POCKETING = RatingFamily("pocketing", Message(gettext_noop("Pocketing games")))


# How the records advise a handicap for a game from the players' records
# (``Variant.handicap_advice``; ``records.handicap`` has an adviser for each):
ADVICE_HEAD_START_BALLS = "head_start_balls"  # balls on the weaker's shelf before the break
ADVICE_HEAD_START_POINTS = "head_start_points"  # the weaker's points before the break
# (both set the settings ``weaker_seat`` and ``head_start``, up to the default ``target``)
ADVICE_STROKES = "extra_strokes"  # «Кладка шаров кием»: strokes given, or the start
ADVICE_CUE_ROLES = "cue_roles"  # «Снимание шаров рукой»: who takes the cue, and the balls to win


@dataclass(frozen=True)
class Variant:
    """One game: its rules (the functions) and its facts (read by the records, the rules page).

    ``rating_family`` None: the game is rated on its own (a family of its key and name).
    """

    key: str
    name: Message
    settings_from_dict: Callable[[Mapping[str, Any]], Any]  # raises SettingsError
    settings_fields: tuple[SettingField, ...]
    foul_labels: Mapping[str, Message]
    initial_state: Callable[[Any], State]
    legal_actions: Callable[[State], tuple[Action, ...]]
    apply: Callable[[State, Event], State]
    describe: Callable[[State, Event, State], Message]
    seat_stats: Callable[[State], tuple[dict[str, Any], ...]]
    min_seats: int = 2
    max_seats: int = 2
    # What docs/rules/ marks as [decision] for this game and no setting shows (rules page).
    decisions: tuple[Message, ...] = ()
    # Rule facts.
    lower_score_wins: bool = False  # the final score is better when lower (strokes)
    always_handicap: bool = False  # every game is played with a handicap
    rating_family: RatingFamily | None = None
    # What the traditional source says of the game (the rules page's [source] points).
    source_title: str = ""  # its title in the Russian source, shown as it is
    source_points: tuple[Message, ...] = ()
    fouls_from_source: bool = False  # the source lists the fouls (else a decision)
    # What the site offers for it.
    plays_matches: bool = True  # two players may play it as a match (a race to N frames)
    handicap_advice: str = ""  # ADVICE_HEAD_START_BALLS, …: how a handicap is advised ("": none)

    @property
    def family(self) -> RatingFamily:
        return self.rating_family or RatingFamily(self.key, self.name)


def game_variant(names: Mapping[str, Any], **facts: Any) -> Variant:
    """The ``Variant`` of a game module, from the names every game module defines —
    ``SETTINGS_FIELDS``, ``FOUL_LABELS``, ``settings_from_dict``, ``initial_state``,
    ``legal_actions``, ``apply``, ``describe`` and ``seat_stats`` — and its facts (``key``,
    ``name``, ``decisions``, …): ``VARIANT = game_variant(globals(), key="cork", …)``."""
    return Variant(
        settings_from_dict=names["settings_from_dict"],
        settings_fields=names["SETTINGS_FIELDS"],
        foul_labels=names["FOUL_LABELS"],
        initial_state=names["initial_state"],
        legal_actions=names["legal_actions"],
        apply=names["apply"],
        describe=names["describe"],
        seat_stats=names["seat_stats"],
        **facts,
    )


# --- helpers shared by the game modules ---------------------------------------------------


def seat_number(index: int) -> int:
    """Seats are 0-based in the engine and 1-based in every text ("Player 1")."""
    return index + 1


# How every text names a seat: "Player 2" as it stands; the Django side renders a Message
# with this msgid as the seat's player's name when it knows the names (games.i18n).
PLAYER = gettext_noop("Player %(seat)s")


def player_ref(index: int) -> Message:
    """The player at seat ``index`` (0-based) in a text: "Player 1", or his name once the
    site renders it. Texts put it where no declension is needed ("%(seat)s: …")."""
    return Message(PLAYER, {"seat": seat_number(index)})


# The choice of one of two seats, for a setting such as who gives the handicap.
SEAT_CHOICES: tuple[tuple[str, Message], ...] = (
    ("0", player_ref(0)),
    ("1", player_ref(1)),
)


def bump(values: tuple[int, ...], seat: int, by: int = 1) -> tuple[int, ...]:
    """A copy of the per-seat ``values`` with ``seat``'s value raised by ``by``."""
    return values[:seat] + (values[seat] + by,) + values[seat + 1 :]


def ending(result: Result | None, *, drawn: str, won: str) -> Message | None:
    """How a description ends when the event ended the game: None while it goes on, the
    msgid ``drawn`` on a draw, else ``won`` with the winner as ``%(seat)s``."""
    if result is None:
        return None
    if result.draw:
        return Message(drawn)
    return Message(won, {"seat": player_ref(result.winners[0])})


def count_fouls(
    foul_counts: tuple[tuple[int, ...], ...],
    seat: int,
    codes: Sequence[str],
    fouls: Sequence[str],
) -> tuple[tuple[int, ...], ...]:
    """Per-seat foul tallies (each in ``codes`` order) with one more of each of ``fouls``
    for ``seat``."""
    tally = tuple(c + (code in fouls) for code, c in zip(codes, foul_counts[seat], strict=True))
    return foul_counts[:seat] + (tally,) + foul_counts[seat + 1 :]


def foul_tallies(
    codes: Sequence[str], foul_counts: tuple[tuple[int, ...], ...]
) -> tuple[dict[str, int], ...]:
    """Each seat's foul tally (in ``codes`` order) as a mapping of foul code to count."""
    return tuple(dict(zip(codes, counts, strict=True)) for counts in foul_counts)


def per_seat(seats: int, **columns: Sequence[Any]) -> tuple[dict[str, Any], ...]:
    """Each seat's statistics from per-seat columns (a game's ``seat_stats``):
    ``per_seat(2, balls=(3, 5))`` is ``({"balls": 3}, {"balls": 5})``."""
    return tuple({name: values[seat] for name, values in columns.items()} for seat in range(seats))


def join_messages(messages: Sequence[Message], separator: str = "; ") -> Message:
    """One Message that renders each of ``messages`` (translated) joined by ``separator``."""
    if len(messages) == 1:
        return messages[0]
    msgid = separator.join(f"%(m{i})s" for i in range(len(messages)))
    return Message(msgid, {f"m{i}": m for i, m in enumerate(messages)})


def game_over() -> RuleViolation:
    return RuleViolation("game_over", Message(gettext_noop("The game is over.")))


def unknown_event(kind: str) -> RuleViolation:
    return RuleViolation(
        "unknown_event",
        Message(gettext_noop("“%(kind)s” is not an event of this game."), {"kind": kind}),
    )


def malformed(what: Message) -> RuleViolation:
    return RuleViolation("malformed_event", what)


# A detail an event may carry or leave out (``expect_details(event, ball=MAY)``).
MAY = "may"


def expect_details(
    event: Event,
    *,
    fouls: bool | str = False,
    ball: bool | str = False,
    pocket: bool | str = False,
    count: bool | str = False,
    extra_balls: bool = False,
    returned: bool = False,
) -> None:
    """Rejects an event that lacks a detail its kind needs (True) or carries one it does not
    take (False); a detail given as ``MAY`` may be there or not (``extra_balls`` and
    ``returned``, when allowed, may always be empty: a stroke that pocketed one ball). Also
    refuses numbers that are not true ints (2.5, True, "3": however the event was built)."""
    check_whole_numbers(event)
    for name, wanted, there in (
        ("fouls", fouls, bool(event.fouls)),
        ("ball", ball, event.ball is not None),
        ("pocket", pocket, event.pocket is not None),
        ("count", count, event.count is not None),
        ("balls", MAY if extra_balls else False, bool(event.extra_balls)),
        ("returned", MAY if returned else False, bool(event.returned)),
    ):
        if wanted is True and not there:
            raise malformed(
                Message(gettext_noop("This event needs its “%(detail)s”."), {"detail": name})
            )
        if there and wanted is False:
            raise malformed(
                Message(gettext_noop("This event takes no “%(detail)s”."), {"detail": name})
            )


def check_whole_numbers(event: Event) -> None:
    """Refuses (malformed_event) an event whose ball, count or balls are not true ints: a
    game that reads a detail without ``expect_details`` calls this first."""
    if not event.has_whole_numbers():
        raise _malformed_payload()


def evolve(state: _T, **changes: Any) -> _T:
    """A copy of the frozen dataclass ``state`` with ``changes``: what ``dataclasses.replace``
    does, without re-running ``__init__`` (field by field through ``object.__setattr__``), so
    that ``apply`` stays cheap. Only for plain frozen dataclasses without ``__post_init__``."""
    new = object.__new__(type(state))
    values = new.__dict__
    values.update(state.__dict__)
    values.update(changes)
    return new


def check_fouls(event: Event, labels: Mapping[str, Message]) -> None:
    """The event's fouls are known to this game and each is ticked once."""
    for code in event.fouls:
        if code not in labels:
            raise RuleViolation(
                "unknown_foul",
                Message(gettext_noop("“%(foul)s” is not a foul of this game."), {"foul": code}),
            )
    if len(set(event.fouls)) != len(event.fouls):
        raise RuleViolation(
            "duplicate_foul", Message(gettext_noop("A foul is ticked more than once."))
        )


def parse_settings(
    fields: Sequence[SettingField],
    data: Mapping[str, Any],
    *,
    min_seats: int,
    max_seats: int,
) -> dict[str, Any]:
    """Validates ``data`` ("players" plus ``fields``; missing fields take their defaults).

    Returns the clean values by name; raises SettingsError naming every bad field. Integers
    may come as strings of digits (form data); unknown names are an error.
    """
    errors: dict[str, Message] = {}
    clean: dict[str, Any] = {}
    known = {f.name: f for f in fields}
    for name in data:
        if name != "players" and name not in known:
            errors[name] = Message(gettext_noop("Unknown setting “%(name)s”."), {"name": name})
    players_field = SettingField(
        "players", Message(gettext_noop("Players")), "int", None, None, (), min_seats, max_seats
    )
    if "players" not in data:
        errors["players"] = Message(gettext_noop("The number of players is required."))
    for f in (players_field, *fields):
        if f.name not in data:
            clean[f.name] = f.default
            continue
        value, error = _clean_value(f, data[f.name])
        if error is not None:
            errors[f.name] = error
        else:
            clean[f.name] = value
    if errors:
        raise SettingsError(errors)
    return clean


def _clean_value(f: SettingField, raw: Any) -> tuple[Any, Message | None]:
    if f.kind == "bool":
        if isinstance(raw, bool):
            return raw, None
        if raw in ("true", "on", "1", 1):
            return True, None
        if raw in ("false", "off", "0", 0, ""):
            return False, None
        return None, Message(gettext_noop("Enter yes or no."))
    if f.kind == "choice":
        codes = [code for code, _ in f.choices]
        if raw in codes:
            return raw, None
        return None, Message(
            gettext_noop("Choose one of: %(choices)s."), {"choices": ", ".join(codes)}
        )
    # "int"
    try:
        raw = _whole_number(raw)
    except (TypeError, ValueError):
        return None, Message(gettext_noop("Enter a whole number."))
    if f.min_value is not None and raw < f.min_value:
        return None, Message(gettext_noop("Must be at least %(min)s."), {"min": f.min_value})
    if f.max_value is not None and raw > f.max_value:
        return None, Message(gettext_noop("Must be at most %(max)s."), {"max": f.max_value})
    return raw, None
