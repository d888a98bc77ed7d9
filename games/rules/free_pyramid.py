"""Свободная пирамида («Американка») — docs/rules/pyramid.md.

Any ball may be struck as the cue ball (on the break the coloured one); a legal stroke may
pocket any balls, the struck one included, each one point; the first to 8 wins; all sixteen
balls are in play. No свояк. Fouls: the common ones; ``foul_model`` modern or legacy. The
mechanics are the free-pyramid family's (``pyramid.py``).
"""

from __future__ import annotations

from .base import Message
from .base import gettext_noop
from .pyramid import COMMON_FOULS
from .pyramid import FAMILY_DECISIONS
from .pyramid import FOUL_SOURCE
from .pyramid import Family
from .pyramid import family_variant

FAMILY = Family(
    key="pyramid_free",
    name=Message(gettext_noop("Free pyramid («American»)")),
    balls=16,
    svoyak_from=None,
    foul_labels=COMMON_FOULS,
    decisions=(
        Message(
            gettext_noop(
                "After a foul the next player plays the balls as they lie: any ball may be "
                "struck, so there is no ball in hand."
            )
        ),
        *FAMILY_DECISIONS,
    ),
    source_title="«Свободная пирамида» («Американка»)",
    source_points=(
        Message(
            gettext_noop(
                "Fifteen white balls numbered 1–15 and one coloured ball. Any ball may be "
                "struck as the cue ball, except on the break: the coloured ball, from hand from "
                "home."
            )
        ),
        Message(
            gettext_noop(
                "A legal stroke may pocket any balls, the struck one included: each is a point, "
                "and the player goes on after a pot. The first to 8 wins the frame."
            )
        ),
        FOUL_SOURCE,
    ),
)
VARIANT = family_variant(FAMILY)
