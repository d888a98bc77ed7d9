from django.contrib import admin

from me.models import GameConfirmation, SignInLink


@admin.register(SignInLink)
class SignInLinkAdmin(admin.ModelAdmin):
    """The links issued (their tokens are not stored: only their hashes, not shown)."""

    list_display = ["player", "created_at", "expires_at", "used_at", "created_by"]
    fields = ["player", "created_at", "expires_at", "used_at", "created_by"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(GameConfirmation)
class GameConfirmationAdmin(admin.ModelAdmin):
    list_display = ["game", "started_by", "opponent", "status", "decided_by", "decided_at"]
    list_filter = ["status"]
    fields = list_display + ["starter_words", "opponent_words"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
