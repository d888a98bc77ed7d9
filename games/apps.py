from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def create_roles(sender, **kwargs):
    from clubsite.roles import ensure_roles

    ensure_roles()


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # games is the last of our apps, so every permission the roles use exists by now.
        post_migrate.connect(create_roles, sender=self)
