"""Routes of billing, mounted at /billing/."""

from django.urls import path

from billing.views import tariffs

app_name = "billing"

urlpatterns = [
    # Tariffs and the price preview (admins)
    path("tariffs/", tariffs.tariffs, name="tariffs"),
]
