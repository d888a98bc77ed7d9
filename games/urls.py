"""Routes of the games app, mounted at the site root.

Areas: the rules page, the marker's console, the spectator boards, the game records.
"""

from django.urls import path

from games.views import boards, console, records, rules_page

app_name = "games"

urlpatterns = [
    # Rules of the games (public)
    path("rules/", rules_page.not_built_yet, name="rules"),
    # Marker's console (markers and admins only)
    path("marker/tables/<int:number>/", console.not_built_yet, name="table"),
    # Spectator boards (public)
    path("tables/<int:number>/board/", boards.not_built_yet, name="board"),
    path("board/", boards.not_built_yet, name="wall"),
    # Records: finished games (public)
    path("games/<int:pk>/", records.not_built_yet, name="detail"),
]
