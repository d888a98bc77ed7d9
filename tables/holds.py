"""What holds a table: asked of the apps that put people at tables.

The tables app knows no game and no clock; the apps above it do. Each app that can hold a
table registers a ``Hold`` when it is ready (``games``: a game in progress, the table is in
play). A table that anything holds stays active and in service (``services``), and a hold
with a ``status`` shows on the tables' lists (``selectors.tables_with_status``).
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import QuerySet


@dataclass(frozen=True)
class Hold:
    held: Callable[[QuerySet], QuerySet]  # the tables of a Table queryset that are held now
    message: str  # why such a table cannot leave service, with %(number)d
    status: str = ""  # the TableStatus a held table shows, if any


_HOLDS: list[Hold] = []


def register(hold):
    """Called by an app's ``ready``; the same hold registered twice counts once."""
    if hold not in _HOLDS:
        _HOLDS.append(hold)


def registered():
    return tuple(_HOLDS)
