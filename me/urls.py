"""Routes of the players' phones (namespace ``me``): the player's own pages under /me/, the
desk's side (sign-in links, disputes) under /me/desk/."""

from django.urls import path

from me.views import desk, home, join, play

app_name = "me"

urlpatterns = [
    path("", home.home, name="home"),
    path("stream/", home.stream, name="stream"),
    path("join/<str:token>/", join.join, name="join"),
    path("games/<int:pk>/confirm/", home.confirm, name="confirm"),
    path("games/<int:pk>/dispute/", home.dispute, name="dispute"),
    path("tournaments/<int:pk>/sign-up/", home.sign_up, name="sign_up"),
    path("tournaments/<int:pk>/withdraw/", home.withdraw, name="withdraw"),
    path("tournaments/<int:pk>/check-in/", home.check_in, name="check_in"),
    path("telegram/", home.telegram, name="telegram"),
    path("tables/<int:number>/play/", play.play, name="play"),
    path("players/search/", play.search, name="search"),
    # The desk (cashiers and admins) and the admins
    path("desk/players/", desk.players, name="players"),
    path("desk/players/<int:pk>/", desk.access, name="access"),
    path("desk/players/<int:pk>/link/", desk.issue_link, name="issue_link"),
    path("desk/players/<int:pk>/sign-out/", desk.sign_out, name="sign_out"),
    path("desk/disputes/", desk.disputes, name="disputes"),
    path("desk/disputes/<int:pk>/", desk.settle, name="settle"),
]
