"""Django admin for games: for looking things up. Games change only through the marker's
console (``games.services``), so everything here is read-only; events most of all."""

from functools import lru_cache

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games import rules, selectors
from games.i18n import render_message
from games.models import Event, Game, Seat
from games.rules_overview import played_settings
from toolbox.forms import AsciiAdminMixin
from toolbox.immutable import ReadOnlyAdminMixin


class SeatInline(AsciiAdminMixin, ReadOnlyAdminMixin, admin.TabularInline):
    model = Seat
    fields = ["position", "player", "guest_name", "outcome", "score"]
    readonly_fields = fields
    extra = 0


@admin.register(Game)
class GameAdmin(AsciiAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
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
    # The stored settings and result are JSON with English keys: shown as the pages show them.
    fields = [
        "table",
        "variant",
        "status",
        "settings_text",
        "started_at",
        "finished_at",
        "marker",
        "last_seq",
        "rematch_of",
    ]
    readonly_fields = ["settings_text"]

    @admin.display(description=_("settings"))
    def settings_text(self, game):
        rows = played_settings(game, selectors.variant_of(game), selectors.seats_of(game))
        return "; ".join(f"{label}: {value}" for label, value in rows) or "—"

    def get_search_results(self, request, queryset, search_term):
        queryset, _may_have_duplicates = super().get_search_results(request, queryset, search_term)
        return queryset, True  # searching through seats may repeat a game


@lru_cache(maxsize=64)
def _game_story(game_pk, last_seq):
    """The seats' names and every stored event's description of a game at ``last_seq``
    (events are never changed, so this never goes stale)."""
    game = Game.objects.get(pk=game_pk)
    names = tuple(seat.name for seat in selectors.seats_of(game))
    try:
        return names, tuple(step.description for step in selectors.game_log(game))
    except (rules.RuleViolation, rules.SettingsError):
        return names, ()


@admin.register(Event)
class EventAdmin(AsciiAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["game", "seq", "what", "recorded_by", "recorded_at"]
    list_filter = ["game__variant"]
    search_fields = ["=game__id", "kind"]
    list_select_related = ["game", "recorded_by"]
    ordering = ["-recorded_at", "-seq"]
    fields = ["game", "seq", "what", "recorded_by", "recorded_at"]
    readonly_fields = ["what"]

    @admin.display(description=_("event"))
    def what(self, event):
        """What happened, as the game's log says it (the stored kind is a code)."""
        names, descriptions = _game_story(event.game_id, event.game.last_seq)
        if 0 < event.seq <= len(descriptions):
            return render_message(descriptions[event.seq - 1], list(names))
        return event.kind
