from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from games import selectors
        from tables import holds
        from tables.models import TableStatus

        # Games own the question "is this table in play": the tables app asks it this way.
        holds.register(
            holds.Hold(
                held=selectors.tables_in_play,
                message=_("Table %(number)d has a game in progress."),
                status=TableStatus.IN_PLAY,
            )
        )
