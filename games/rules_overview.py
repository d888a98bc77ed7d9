"""The public rules page's content, generated from the rules engine and kept beside it.

For each game: what the traditional source states (``SOURCE_POINTS``, written here from
``/work/shared/RULES.md``'s [seed] points), and from the engine itself: the number of
players, every setting (``variant.settings_fields``: label, default, allowed values, help,
and whether it is a [decision]), every foul (``variant.foul_labels``) and the decisions no
setting shows (``variant.decisions``). Texts are rendered in the active language.
"""

from dataclasses import dataclass

from games import rules
from games.i18n import render_message
from games.rules import Message, SettingField, gettext_noop

# The title of each game in the Russian source, shown as it is in both languages.
SOURCE_TITLES = {
    "cork": "«Пробка»",
    "clockwise": "«Кладка шаров по часовой стрелке» («по солнцу»)",
    "cue_run": "«Кладка шаров кием»",
    "cue_vs_hand": "«Снимание шаров рукой»",
}

# What the source text states (RULES.md marks these [seed]).
SOURCE_POINTS: dict[str, tuple[Message, ...]] = {
    "cork": (
        Message(
            gettext_noop(
                "A small wooden peg, the cork, stands on the table. Before the game every "
                "player's score is 1 point; the sum of all the players' points, the bank, is "
                "what a foul costs and a scoring stroke earns."
            )
        ),
        Message(
            gettext_noop(
                "A foul costs the fouling player the bank, and the bank doubles. With 6 "
                "players: player 2 fouls — his score is −5, the bank 12; player 4 fouls — "
                "−11, bank 24; player 6 fouls — −23, bank 48."
            )
        ),
        Message(
            gettext_noop(
                "A scoring stroke (the cork knocked down by an object ball) earns the bank: "
                "player 6 then scores 48 + (−23) = 25. With 10 players the first three fouls "
                "cost 10, 20 and 40."
            )
        ),
        Message(gettext_noop("The first player to reach 100 points wins; a new game starts.")),
    ),
    "clockwise": (
        Message(
            gettext_noop(
                "Two players alternate; the balls are played in the order of their numbers, "
                "and each ball also has its own pocket."
            )
        ),
        Message(
            gettext_noop(
                "After the first player's first stroke, the opponent nominates the pocket for "
                "ball 1. Each next ball goes into the next pocket clockwise: balls 1, 7 and 13 "
                "share a pocket; 2, 8, 14; 3, 9, 15; 4 and 10; 5 and 11; 6 and 12."
            )
        ),
        Message(
            gettext_noop(
                "Playing a ball into a pocket other than its own is not allowed: the stroke "
                "does not count and the ball is put back on the table."
            )
        ),
        Message(
            gettext_noop(
                "An error found only after further strokes: every ball pocketed counts, and the "
                "order continues clockwise from the pocket of the last pocketed ball. Example: "
                "ball 3 went into the near-right corner instead of the right middle, then 4 "
                "near-left and 5 left-middle; found now — 6 goes far-left, 7 far-right."
            )
        ),
    ),
    "cue_run": (
        Message(
            gettext_noop(
                "Each participant in turn pockets all 16 balls — the fifteen of the pyramid "
                "and the cue ball — in as few strokes as he can; the referee counts the "
                "strokes. A perfect run is 16 balls in 16 strokes."
            )
        ),
        Message(
            gettext_noop(
                "The first stroke may break the pyramid or pocket the cue ball into any "
                "pocket. No ball or pocket is called; any stroke may be used, with a long or "
                "short cue, the machine (машинка) or the mazik."
            )
        ),
        Message(
            gettext_noop(
                "Penalty, one stroke added: for a double hit; for touching the cue ball or any "
                "other ball with clothing, hand or cue (machine, mazik)."
            )
        ),
        Message(
            gettext_noop(
                "A ball knocked off the table by an over-hard stroke goes back on the table; "
                "there is no penalty."
            )
        ),
        Message(
            gettext_noop(
                "The outcome is a win, a loss or a draw, normal or conditional. A normal draw: "
                "every participant pockets 16 balls in 16 strokes — also when the stronger "
                "player gives the weaker one a handicap."
            )
        ),
        Message(
            gettext_noop(
                "The weaker player may ask for a handicap, of three kinds: the stronger player "
                "starts; the weaker player may make more strokes; mixed — the stronger player "
                "starts and may make fewer strokes."
            )
        ),
    ),
    "cue_vs_hand": (
        Message(
            gettext_noop(
                "All the balls, whatever their numbers, are set up as a pyramid. One "
                "participant plays with the cue, the other with his hand."
            )
        ),
        Message(
            gettext_noop(
                "The one who plays with the cue opens and breaks the pyramid; he may first play "
                "the cue ball off a cushion so that it stops behind the pyramid, and then break."
            )
        ),
        Message(
            gettext_noop(
                "If a ball drops on the break, the same player keeps the stroke and the ball "
                "is put back."
            )
        ),
        Message(gettext_noop("Here the source text breaks off mid-sentence.")),
    ),
}


# Whether the source lists the game's fouls (cork a–f, the cue run's a–b) or this software
# decided them (RULES.md: "Fouls [decision, usual Russian rules]").
FOULS_FROM_SOURCE = {"cork": True, "clockwise": False, "cue_run": True, "cue_vs_hand": False}


@dataclass(frozen=True)
class SettingRow:
    label: str
    default: str
    allowed: str
    help: str
    decision: bool


@dataclass(frozen=True)
class GameRules:
    key: str
    name: str
    source_title: str
    players: str
    source_points: tuple[str, ...]
    decisions: tuple[str, ...]
    fouls: tuple[str, ...]
    fouls_from_source: bool
    settings: tuple[SettingRow, ...]


def _value(field: SettingField, value) -> str:
    if field.kind == "choice":
        labels = {code: label for code, label in field.choices}
        return render_message(labels.get(str(value), Message(str(value))))
    if field.kind == "bool":
        return render_message(Message(gettext_noop("yes") if value else gettext_noop("no")))
    return str(value)


def _allowed(field: SettingField) -> str:
    if field.kind == "choice":
        return "; ".join(render_message(label) for _, label in field.choices)
    if field.kind == "bool":
        return render_message(Message(gettext_noop("yes or no")))
    if field.max_value is None or field.max_value >= 1_000_000:
        return render_message(Message(gettext_noop("from %(min)s"), {"min": field.min_value}))
    return render_message(
        Message(
            gettext_noop("%(min)s to %(max)s"), {"min": field.min_value, "max": field.max_value}
        )
    )


def _players(variant: rules.Variant) -> str:
    if variant.min_seats == variant.max_seats:
        return render_message(Message(gettext_noop("%(n)s players"), {"n": variant.min_seats}))
    return render_message(
        Message(
            gettext_noop("%(min)s to %(max)s players"),
            {"min": variant.min_seats, "max": variant.max_seats},
        )
    )


def game_rules(key: str) -> GameRules:
    variant = rules.get_variant(key)
    name = render_message(variant.name)
    title = SOURCE_TITLES.get(key, "")
    return GameRules(
        key=key,
        name=name,
        source_title="" if name in title else title,  # the Russian name is the title itself
        players=_players(variant),
        source_points=tuple(render_message(m) for m in SOURCE_POINTS.get(key, ())),
        decisions=tuple(render_message(m) for m in variant.decisions),
        fouls=tuple(render_message(label) for label in variant.foul_labels.values()),
        fouls_from_source=FOULS_FROM_SOURCE.get(key, False),
        settings=tuple(
            SettingRow(
                label=render_message(f.label),
                default=_value(f, f.default),
                allowed=_allowed(f),
                help=render_message(f.help) if f.help else "",
                decision=f.decision,
            )
            for f in variant.settings_fields
            if f.name != "players"
        ),
    )


def all_game_rules() -> list[GameRules]:
    """Every game of the engine, in the order of the source text."""
    return [game_rules(key) for key in rules.VARIANTS]
