"""Routes of the games app, mounted at the site root.

Areas: the rules page, the marker's console, the spectator boards, the game records.
"""

from django.urls import path

from games.views import boards, console, records, rules_page

app_name = "games"

urlpatterns = [
    # Rules of the games (public)
    path("rules/", rules_page.rules_page, name="rules"),
    # Marker's console (markers and admins only)
    path("marker/", console.start, name="start"),
    path("marker/tables/<int:number>/", console.table, name="table"),
    path("marker/players/search/", console.player_search, name="player_search"),
    path("marker/games/<int:pk>/", console.console, name="console"),
    path("marker/games/<int:pk>/record/", console.record, name="record"),
    path("marker/games/<int:pk>/undo/", console.undo, name="undo"),
    path("marker/games/<int:pk>/abandon/", console.abandon, name="abandon"),
    path("marker/games/<int:pk>/finish/", console.finish, name="finish"),
    path("marker/games/<int:pk>/result/", console.result, name="result"),
    path("marker/games/<int:pk>/rematch/", console.rematch, name="rematch"),
    # Spectator boards (public)
    path("tables/<int:number>/board/", boards.board, name="board"),
    path("board/", boards.wall, name="wall"),
    # Records: finished games (public)
    path("games/<int:pk>/", records.game_detail, name="detail"),
    path("games/export.csv", records.games_csv, name="games_csv"),
    path("leaderboards/", records.leaderboard_view, name="leaderboard"),
    path("leaderboards/export.csv", records.stats_csv, name="stats_csv"),
    path("marker/handicap-hint/", records.handicap_hint, name="handicap_hint"),
]
