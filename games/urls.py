"""Routes of the games app: the rules page and the marker's console.

``clubsite/urls.py`` mounts them at the site root in the ``games`` URL namespace, together with
the routes of ``boards`` and ``records``: the names ``games:board``, ``games:detail``, … stay.
"""

from django.urls import path

from games.views import console, rules_page

app_name = "games"

urlpatterns = [
    # Rules of the games (public)
    path("rules/", rules_page.rules_page, name="rules"),
    # Marker's console (markers and admins only)
    path("marker/", console.start, name="start"),
    path("marker/tables/<int:number>/", console.table, name="table"),
    path("marker/players/search/", console.player_search, name="player_search"),
    path("marker/games/<int:pk>/", console.console, name="console"),
    path("marker/games/<int:pk>/stream/", console.console_stream, name="console_stream"),
    path("marker/games/<int:pk>/offline/", console.offline_state_view, name="offline_state"),
    path("marker/offline/engine.js", console.offline_engine, name="offline_engine"),
    path("marker/sw.js", console.service_worker, name="service_worker"),
    path("marker/offline/engine-worker.js", console.engine_worker, name="engine_worker"),
    path("marker/games/<int:pk>/record/", console.record, name="record"),
    path("marker/games/<int:pk>/undo/", console.undo, name="undo"),
    path("marker/games/<int:pk>/dispute/", console.dispute, name="dispute"),
    path("marker/games/<int:pk>/dispute/confirm/", console.confirm_stroke, name="confirm_stroke"),
    path("marker/games/<int:pk>/abandon/", console.abandon, name="abandon"),
    path("marker/games/<int:pk>/finish/", console.finish, name="finish"),
    path("marker/games/<int:pk>/result/", console.result, name="result"),
    path("marker/games/<int:pk>/rematch/", console.rematch, name="rematch"),
]
