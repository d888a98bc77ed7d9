"""Writes to the club's tables. Every refusal is a translated ``ValidationError``."""

from django.core.exceptions import ValidationError
from django.db import transaction

from tables import holds
from tables.models import Table


def check_in_play_rule(table):
    """The rule every write of a table obeys, on the pages and in the Django admin alike: a
    table that something holds (a game in progress…, ``tables.holds``) stays active and in
    service (``table`` as it would be saved). Raises a translated ValidationError."""
    in_use = table.is_active and not table.out_of_service
    if table.pk is None or in_use:
        return
    for hold in holds.registered():
        if hold.held(Table.objects.filter(pk=table.pk)).exists():
            raise ValidationError(str(hold.message) % {"number": table.number}, code="in_play")


@transaction.atomic
def set_table_active(table, active):
    """Retire a table from the club (or bring it back); not while a game is being played."""
    return _switch(table, "is_active", active)


@transaction.atomic
def set_out_of_service(table, out_of_service):
    """Put a table out of service (cloth, cushions…) or back; not while a game is being played."""
    return _switch(table, "out_of_service", out_of_service)


def _switch(table, flag, value):
    table = Table.objects.select_for_update().get(pk=table.pk)
    setattr(table, flag, value)
    check_in_play_rule(table)
    table.save(update_fields=[flag])
    return table


@transaction.atomic
def save_table(table):
    """Save a table edited as a whole (the Django admin's forms), under the same rule."""
    if table.pk is not None:
        Table.objects.select_for_update().filter(pk=table.pk).exists()  # lock the row
    check_in_play_rule(table)
    table.save()
    return table
