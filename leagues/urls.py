"""Routes of the team leagues (namespace ``leagues``)."""

from django.urls import path

from leagues import views

app_name = "leagues"

ONE = "leagues/<int:pk>/"
DAY = "leagues/match-days/<int:pk>/"

urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path(ONE, views.detail, name="detail"),
    path(f"{ONE}board/", views.league_board, name="league_board"),
    path(DAY, views.match_day, name="match_day"),
    path(f"{DAY}board/", views.board, name="board"),
    # The captains, from their phones
    path(f"{DAY}line-up/", views.lock_line_up, name="lock_line_up"),
    path(f"{DAY}line-up/draft/", views.save_line_up, name="save_line_up"),
    path(f"{DAY}games/<int:game_pk>/score/", views.score_game, name="score_game"),
    path(f"{DAY}games/<int:game_pk>/confirm/", views.confirm_game, name="confirm_game"),
    path(f"{DAY}date/", views.propose_date, name="propose_date"),
    path(f"{DAY}date/accept/", views.accept_date, name="accept_date"),
    # The desk
    path("leagues/new/", views.new, name="new"),
    path(f"{ONE}manage/", views.manage, name="manage"),
    path(f"{ONE}seasons/", views.add_season, name="add_season"),
    path(f"{ONE}teams/", views.add_team, name="add_team"),
    path(f"{ONE}fixtures/", views.generate, name="generate"),
    path(f"{DAY}forfeit/<int:team_pk>/", views.forfeit, name="forfeit"),
    path(f"{DAY}table/", views.pick_table, name="pick_table"),
]
