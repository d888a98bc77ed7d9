from django.db.models import Exists, OuterRef

from games.models import Game, GameStatus
from tables.models import Table, TableStatus


def tables_with_status(active_only=True):
    """Tables annotated with ``in_play`` (a game in progress) and ``status``."""
    tables = Table.objects.annotate(
        in_play=Exists(Game.objects.filter(table=OuterRef("pk"), status=GameStatus.IN_PROGRESS))
    )
    if active_only:
        tables = tables.filter(is_active=True)
    tables = list(tables)
    for table in tables:
        table.status = status_of(table, table.in_play)
    return tables


def status_of(table, in_play):
    if in_play:
        return TableStatus.IN_PLAY
    if table.out_of_service or not table.is_active:
        return TableStatus.OUT_OF_SERVICE
    return TableStatus.FREE
