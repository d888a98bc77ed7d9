"""Django admin for games: for looking things up. Games change only through the marker's
console (``games.services``), so everything here is read-only; events most of all."""

from django.contrib import admin

from games.models import Event, Game, Seat


class ReadOnlyAdminMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Seat
    fields = ["position", "player", "guest_name", "outcome", "score"]
    readonly_fields = fields
    extra = 0


@admin.register(Game)
class GameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["id", "variant", "table", "status", "started_at", "finished_at", "marker"]
    list_filter = ["status", "variant", "table"]
    search_fields = [
        "=id",
        "seats__player__full_name",
        "seats__player__nickname",
        "seats__guest_name",
        "marker__username",
    ]
    date_hierarchy = "started_at"
    list_select_related = ["table", "marker"]
    inlines = [SeatInline]

    def get_search_results(self, request, queryset, search_term):
        queryset, _may_have_duplicates = super().get_search_results(request, queryset, search_term)
        return queryset, True  # searching through seats may repeat a game


@admin.register(Event)
class EventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["game", "seq", "kind", "recorded_by", "recorded_at"]
    list_filter = ["kind"]
    search_fields = ["=game__id", "kind"]
    list_select_related = ["game", "recorded_by"]
    ordering = ["-recorded_at", "-seq"]
