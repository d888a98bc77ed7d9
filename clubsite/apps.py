"""The site's own app config, and django-axes (the sign-in lockout) under a club-facing name.

Both change only what people are shown, never data: the roles' groups keep their code names
("Admins", "Markers", "Cashiers": the code finds them by name) and are shown translated
wherever a group is listed; django-axes's app is named in the user's language (the rest of
its admin is translated in ``clubsite/admin.py``).
"""

from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsiteConfig(AppConfig):
    name = "clubsite"
    verbose_name = _("Site")

    def ready(self):
        from django.contrib.auth.models import Group

        from clubsite.roles import role_label

        Group.__str__ = lambda group: str(role_label(group.name))


class AxesConfig(AxesAppConfig):
    verbose_name = _("Sign-in lockouts")
