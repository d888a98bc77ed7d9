"""Свободная пирамида («Американка») — docs/rules/pyramid.md.

Any ball may be struck as the cue ball (on the break the coloured one); a legal stroke may
pocket any balls, the struck one included, each one point; the first to 8 wins; all sixteen
balls are in play. No свояк. Fouls: the common ones; ``foul_model`` modern or legacy. The
mechanics are the free-pyramid family's (``pyramid.py``).
"""

from __future__ import annotations

from .base import Message, gettext_noop
from .pyramid import COMMON_FOULS, FAMILY_DECISIONS, Family, family_variant

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
)
VARIANT = family_variant(FAMILY)
