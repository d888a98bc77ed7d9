"""What the console, the boards, the game page and the records show of each game.

One module per game, named as its rules module in ``games/rules/`` (the registry here finds
it by that name, for each of ``games.rules.GAME_MODULES``); ``PRESENTATIONS`` maps a variant
key to its ``Presentation`` (see ``base.py`` for what one answers, and
``docs/architecture.md`` for the files a new game needs).
"""

from importlib import import_module

from games.presentation.base import Figure, Presentation
from games.rules import GAME_MODULES

__all__ = ["PRESENTATIONS", "Figure", "Presentation", "presentation_of"]


def _presentation(rules_module_name: str) -> Presentation:
    """The ``PRESENTATION`` of the module here named as the game's rules module."""
    return import_module(f"{__name__}.{rules_module_name.rpartition('.')[2]}").PRESENTATION


PRESENTATIONS: dict[str, Presentation] = {
    presentation.key: presentation
    for presentation in (_presentation(module.__name__) for module in GAME_MODULES)
}


def presentation_of(key: str) -> Presentation:
    """The presentation of the game with this variant key; KeyError if none."""
    return PRESENTATIONS[key]
