"""The site's URLs plus one view that fails, for the error-logging tests."""

from django.db import OperationalError, transaction
from django.http import HttpResponse
from django.urls import path

from clubsite.urls import handler500  # noqa: F401 - the site's, for these URLs too
from clubsite.urls import urlpatterns as site_urlpatterns
from tables.models import Table


def boom(request):
    raise RuntimeError("the marker's tap broke something")


def busy(request):
    raise OperationalError("couldn't get a connection after 10.00 sec")


def duplicate(request):
    """Adds table 1 twice, as two admins racing would (no form to catch it first), in one
    transaction as a service writes."""
    with transaction.atomic():
        Table.objects.create(number=1)
        Table.objects.create(number=1)


def remember(request):
    """Changes the session: it is saved as the response goes, after the view."""
    request.session["seen"] = True
    return HttpResponse("ok")


urlpatterns = [
    path("boom/", boom),
    path("busy/", busy),
    path("remember/", remember),
    path("duplicate/", duplicate),
    *site_urlpatterns,
]
