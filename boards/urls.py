"""Routes of the spectator boards (public), in the ``games`` URL namespace (clubsite/urls.py)."""

from django.urls import path

from boards import views

urlpatterns = [
    path("tables/<int:number>/board/", views.board, name="board"),
    path("board/", views.wall, name="wall"),
]
