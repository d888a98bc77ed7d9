"""The site's routes. Each app lists its own; the URL namespaces are by what a page is about:
``games`` (rules page, console, boards, game records), ``players``, ``tables``."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from api import urls as api_urls
from boards import urls as boards_urls
from clubsite import views
from games import urls as games_urls
from players import urls as players_urls
from records import urls as records_urls

game_routes = games_urls.urlpatterns + boards_urls.urlpatterns + records_urls.game_urlpatterns
player_routes = players_urls.urlpatterns + records_urls.player_urlpatterns

handler400 = "clubsite.middleware.bad_request_handler"
handler500 = "clubsite.middleware.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("network/", views.network, name="network"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include(api_urls)),
    path("", include("broadcast.urls")),
    path("players/", include((player_routes, "players"))),
    path("tables/", include("tables.urls")),
    path("billing/", include("billing.urls")),
    path("lights/", include("lights.urls")),
    path("ladder/", include("ladder.urls")),
    path("fiscal/", include("fiscal.urls")),
    path("me/", include("me.urls")),
    path("", include("season.urls")),
    path("", include("tournaments.urls")),
    path("", include("leagues.urls")),
    path("", include((game_routes, "games"))),
]
