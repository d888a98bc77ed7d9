"""Routes of matches and tournaments (namespace ``tournaments``)."""

from django.urls import path

from tournaments.views import matches

app_name = "tournaments"

urlpatterns = [
    path("matches/<int:pk>/", matches.detail, name="match"),
    path("marker/matches/new/", matches.new, name="match_new"),
    path("marker/matches/<int:pk>/next/", matches.next_frame, name="match_next"),
    path("marker/matches/<int:pk>/reopen/", matches.reopen, name="match_reopen"),
    path("marker/matches/<int:pk>/abandon/", matches.abandon, name="match_abandon"),
]
