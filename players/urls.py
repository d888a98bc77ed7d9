from django.urls import path

from players.views import records, roster

app_name = "players"

urlpatterns = [
    # Roster management (admins)
    path("", roster.not_built_yet, name="list"),
    # Public player records
    path("<int:pk>/", records.not_built_yet, name="detail"),
]
