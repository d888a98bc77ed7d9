from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


def frame_saved(sender, instance, update_fields=None, **kwargs):
    """A game saved finished: if it is a match's frame, the match counts it (same transaction)."""
    if update_fields and "status" in update_fields and instance.status == "finished":
        from tournaments import services

        services.frame_closed(instance)


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        post_save.connect(frame_saved, sender="games.Game", dispatch_uid="match_frame_saved")
