"""Routes of the tables' lights, mounted at /lights/."""

from django.urls import path

from lights import views

app_name = "lights"

urlpatterns = [
    path("", views.lights, name="lights"),
    path("badges/", views.badges, name="badges"),
    path("tables/<int:number>/light/", views.light_without_clock, name="light"),
]
