"""The series in the Django admin: the club's own and the network's (``Series.visible``),
never another club's. A club's series is changed by its club's admins, the network's by the
network's admins (``selectors.can_edit``, as on the desk's pages); the settings go through
the desk's form and service, the stages are added on the desk's page and only looked at here."""

from django.contrib import admin

from clubs.admin import OwnerColumn
from season import selectors, services
from season.forms import SeriesForm
from season.models import Series, Stage
from toolbox.forms import AsciiAdminMixin
from toolbox.immutable import ReadOnlyAdminMixin


class StageInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Stage
    fields = ["number", "tournament", "table", "scaled", "is_final"]
    readonly_fields = fields
    extra = 0


@admin.register(Series)
class SeriesAdmin(OwnerColumn, AsciiAdminMixin, admin.ModelAdmin):
    form = SeriesForm
    list_display = ["name", "season", "owner", "final_size", "finished"]
    list_filter = ["finished"]
    search_fields = ["name", "season"]
    fields = [
        "owner",
        "name",
        "season",
        "best_n",
        "per_month",
        "best_months",
        "tie_break_1",
        "tie_break_2",
        "tie_break_3",
        "tie_break_4",
        "final_size",
        "wildcards",
        "norms_text",
        "finished",
    ]
    readonly_fields = ["owner"]
    inlines = [StageInline]

    def get_queryset(self, request):
        return super().get_queryset(request).visible()

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.club_id is None:
            # The network's wildcards may be on other clubs' rosters: the desk's form of the
            # network's series (this club's roster only) would drop them.
            return [*self.readonly_fields, "wildcards"]
        return self.readonly_fields

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and (
            obj is None or selectors.can_edit(request.user, obj)
        )

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and (
            obj is None or selectors.can_edit(request.user, obj)
        )

    def save_model(self, request, obj, form, change):
        services.save_series(form)  # a new one is the club's (the network's: on the desk)

    def save_related(self, request, form, formsets, change):
        for formset in formsets:  # the wildcards were saved with the series
            self.save_formset(request, form, formset, change=change)
