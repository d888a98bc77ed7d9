"""Django admin for the tariff: a kind's bands are edited together on the kind's page, so a
gap or an overlap in the week is refused before anything is saved."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from billing.forms import BandFormSet, TariffBandForm
from billing.labels import money
from billing.models import (
    AuditEntry,
    BarItem,
    BillingSettings,
    SpecialDay,
    Tariff,
    TariffBand,
)
from toolbox.forms import AsciiAdminMixin
from toolbox.immutable import ReadOnlyAdminMixin


class TariffBandInline(AsciiAdminMixin, admin.TabularInline):
    model = TariffBand
    form = TariffBandForm
    formset = BandFormSet
    extra = 1


@admin.register(Tariff)
class TariffAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["kind", "bands_summary"]
    inlines = [TariffBandInline]

    @admin.display(description=_("price bands"))
    def bands_summary(self, tariff):
        return "; ".join(
            f"{band.weekdays_label} {band.hours_label} {money(band.price_per_hour)}"
            for band in tariff.bands.all()
        )

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("bands")


@admin.register(SpecialDay)
class SpecialDayAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["date", "priced_as", "note"]
    date_hierarchy = "date"


@admin.register(BillingSettings)
class BillingSettingsAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "step_minutes", "minimum_minutes"]

    def has_add_permission(self, request):
        return not BillingSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(BarItem)
class BarItemAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["name", "price_display", "is_active"]
    list_filter = ["is_active"]
    search_fields = ["name"]

    @admin.display(description=_("price"))
    def price_display(self, item):
        return money(item.price)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The audit log, to look things up: nobody adds, changes or deletes an entry."""

    list_display = ["at", "username", "action_label", "description", "session", "bill", "reason"]
    list_filter = ["action"]  # by its AuditAction, named in the reader's language
    search_fields = ["username", "reason", "=session__id", "=bill__id"]
    date_hierarchy = "at"
    # The entry in words, not its code and raw details («session.start», {"table": 3}).
    fields = ["at", "username", "action_label", "description", "session", "bill", "shift", "reason"]
    readonly_fields = fields

    @admin.display(description=_("what"), ordering="action")
    def action_label(self, entry):
        return entry.get_action_display()

    @admin.display(description=_("details"))
    def description(self, entry):
        return entry.description
