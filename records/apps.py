from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = _("Records and ratings")

    def ready(self):
        from games import services as game_services
        from records import rating

        # Each finished game moves its family's stored ratings (records.rating), at once; a
        # finish taken back moves them back.
        game_services.when_finished(rating.game_finished)
        game_services.when_reopened(rating.game_reopened)
