"""Writes to the club's tables. Every refusal is a translated ``ValidationError``."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game
from tables.models import Table


def has_game_in_progress(table):
    return Game.objects.in_progress_on(table).exists()


@transaction.atomic
def set_table_active(table, active):
    """Retire a table from the club (or bring it back); not while a game is being played."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not active and has_game_in_progress(table):
        raise ValidationError(
            _("Table %(number)d has a game in progress.") % {"number": table.number}
        )
    table.is_active = active
    table.save(update_fields=["is_active"])
    return table


@transaction.atomic
def set_out_of_service(table, out_of_service):
    """Put a table out of service (cloth, cushions…) or back; not while a game is being played."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if out_of_service and has_game_in_progress(table):
        raise ValidationError(
            _("Table %(number)d has a game in progress.") % {"number": table.number}
        )
    table.out_of_service = out_of_service
    table.save(update_fields=["out_of_service"])
    return table
