from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from players import services
from players.forms import PlayerForm
from players.models import Player
from toolbox.forms import AsciiAdminMixin


@admin.register(Player)
class PlayerAdmin(AsciiAdminMixin, admin.ModelAdmin):
    form = PlayerForm  # its check of the unique active name, as on the roster pages
    list_display = [
        "full_name",
        "nickname",
        "skill_class",
        "phone",
        "email",
        "is_active",
        "games_played",
        "updated_at",
    ]
    list_display_links = ["full_name", "nickname"]
    list_filter = ["is_active", "skill_class"]
    search_fields = ["full_name", "nickname", "phone", "email", "search_text"]
    readonly_fields = ["created_at", "updated_at"]
    fieldsets = [
        (None, {"fields": ["full_name", "nickname", "skill_class", "is_active"]}),
        (_("Contacts"), {"fields": ["phone", "email"]}),
        (None, {"fields": ["notes", "created_at", "updated_at"]}),
    ]
    actions = ["deactivate", "reactivate"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(games=Count("seats"))

    @admin.display(description=_("games"), ordering="games")
    def games_played(self, player):
        return player.games

    @admin.action(description=_("Deactivate the selected players"), permissions=["change"])
    def deactivate(self, request, queryset):
        self.set_active(request, queryset, False)

    @admin.action(description=_("Reactivate the selected players"), permissions=["change"])
    def reactivate(self, request, queryset):
        self.set_active(request, queryset, True)

    def set_active(self, request, queryset, active):
        done = 0
        for player in queryset:
            try:
                services.set_player_active(player, active)
                done += 1
            except ValidationError as error:
                self.message_user(request, f"{player}: {error.messages[0]}", messages.ERROR)
        self.message_user(
            request,
            ngettext("%(count)d player changed.", "%(count)d players changed.", done)
            % {"count": done},
        )
