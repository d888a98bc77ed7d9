from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, StaffRole, normalized_hosts
from clubs.staff import staff_elsewhere
from toolbox.roles import CLUB_ROLES


class HostsField(forms.CharField):
    """The host names as one line, separated by commas or spaces."""

    def prepare_value(self, value):
        if isinstance(value, list):
            return ", ".join(value)
        return value

    def to_python(self, value):
        return normalized_hosts((value or "").replace(",", " ").split())


class ClubForm(forms.ModelForm):
    hosts = HostsField(
        label=_("host names"),
        required=False,
        help_text=_(
            "The addresses it answers to, separated by commas, e.g. sokol.example. "
            "Empty: any address, while it is the only club."
        ),
    )

    class Meta:
        model = Club
        fields = ["name", "slug", "hosts", "time_zone", "city", "address", "rank_provisional"]


class OwnerColumn:
    """An admin of rows that are one club's or the network's (``club`` empty): its column
    ``owner`` says whose."""

    @admin.display(description=_("whose"))
    def owner(self, row):
        if row.pk is not None and row.club_id is None:
            return _("the network's")
        return _("the club's")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """The clubs of the network: the superusers' and the Admins group's (the permissions
    ``toolbox.roles`` gives that group)."""

    form = ClubForm
    list_display = ["name", "city", "host_names", "time_zone"]
    search_fields = ["name", "city", "address"]
    prepopulated_fields = {"slug": ["name"]}

    @admin.display(description=_("host names"))
    def host_names(self, club):
        return ", ".join(club.hosts) or "—"


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    """The club's staff and their roles (the request's club: ``clubs.scoping``)."""

    list_display = ["user", "group"]
    list_filter = ["group"]
    search_fields = ["user__username"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "group":
            kwargs["queryset"] = Group.objects.filter(name__in=CLUB_ROLES)
        if db_field.name == "user":  # not another club's staff
            kwargs["queryset"] = get_user_model().objects.exclude(pk__in=staff_elsewhere())
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
