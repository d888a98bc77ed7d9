"""Routes of the series (namespace ``season``): the public standings, the desk's pages."""

from django.urls import path

from season import views

app_name = "season"

urlpatterns = [
    path("series/", views.series_list, name="list"),
    path("series/new/", views.new, name="new"),
    path("series/honours/", views.honours, name="honours"),
    path("series/<int:pk>/", views.detail, name="detail"),
    path("series/<int:pk>/board/", views.board, name="board"),
    path("series/<int:pk>/edit/", views.edit, name="edit"),
    path("series/<int:pk>/stages/", views.add_stage, name="add_stage"),
    path("series/<int:pk>/stages/<int:stage_pk>/remove/", views.remove_stage, name="remove_stage"),
]
