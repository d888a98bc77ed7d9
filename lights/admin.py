"""The lights' log in the Django admin: looked at, never changed."""

from django.contrib import admin

from lights.models import LightEvent
from toolbox.immutable import ReadOnlyAdminMixin


@admin.register(LightEvent)
class LightEventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["at", "table", "kind", "username", "reason"]
    list_filter = ["kind"]
