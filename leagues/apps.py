from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Team leagues")

    def ready(self):
        from games import services as game_services
        from leagues import services

        # A frame of a match day's game played at a table (the console, or scored by the
        # players and confirmed) counts for that game, in the same transaction.
        game_services.when_finished(services.frame_finished)
