from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MeConfig(AppConfig):
    name = "me"
    verbose_name = _("Players' phones")

    def ready(self):
        from billing import services as billing_services
        from games import services as game_services
        from me import services

        # A player's page hears at once that a game of his started, had its first stroke (a
        # called match is under way) or left its table (and the desk's offers change when
        # any table is free again).
        game_services.when_started(services.game_started)
        game_services.when_begun(services.game_begun)
        game_services.when_closed(services.game_closed)
        # A booking the desk makes (or claims, cancels) is on his page at once too.
        billing_services.when_booking_changed(services.booking_changed)
