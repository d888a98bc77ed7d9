from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


def frame_saved(sender, instance, created=False, update_fields=None, **kwargs):
    """A game saved finished: if it is a match's frame, the match counts it (same transaction).
    A game just started is no frame until ``services._start_frame`` says so."""
    if created:
        from tournaments import selectors

        selectors.remember_match_of_game(instance, 0)
        return
    if update_fields and "status" in update_fields and instance.status == "finished":
        from tournaments import services

        services.frame_closed(instance)


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        post_save.connect(frame_saved, sender="games.Game", dispatch_uid="match_frame_saved")
