from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    # Table management (admins)
    path("", views.not_built_yet, name="list"),
]
