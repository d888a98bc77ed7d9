"""The club's challenge ladders in the Django admin (the club's own: ``ClubOwned``): a
ladder's rules are changed here as on the desk's page; its moves, challenges and notices are
looked at, never changed (they change through ``ladder.services`` only). A ladder is closed
(«open for challenges» off), never deleted: its history stays."""

from django.contrib import admin

from ladder.forms import LadderForm
from ladder.models import Challenge, Ladder, LadderMove, Notice
from toolbox.forms import AsciiAdminMixin
from toolbox.immutable import ReadOnlyAdminMixin


@admin.register(Ladder)
class LadderAdmin(AsciiAdminMixin, admin.ModelAdmin):
    form = LadderForm
    list_display = ["name", "variant", "reach", "active"]
    list_filter = ["active"]
    search_fields = ["name"]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(LadderMove)
class LadderMoveAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["at", "ladder", "kind", "player", "other"]
    list_filter = ["kind"]
    list_select_related = ["ladder", "player", "other"]
    date_hierarchy = "at"


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["made_at", "ladder", "challenger", "challenged", "status", "winner"]
    list_filter = ["status"]
    list_select_related = ["ladder", "challenger", "challenged", "winner"]
    date_hierarchy = "made_at"
    exclude = ["reminded"]


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["at", "ladder", "player", "kind", "sent_at"]
    list_filter = ["kind"]
    list_select_related = ["ladder", "player"]
