"""The public rules page's content, generated from the rules engine.

For each game, all from its ``rules.Variant``: what the traditional source states
(``source_title``, ``source_points``), the number of players, every setting
(``settings_fields``: label, default, allowed values, help, and whether it is a [decision]),
every foul (``foul_labels``, from the source or decided) and the decisions no setting shows
(``decisions``). Texts are rendered in the active language. ``docs/rules/`` tells the same
rules in prose.
"""

from dataclasses import dataclass

from games import rules, selectors
from games.i18n import render_message
from games.rules import Message, SettingField, gettext_noop


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


def setting_text(field: SettingField, value, seat_names=()) -> str:
    """A setting's value in words, wherever one is shown (the rules page, a game's page, the
    Django admin). A choice is looked up by its string key whatever type the stored settings
    give it (seat settings are stored as integers); with ``seat_names``, a seat choice names
    the player seated there."""
    if field.choices == rules.SEAT_CHOICES and str(value).isdigit():
        if int(value) < len(seat_names):
            return seat_names[int(value)]
    if field.kind == "choice":
        labels = {code: label for code, label in field.choices}
        return render_message(labels.get(str(value), Message(str(value))))
    if field.kind == "bool":
        return render_message(Message(gettext_noop("yes") if value else gettext_noop("no")))
    return str(value)


def played_settings(game, variant, seats) -> list[tuple[str, str]]:
    """(label, value) of every setting ``game`` was played with, as the rules page names them;
    a seat choice names the player seated there."""
    try:
        values = selectors.settings_of(game).to_dict()
    except rules.SettingsError:
        values = dict(game.settings)
    names = [seat.name for seat in seats]
    return [
        (render_message(field.label), setting_text(field, values[field.name], names))
        for field in variant.settings_fields
        if field.name != "players" and field.name in values
    ]


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
    title = variant.source_title
    return GameRules(
        key=key,
        name=name,
        source_title="" if name in title else title,  # the Russian name is the title itself
        players=_players(variant),
        source_points=tuple(render_message(m) for m in variant.source_points),
        decisions=tuple(render_message(m) for m in variant.decisions),
        fouls=tuple(render_message(label) for label in variant.foul_labels.values()),
        fouls_from_source=variant.fouls_from_source,
        settings=tuple(
            SettingRow(
                label=render_message(f.label),
                default=setting_text(f, f.default),
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
