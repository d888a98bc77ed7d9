"""Routes of the records (public): games, leaderboards, exports, the handicap hint, players.

``game_urlpatterns`` join the ``games`` URL namespace at the site root, ``player_urlpatterns``
the ``players`` namespace under /players/ (see clubsite/urls.py), so the names stay
``games:detail``, ``games:leaderboard``, ``players:detail``, …
"""

from django.urls import path

from records.views import exports, games, merges, players

game_urlpatterns = [
    path("games/<int:pk>/", games.game_detail, name="detail"),
    path("games/export.csv", exports.games_csv, name="games_csv"),
    path("leaderboards/", games.leaderboard_view, name="leaderboard"),
    path("leaderboards/export.csv", exports.stats_csv, name="stats_csv"),
    path("marker/handicap-hint/", games.handicap_hint, name="handicap_hint"),
]

player_urlpatterns = [
    path("<int:pk>/", players.player_detail, name="detail"),
    path("<int:pk>/network/", players.player_network, name="network"),
    path("merges/", merges.people, name="merges"),
    path("merges/<int:pk>/undo/", merges.undo, name="merge_undo"),
]
