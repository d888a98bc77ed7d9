"""Django's user admin, made safe for the club's Admins group.

Admins hold the user permissions so that they can add markers and reset their passwords.
Without these limits one of them could make himself a superuser, give himself any
permission, or change a superuser's password and sign in as him.
"""

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from clubs.current import current_club
from clubs.models import StaffRole
from clubs.staff import may_use_admin, staff_elsewhere
from toolbox.forms import AsciiAdminMixin
from toolbox.roles import CLUB_ROLES

# A user's own groups are the roles that are not a club's (a player's account, the network's
# admins): a superuser's to give. His roles at a club are the club's (``StaffRoleInline``).
SUPERUSER_ONLY_FIELDS = ("is_superuser", "user_permissions", "groups")

admin.site.unregister(User)
admin.site.unregister(Group)

# Django stores its permissions' names in English («Can add game»): show them translated.
PERMISSION_ACTIONS = {
    "add": _("may add"),
    "change": _("may change"),
    "delete": _("may delete"),
    "view": _("may view"),
}


def permission_label(permission):
    """«Партии | может изменять: партии» instead of «games | game | Can change game»."""
    model = permission.content_type.model_class()
    if model is None:
        return gettext(permission.name)
    opts = model._meta
    action, _sep, model_name = permission.codename.partition("_")
    if model_name == opts.model_name and action in PERMISSION_ACTIONS:
        what = f"{PERMISSION_ACTIONS[action]}: {opts.verbose_name_plural}"
    else:
        what = gettext(permission.name)
    return f"{opts.app_config.verbose_name} | {what}"


class PermissionChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return permission_label(obj)


class TranslatedPermissionsMixin:
    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name in ("permissions", "user_permissions"):
            kwargs["form_class"] = PermissionChoiceField
        return super().formfield_for_manytomany(db_field, request, **kwargs)


@admin.register(Group)
class ClubGroupAdmin(TranslatedPermissionsMixin, GroupAdmin):
    pass


class StaffRoleInline(admin.TabularInline):
    """The user's roles at this club (the request's): its Admins, Markers, Cashiers."""

    model = StaffRole
    extra = 0
    fields = ["group"]
    verbose_name = _("role at this club")
    verbose_name_plural = _("roles at this club")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "group":
            kwargs["queryset"] = Group.objects.filter(name__in=CLUB_ROLES)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(User)
class ClubUserAdmin(AsciiAdminMixin, TranslatedPermissionsMixin, UserAdmin):
    inlines = [StaffRoleInline]

    def get_queryset(self, request):
        """A club's admins see the club's staff and the users of no club (players' accounts,
        a user just added), not another club's staff."""
        users = super().get_queryset(request)
        return users if request.user.is_superuser else users.exclude(pk__in=staff_elsewhere())

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
    gettext_noop("Add %(name)s"),
]


def club_name():
    """The request's club (clubs.middleware), else the one the settings name."""
    club = current_club()
    return club.name if club is not None else settings.CLUB_NAME


# The header and the browser tab name the club, not Django.
admin.site.site_header = format_lazy("{} · {}", lazy(club_name, str)(), _("Administration"))
admin.site.site_title = format_lazy("{} · {}", lazy(club_name, str)(), _("Administration"))


# --- django-axes, the sign-in lockout: its admin in the user's language ----------------------

# Labels of django-axes that its own Russian catalog lacks or leaves in English; makemessages
# keeps them in the project's catalog because they are marked here.
AXES_STRINGS = [
    gettext_noop("Locked Out"),
    gettext_noop("User Agent"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Attempt Remaining"),
    gettext_noop("Not set"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("Expires At"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("Access Attempt"),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
]


def _when(value):
    return date_format(localtime(value), "DATETIME_FORMAT") if value else ""


def failed_sign_in_title(attempt):
    """An AccessAttempt's or an AccessFailureLog's title (axes writes it in English)."""
    return gettext("Failed sign-in: %(user)s, %(when)s") % {
        "user": attempt.username,
        "when": _when(attempt.attempt_time),
    }


def sign_in_title(log):
    return gettext("Sign-in: %(user)s, %(when)s") % {
        "user": log.username,
        "when": _when(log.attempt_time),
    }


# The sign-ins of another club's staff are not this club's to read.
def _sign_ins_of_this_club(get_queryset):
    def only_this_clubs(self, request):
        attempts = get_queryset(self, request)
        if request.user.is_superuser:
            return attempts
        strangers = User.objects.filter(pk__in=staff_elsewhere()).values("username")
        return attempts.exclude(username__in=strangers)

    return only_this_clubs


for _model in (AccessAttempt, AccessFailureLog, AccessLog):
    _admin_class = type(admin.site._registry[_model])
    _admin_class.get_queryset = _sign_ins_of_this_club(_admin_class.get_queryset)


# The admin of the request's club: its staff (and the superusers, the network's admins), not
# every user marked staff (the staff of another club).
def _may_use_admin_site(request):
    return may_use_admin(request.user)


admin.site.has_permission = _may_use_admin_site

AccessAttempt.__str__ = failed_sign_in_title
AccessFailureLog.__str__ = failed_sign_in_title
AccessLog.__str__ = sign_in_title
AccessAttemptAdmin.status.short_description = _("Status")
AccessAttemptAdmin.expiration.short_description = _("Expires")
