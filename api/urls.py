"""``/api/v1/``: the API of ``api.views`` with its OpenAPI schema (``openapi.json``) and its
browsable docs (``docs``: Swagger UI, served from the site's own static files), GET only,
a rate limit per client, and errors as translated JSON (``{"detail": …}``, ``api.errors``:
also the errors the site answers around the API)."""

from django.conf import settings
from django.http import Http404
from django.urls import path
from ninja import NinjaAPI
from ninja.errors import HttpError, Throttled, ValidationError
from ninja.throttling import AnonRateThrottle

from api import errors, views


class PerClient(AnonRateThrottle):
    """``API_RATE_LIMIT`` requests per client address (the proxy's ``X-Forwarded-For``
    behind ``BEHIND_TLS_PROXY``, never a header a client could forge otherwise), counted in
    the site's cache: with Redis, across the server's processes; a Redis that is down
    counts nothing and refuses nothing."""

    scope = "api"

    def get_rate(self):
        return settings.API_RATE_LIMIT

    def allow_request(self, request):
        self.num_requests, self.duration = self.parse_rate(self.get_rate())  # as set now
        return super().allow_request(request)

    def get_cache_key(self, request):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


api = NinjaAPI(
    title="Luza API",
    version="1",
    description=(
        "The club's public data, read-only: tables and their live games, games with their "
        "events, players' records and ratings, tournaments. The club is the one at the "
        "address asked (each table, game and tournament names it: club); /clubs/ lists "
        "every club of the network, its city, address, home page and how many tables and "
        "live games it has. Lists are paged (limit, offset). A table's live feed is "
        "Server-Sent Events in JSON. Texts follow Accept-Language (ru, en) or ?lang=."
    ),
    urls_namespace="api-v1",
    throttle=[PerClient()],
)
api.add_router("/", views.router)


@api.exception_handler(ValidationError)
def invalid(request, exc):
    lines = [
        f"{'.'.join(str(part) for part in error.get('loc', ()))}: {error.get('msg', '')}"
        for error in exc.errors
    ]
    return errors.problem(400, errors.detail_for(400), lines)


@api.exception_handler(Http404)
def not_found(request, exc):
    return errors.problem(404, errors.detail_for(404))


@api.exception_handler(Throttled)
def throttled(request, exc):
    response = errors.problem(429, errors.detail_for(429))
    if exc.wait is not None:
        response["Retry-After"] = str(max(1, int(exc.wait)))
    return response


@api.exception_handler(HttpError)
def http_error(request, exc):
    return errors.problem(exc.status_code, str(exc))


urlpatterns = [path("api/v1/", api.urls)]
