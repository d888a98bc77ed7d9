"""What the console, the boards, the game page and the records show of each game.

One module per game, next to its rules module in ``games/rules/``; ``PRESENTATIONS`` maps
a variant key to its ``Presentation`` (see ``base.py`` for what one answers, and
``docs/architecture.md`` for the files a new game needs).
"""

from games.presentation import (
    classic_pyramid,
    clockwise,
    combined_pyramid,
    cork,
    cue_run,
    cue_vs_hand,
    dynamic_pyramid,
    free_pyramid,
    in_order,
)
from games.presentation.base import Figure, Presentation

__all__ = ["PRESENTATIONS", "Figure", "Presentation", "presentation_of"]

PRESENTATIONS: dict[str, Presentation] = {
    module.PRESENTATION.key: module.PRESENTATION
    for module in (
        cork,
        clockwise,
        cue_run,
        cue_vs_hand,
        in_order,
        free_pyramid,
        combined_pyramid,
        dynamic_pyramid,
        classic_pyramid,
    )
}


def presentation_of(key: str) -> Presentation:
    """The presentation of the game with this variant key; KeyError if none."""
    return PRESENTATIONS[key]
