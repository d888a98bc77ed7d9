from django.contrib import admin

from tables.models import Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "kind", "is_active", "out_of_service"]
    list_display_links = ["number", "name"]
    list_editable = ["out_of_service"]
    list_filter = ["is_active", "out_of_service", "kind"]
    search_fields = ["name", "=number"]
