"""The floor of a request: what any page of a signed-in user costs before it does anything.

``floor`` reads the session and the user (as every staff page does, through the same
middleware) and renders a small template with the request's context processors. The
benchmarks that compare a view with it put ``urlpatterns`` here as their ROOT_URLCONF: the
site's routes, plus ``/bench/floor/``.
"""

from django.http import HttpResponse
from django.template import engines
from django.urls import include, path

_TEMPLATE = None


def floor(request):
    global _TEMPLATE  # compiled once, as a template file would be cached
    if _TEMPLATE is None:
        _TEMPLATE = engines["django"].from_string(
            "<p>{{ club_name }}: {{ user.get_username }}"
            "{% if user.is_authenticated %} ({{ LANGUAGE_CODE }}){% endif %}</p>"
        )
    return HttpResponse(_TEMPLATE.render({}, request))


urlpatterns = [
    path("bench/floor/", floor, name="bench_floor"),
    path("", include("clubsite.urls")),
]
