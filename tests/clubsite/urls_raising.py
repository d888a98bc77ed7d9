"""The site's URLs plus one view that fails, for the error-logging tests."""

from django.urls import path

from clubsite.urls import urlpatterns as site_urlpatterns


def boom(request):
    raise RuntimeError("the marker's tap broke something")


urlpatterns = [path("boom/", boom), *site_urlpatterns]
