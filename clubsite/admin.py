"""Django's user admin, made safe for the club's Admins group.

Admins hold the user permissions so that they can add markers and reset their passwords.
Without these limits one of them could make himself a superuser, give himself any
permission, or change a superuser's password and sign in as him.
"""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

SUPERUSER_ONLY_FIELDS = ("is_superuser", "user_permissions")

admin.site.unregister(User)


@admin.register(User)
class ClubUserAdmin(UserAdmin):
    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        if request.user.is_superuser:
            return fields
        return (*fields, *SUPERUSER_ONLY_FIELDS)

    def has_change_permission(self, request, obj=None):
        return self._may_touch(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._may_touch(request, obj) and super().has_delete_permission(request, obj)

    @staticmethod
    def _may_touch(request, obj):
        """Only a superuser changes or deletes a superuser."""
        return obj is None or not obj.is_superuser or request.user.is_superuser


# The Django admin puts a model's name into its titles in the nominative («Выберите %s для
# изменения» → «Выберите партия …»): Russian needs another case there. The project's catalog
# overrides these titles with forms that need no declension («Выберите для изменения:
# партия»); marking them here keeps them in the catalog (makemessages drops what no code
# uses).
ADMIN_TITLES = [
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
    gettext_noop("Select %s"),
    gettext_noop("Add %s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Add another %(verbose_name)s"),
]

# The header and the browser tab name the club, not Django.
admin.site.site_header = format_lazy("{} · {}", settings.CLUB_NAME, _("Administration"))
admin.site.site_title = format_lazy("{} · {}", settings.CLUB_NAME, _("Administration"))
