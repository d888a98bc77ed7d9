from django.urls import path

from players.views import roster

"""Routes of the roster, mounted at /players/ in the ``players`` URL namespace (with the
player page of ``records``, see ``clubsite/urls.py``)."""

app_name = "players"

urlpatterns = [
    # Roster management (admins)
    path("", roster.player_list, name="list"),
    path("new/", roster.player_create, name="create"),
    path("join/", roster.player_join, name="join"),
    path("<int:pk>/edit/", roster.player_edit, name="edit"),
    path("<int:pk>/deactivate/", roster.player_deactivate, name="deactivate"),
    path("<int:pk>/reactivate/", roster.player_reactivate, name="reactivate"),
    path("<int:pk>/delete/", roster.player_delete, name="delete"),
    path("export.csv", roster.players_export, name="export"),
    path("import/", roster.players_import, name="import"),
    path("import/confirm/", roster.players_import_confirm, name="import_confirm"),
]
