from django.db.models import BooleanField, ExpressionWrapper, Q

from tables import holds
from tables.models import Table, TableStatus


def tables_with_status(active_only=True):
    """Tables annotated with ``in_play`` (held by what gives the IN_PLAY status: a game in
    progress) and ``status``; one query, whatever the holds."""
    shown = [hold for hold in holds.registered() if hold.status]
    flags = {
        f"held_{index}": ExpressionWrapper(
            Q(pk__in=hold.held(Table.objects.all()).values("pk")), output_field=BooleanField()
        )
        for index, hold in enumerate(shown)
    }
    tables = Table.objects.annotate(**flags)
    if active_only:
        tables = tables.filter(is_active=True)
    tables = list(tables)
    for table in tables:
        held = [hold.status for index, hold in enumerate(shown) if getattr(table, f"held_{index}")]
        table.in_play = TableStatus.IN_PLAY in held
        table.status = held[0] if held else status_of(table, in_play=False)
    return tables


def status_of(table, in_play):
    if in_play:
        return TableStatus.IN_PLAY
    if table.out_of_service or not table.is_active:
        return TableStatus.OUT_OF_SERVICE
    return TableStatus.FREE
