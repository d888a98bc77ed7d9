"""The site's own app config, and django-axes (the sign-in lockout) under a club-facing name.

Both change only what people are shown, never data: the roles' groups keep their code names
("Admins", "Markers", "Cashiers": the code finds them by name) and are shown translated
wherever a group is listed; django-axes's app is named in the user's language (the rest of
its admin is translated in ``clubsite/admin.py``).
"""

from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def create_roles(sender, **kwargs):
    from toolbox.roles import ensure_roles

    ensure_roles()


class ClubsiteConfig(AppConfig):
    name = "clubsite"
    verbose_name = _("Site")

    def ready(self):
        from django.contrib.auth.models import Group
        from django.contrib.auth.signals import user_logged_in

        from clubsite.lockout import remember_sign_in
        from toolbox.roles import role_label

        Group.__str__ = lambda group: str(role_label(group.name))
        # The staff roles' groups, once migrate has run (ensure_roles creates the permissions
        # it hands out itself, so neither the app order nor the sender matters).
        post_migrate.connect(create_roles, sender=self.apps.get_app_config("auth"))
        # A successful sign-in gives the browser its device cookie (clubsite/lockout.py).
        user_logged_in.connect(remember_sign_in, dispatch_uid="luza_device_cookie")


class AxesConfig(AxesAppConfig):
    verbose_name = _("Sign-in lockouts")
