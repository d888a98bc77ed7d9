"""Routes of matches and tournaments (namespace ``tournaments``)."""

from django.urls import path

from tournaments.views import matches, tournaments

app_name = "tournaments"

urlpatterns = [
    path("matches/<int:pk>/", matches.detail, name="match"),
    path("marker/matches/new/", matches.new, name="match_new"),
    path("marker/matches/<int:pk>/next/", matches.next_frame, name="match_next"),
    path("marker/matches/<int:pk>/reopen/", matches.reopen, name="match_reopen"),
    path("marker/matches/<int:pk>/abandon/", matches.abandon, name="match_abandon"),
    # Public
    path("tournaments/", tournaments.tournament_list, name="list"),
    path("tournaments/<int:pk>/", tournaments.detail, name="detail"),
    path("tournaments/<int:pk>/board/", tournaments.board, name="board"),
    path("tournaments/<int:pk>/matches.csv", tournaments.matches_csv, name="matches_csv"),
    # Admins
    path("tournaments/new/", tournaments.new, name="new"),
    path("tournaments/<int:pk>/edit/", tournaments.edit, name="edit"),
    path("tournaments/<int:pk>/manage/", tournaments.manage, name="manage"),
    path("tournaments/<int:pk>/entrants/", tournaments.add_entrant, name="add_entrant"),
    path(
        "tournaments/<int:pk>/entrants/<int:entrant_pk>/remove/",
        tournaments.remove_entrant,
        name="remove_entrant",
    ),
    path(
        "tournaments/<int:pk>/entrants/<int:entrant_pk>/withdraw/",
        tournaments.withdraw,
        name="withdraw",
    ),
    path("tournaments/<int:pk>/start/", tournaments.start, name="start"),
    path("tournaments/<int:pk>/call/", tournaments.call_match, name="call"),
    path("tournaments/<int:pk>/hold/", tournaments.hold, name="hold"),
    path("tournaments/<int:pk>/walkover/", tournaments.walkover, name="walkover"),
    path(
        "tournaments/<int:pk>/matches/<int:match_pk>/undo/",
        tournaments.undo_result,
        name="undo",
    ),
]
