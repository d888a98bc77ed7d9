"""Routes of the overlays and embeds (namespace ``broadcast``; public)."""

from django.urls import path

from broadcast import views

app_name = "broadcast"

TOURNAMENT = "tournaments/<int:pk>/"

urlpatterns = [
    path("overlay/", views.overlay_help, name="overlay_help"),
    path("tables/<int:number>/overlay/", views.table_overlay, name="table_overlay"),
    path(
        "tables/<int:number>/overlay/stream/",
        views.table_overlay_stream,
        name="table_overlay_stream",
    ),
    path(f"{TOURNAMENT}overlay/", views.tournament_overlay, name="tournament_overlay"),
    path(
        f"{TOURNAMENT}overlay/stream/",
        views.tournament_overlay_stream,
        name="tournament_overlay_stream",
    ),
    path(
        f"{TOURNAMENT}overlay/tables/<int:number>/stream/",
        views.tournament_overlay_stream,
        name="tournament_overlay_stream",
    ),
    path("embed/tables/<int:number>/", views.table_embed, name="table_embed"),
    path(f"embed/{TOURNAMENT}bracket/", views.bracket_embed, name="bracket_embed"),
    path(f"embed/{TOURNAMENT}bracket/stream/", views.bracket_stream, name="bracket_stream"),
    path("embed/leaderboards/", views.leaderboard_embed, name="leaderboard_embed"),
    path("embed/series/<int:pk>/", views.series_embed, name="series_embed"),
    path("embed/leagues/<int:pk>/", views.league_embed, name="league_embed"),
]
