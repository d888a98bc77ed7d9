from django.db.models import Exists, OuterRef

from games.models import Game
from tables.models import Table, TableStatus


def in_play():
    """An expression for a Table query: the table has a game in progress."""
    return Exists(Game.objects.in_progress_on(OuterRef("pk")))


def free_tables():
    """Tables a game can start on: active, in service, no game in progress."""
    return Table.objects.filter(is_active=True, out_of_service=False).exclude(in_play())


def tables_with_status(active_only=True):
    """Tables annotated with ``in_play`` (a game in progress) and ``status``."""
    tables = Table.objects.annotate(in_play=in_play())
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
