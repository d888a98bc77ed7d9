"""Routes of the spectator boards (public), in the ``games`` URL namespace (clubsite/urls.py)."""

from django.urls import path

from boards import views

urlpatterns = [
    path("tables/<int:number>/board/", views.board, name="board"),
    path("board/", views.wall, name="wall"),
    path("tables/<int:number>/board/stream/", views.board_stream, name="board_stream"),
    path("board/stream/", views.wall_stream, name="wall_stream"),
]
