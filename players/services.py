"""Writes to the players roster. Every error is a translated ``ValidationError``."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from clubs.scoping import club_in_scope
from players.models import Membership


def set_player_active(player, active):
    """Deactivate or reactivate; reactivating checks that the name is free among active players."""
    if player.is_active == active:
        return player
    player.is_active = active
    if active:
        try:
            player.validate_constraints()
        except ValidationError:
            player.is_active = False
            raise
    player.save(update_fields=["is_active", "updated_at"])
    return player


@transaction.atomic
def delete_player(player):
    """Only a player who never sat at a game may be deleted; the others are deactivated. A
    person on another club's roster too leaves this club's roster only."""
    if Membership.everywhere.filter(player=player).exclude(club=club_in_scope()).exists():
        Membership.objects.filter(player=player).delete()
        return
    if player.has_played:
        raise ValidationError(
            _("%(name)s has played games and cannot be deleted: deactivate the player instead.")
            % {"name": player.full_name}
        )
    try:
        player.delete()
    except ProtectedError as error:  # a game started meanwhile
        raise ValidationError(
            _("%(name)s has played games and cannot be deleted: deactivate the player instead.")
            % {"name": player.full_name}
        ) from error
