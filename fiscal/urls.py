"""Routes of the cash register, mounted at /fiscal/ (cashiers and admins)."""

from django.urls import path

from fiscal import views

app_name = "fiscal"

urlpatterns = [
    path("", views.register, name="register"),
    path("send/", views.send_now, name="send"),
    path("x-report/", views.x_report, name="x_report"),
    path("restart-shift/", views.restart_shift, name="restart_shift"),
    path("payments/<int:pk>/correct/", views.correct, name="correct"),
]
