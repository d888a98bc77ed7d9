"""Routes of the challenge ladders (namespace ``ladder``)."""

from django.urls import path

from ladder import views

app_name = "ladder"

ONE = "<int:pk>/"
CHALLENGE = "challenges/<int:pk>/"

urlpatterns = [
    path("", views.ladder_list, name="list"),
    path("new/", views.new, name="new"),
    path(ONE, views.detail, name="detail"),
    path(f"{ONE}edit/", views.edit, name="edit"),
    path(f"{ONE}join/", views.join, name="join"),
    path(f"{ONE}leave/", views.leave, name="leave"),
    path(f"{ONE}players/", views.add_player, name="add_player"),
    path(f"{ONE}players/<int:player_pk>/remove/", views.remove_player, name="remove_player"),
    path(f"{ONE}challenge/<int:player_pk>/", views.challenge, name="challenge"),
    path(f"{CHALLENGE}accept/", views.accept, name="accept"),
    path(f"{CHALLENGE}decline/", views.decline, name="decline"),
    path(f"{CHALLENGE}withdraw/", views.withdraw, name="withdraw"),
]
