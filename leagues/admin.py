"""The team leagues in the Django admin: the club's own and the network's (their managers),
never another club's. A league's points, cap and league night, and its divisions' names,
are changed by its editors (``selectors.can_edit``: a club's league by its club's admins,
the network's by the network's admins); the seasons, teams, match days, their games and the
captains' notices are looked at only — the fixtures, bookings, line-ups and scores change
through ``leagues.services``. The line-ups are not listed: a draft is its captain's alone
until both are locked. Nothing of a league is deleted here (its match days hold bookings)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from clubs.admin import OwnerColumn
from leagues import selectors
from leagues.forms import LeagueForm
from leagues.models import Division, League, MatchDay, MatchDayGame, Notice, Season, Team
from toolbox.forms import AsciiAdminMixin
from toolbox.immutable import ReadOnlyAdminMixin


class DivisionInline(AsciiAdminMixin, admin.TabularInline):
    model = Division
    fields = ["name"]
    extra = 0

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(League)
class LeagueAdmin(OwnerColumn, AsciiAdminMixin, admin.ModelAdmin):
    list_display = ["name", "variant", "owner", "cap_kind"]
    search_fields = ["name"]
    fields = ["owner", *LeagueForm.Meta.fields]  # what the desk's form edits
    readonly_fields = ["owner"]
    inlines = [DivisionInline]

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and (
            obj is None or selectors.can_edit(request.user, obj)
        )

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "double"]
    list_select_related = ["league"]


@admin.register(Team)
class TeamAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["name", "season", "division", "captain", "home_club"]
    list_select_related = ["season", "division", "captain", "home_club"]
    fields = ["name", "season", "division", "captain", "people", "home_club"]
    readonly_fields = fields

    @admin.display(description=_("members"))
    def people(self, team):
        # Persons of the network wherever their rosters are (``members`` reads this club's).
        return ", ".join(player.display_name for player in team.people())


class MatchDayGameInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = MatchDayGame
    fields = ["order", "home_names", "away_names", "race_to", "home_frames", "away_frames"]
    readonly_fields = fields
    extra = 0

    @admin.display(description=_("home team's players"))
    def home_names(self, game):
        return game.home_names

    @admin.display(description=_("away team's players"))
    def away_names(self, game):
        return game.away_names


@admin.register(MatchDay)
class MatchDayAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["date", "home", "away", "status", "home_frames", "away_frames", "club"]
    list_filter = ["status"]
    list_select_related = ["home", "away", "club"]
    date_hierarchy = "date"
    fields = [
        "season",
        "division",
        "round",
        "date",
        "home",
        "away",
        "club",
        "status",
        "home_frames",
        "away_frames",
        "forfeit_by",
        "postponed_from",
    ]
    readonly_fields = fields
    inlines = [MatchDayGameInline]


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["at", "player", "kind", "match_day", "sent_at"]
    list_filter = ["kind"]
    list_select_related = ["player", "match_day__home", "match_day__away"]
