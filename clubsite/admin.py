"""Django's user admin, made safe for the club's Admins group.

Admins hold the user permissions so that they can add markers and reset their passwords.
Without these limits one of them could make himself a superuser, give himself any
permission, or change a superuser's password and sign in as him.
"""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User

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
