from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MeConfig(AppConfig):
    name = "me"
    verbose_name = _("Players' phones")

    def ready(self):
        from games import services as game_services
        from me import services

        # A player's page hears at once that a game of his started or left its table (and
        # the desk's offers change when any table is free again).
        game_services.when_started(services.game_started)
        game_services.when_closed(services.game_closed)
