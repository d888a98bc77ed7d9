"""The site's URLs plus one view that fails, for the error-logging tests."""

from django.db import OperationalError
from django.http import HttpResponse
from django.urls import path

from clubsite.urls import handler500  # noqa: F401 - the site's, for these URLs too
from clubsite.urls import urlpatterns as site_urlpatterns


def boom(request):
    raise RuntimeError("the marker's tap broke something")


def busy(request):
    raise OperationalError("couldn't get a connection after 10.00 sec")


def remember(request):
    """Changes the session: it is saved as the response goes, after the view."""
    request.session["seen"] = True
    return HttpResponse("ok")


urlpatterns = [
    path("boom/", boom),
    path("busy/", busy),
    path("remember/", remember),
    *site_urlpatterns,
]
