"""Динамичная пирамида («Невская») — docs/rules/pyramid.md.

As Комбинированная, except after a свояк the cue ball is played from hand from anywhere on
the table, and on that premium stroke only object balls may be pocketed: pocketing the cue
ball on it is a foul [decision] (the engine refuses a свояк there). The first to 8 wins. The
mechanics are the free-pyramid family's (``pyramid.py``).
"""

from __future__ import annotations

from .base import Message
from .base import gettext_noop
from .combined_pyramid import FOUL_LABELS
from .combined_pyramid import SVOYAK_SOURCE
from .combined_pyramid import SVOYAK_WITH_BALLS
from .pyramid import ANYWHERE
from .pyramid import FAMILY_DECISIONS
from .pyramid import FOUL_SOURCE
from .pyramid import Family
from .pyramid import family_variant

FAMILY = Family(
    key="pyramid_dynamic",
    name=Message(gettext_noop("Dynamic pyramid («Nevskaya»)")),
    balls=15,
    svoyak_from=ANYWHERE,
    foul_labels=FOUL_LABELS,
    decisions=(
        Message(
            gettext_noop(
                "On the premium stroke after a svoyak (from hand, from anywhere) only object "
                "balls may be pocketed: pocketing the cue ball on it is a foul, not a svoyak."
            )
        ),
        SVOYAK_WITH_BALLS,
        *FAMILY_DECISIONS,
    ),
    source_title="«Динамичная пирамида» («Невская»)",
    source_points=(
        Message(
            gettext_noop(
                "As the combined pyramid, but after a svoyak the cue ball is played from hand "
                "from anywhere on the table, and on that stroke only object balls may be "
                "pocketed. The first to 8 wins."
            )
        ),
        SVOYAK_SOURCE,
        FOUL_SOURCE,
    ),
)
VARIANT = family_variant(FAMILY)
