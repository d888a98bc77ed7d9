"""Комбинированная пирамида («Московская») — docs/rules/pyramid.md.

Only the coloured ball is the cue ball. Object balls pocketed are one point each; a свояк
(the cue ball pocketed off an object ball) is one point — the shooter takes a ball of his
choice off the table onto his shelf and plays on from hand from дом. The first to 8 wins.
Fouls as in Свободная, plus the cue ball pocketed without a свояк; after a foul that
pocketed the cue ball or put it off the table the opponent plays from hand from дом. The
mechanics are the free-pyramid family's (``pyramid.py``).
"""

from __future__ import annotations

from .base import Message
from .base import gettext_noop
from .pyramid import COMMON_FOULS
from .pyramid import CUE_BALL_POCKETED
from .pyramid import FAMILY_DECISIONS
from .pyramid import FOUL_SOURCE
from .pyramid import HOME
from .pyramid import Family
from .pyramid import family_variant

FOUL_LABELS: dict[str, Message] = {
    **COMMON_FOULS,
    CUE_BALL_POCKETED: Message(gettext_noop("Cue ball pocketed (not a svoyak)")),
}

SVOYAK_SOURCE = Message(
    gettext_noop(
        "A svoyak — the cue ball pocketed off an object ball — is a point: the player takes an "
        "object ball of his choice off the table onto his shelf and plays on with the cue ball "
        "from hand from home."
    )
)
SVOYAK_WITH_BALLS = Message(
    gettext_noop(
        "A svoyak on a stroke that also pocketed object balls: each of them counts, and the "
        "svoyak adds one ball of the shooter's choice. When those were the last object balls, "
        "none is left to take for the svoyak: the marker records the pot without it."
    )
)

FAMILY = Family(
    key="pyramid_combined",
    name=Message(gettext_noop("Combined pyramid («Moscow»)")),
    balls=15,
    svoyak_from=HOME,
    foul_labels=FOUL_LABELS,
    decisions=(SVOYAK_WITH_BALLS, *FAMILY_DECISIONS),
    source_title="«Комбинированная пирамида» («Московская»)",
    source_points=(
        Message(
            gettext_noop(
                "Only the coloured ball is the cue ball; each object ball pocketed is a point."
            )
        ),
        SVOYAK_SOURCE,
        Message(
            gettext_noop(
                "The first to 8 wins. After a foul that pocketed the cue ball or put it off "
                "the table the opponent plays from hand from home."
            )
        ),
        FOUL_SOURCE,
    ),
)
VARIANT = family_variant(FAMILY)
