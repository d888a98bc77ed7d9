"""Routes of billing, mounted at /billing/."""

from django.urls import path

from billing.views import desk, tariffs

app_name = "billing"

urlpatterns = [
    # Tariffs and the price preview (admins)
    path("tariffs/", tariffs.tariffs, name="tariffs"),
    # The tables' clocks (cashiers and admins)
    path("desk/", desk.desk, name="desk"),
    path("tables/<int:number>/start/", desk.start, name="start"),
    path("sessions/<int:pk>/", desk.session_page, name="session"),
    path("sessions/<int:pk>/pause/", desk.pause, name="pause"),
    path("sessions/<int:pk>/resume/", desk.resume, name="resume"),
    path("sessions/<int:pk>/stop/", desk.stop, name="stop"),
    path("sessions/<int:pk>/move/", desk.move, name="move"),
    path("sessions/<int:pk>/correct/", desk.correct, name="correct"),
    # A table's clock on its board (public)
    path("tables/<int:number>/clock/", desk.board_clock, name="board_clock"),
]
