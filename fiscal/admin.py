"""The register in the Django admin: the club's settings (one row), the bar items' VAT, the
cashiers' INN; the register's tasks and state, looked at, never changed."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from billing.labels import money
from clubs.staff import staff_elsewhere
from fiscal.models import CashierTaxId, FiscalSettings, FiscalTask, ItemTax, RegisterState
from toolbox.forms import AsciiAdminMixin
from toolbox.immutable import ReadOnlyAdminMixin


@admin.register(FiscalSettings)
class FiscalSettingsAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "register", "tax_system", "vat"]

    def has_add_permission(self, request):
        return not FiscalSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ItemTax)
class ItemTaxAdmin(AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["bar_item", "vat"]


@admin.register(CashierTaxId)
class CashierTaxIdAdmin(AsciiAdminMixin, admin.ModelAdmin):
    """A cashier's INN is his, not a club's: another club's staff are not listed."""

    list_display = ["user", "inn"]

    def get_queryset(self, request):
        return super().get_queryset(request).exclude(user__in=staff_elsewhere())

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            kwargs["queryset"] = get_user_model().objects.exclude(pk__in=staff_elsewhere())
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(FiscalTask)
class FiscalTaskAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "pk",
        "created_at",
        "kind",
        "total_display",
        "status",
        "fiscal_document_number",
        "shift_number",
        "last_error",
    ]
    list_filter = ["status", "kind"]
    date_hierarchy = "created_at"

    @admin.display(description=_("total"))
    def total_display(self, task):
        return money(task.total)


@admin.register(RegisterState)
class RegisterStateAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "checked_at", "reachable", "shift_number", "unsent_count"]
