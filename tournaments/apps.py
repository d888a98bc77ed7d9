from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        from games import services as game_services
        from tournaments import selectors, services

        # A game just started is no match's frame until ``services._start_frame`` says so; a
        # frame finished is counted by its match, in the same transaction.
        game_services.when_started(selectors.remember_single_game)
        game_services.when_finished(services.frame_closed)
