from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = _("Challenge ladders")

    def ready(self):
        from games import services as game_services
        from ladder import services

        # A counted game between the two players of an accepted challenge decides it.
        game_services.when_finished(services.game_finished)
