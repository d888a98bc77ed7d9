"""Settings for the Luza club site, read from the environment.

DATABASE_URL   default: SQLite file db.sqlite3 in the project dir; postgres://… uses psycopg 3
SECRET_KEY     required unless DEBUG is on (then a development key is used)
DEBUG          "1"/"true" to enable; default on for local development (make run)
ALLOWED_HOSTS  comma-separated; default "127.0.0.1,localhost,.localhost,testserver" in DEBUG
               (.localhost: the demo network's sokol.localhost, …), else none
"""

import os
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG", default=True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get(
        "ALLOWED_HOSTS", "127.0.0.1,localhost,.localhost,testserver" if DEBUG else ""
    ).split(",")
    if host.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "corsheaders",  # CORS for the API's GETs (api/)
    "ninja",  # the API's library: its docs page's scripts come from its static files
    "template_partials",
    "clubsite.apps.AxesConfig",  # django-axes, under a translated name (clubsite/apps.py)
    "clubs",  # the clubs of the site; each request's club is decided by its host name
    "players",
    "tables",
    "tournaments",  # before games too (the roles need its permissions)
    "billing",  # before games: the roles are set up after games' migrations (games/apps.py)
    "games",
    "boards",
    "live",  # pushes changes to the boards (Server-Sent Events), see live/__init__.py
    "records",
    "lights",  # the tables' light relays follow the clocks (MQTT_URL), see lights/__init__.py
    "ladder",  # a club's challenge ladders, docs/tournaments.md
    "fiscal",  # the club's cash register makes every payment's receipt (54-FZ), docs/fiscal.md
    "season",  # series and cups: points per place, standings, the final (issue 34)
    "leagues",  # team leagues: fixtures, line-ups locked blind, standings (docs/tournaments.md)
    "broadcast",  # stream overlays and embeds
    "api",  # the read-only public API, /api/v1/
    "me",  # the players' own phones: /me/, sign-in links, games without a marker
    "clubsite.apps.ClubsiteConfig",  # its admin.py: the user admin, limited for the Admins group
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "clubs.middleware.ClubMiddleware",  # the request's club, by host name; its time zone active
    "corsheaders.middleware.CorsMiddleware",  # the API's CORS, before CommonMiddleware
    "api.errors.ApiErrorsMiddleware",  # under /api/ every error is the API's JSON
    "clubsite.logs.RequestContextMiddleware",  # log lines name the request's path and user
    "clubsite.middleware.DatabaseErrorMiddleware",  # busy: 503, Retry-After; a race: 409
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "clubsite.middleware.LanguageFromQueryMiddleware",  # ?lang=ru|en, for the boards
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "clubsite.lockout.TrustedDeviceMiddleware",  # a known device is not locked out by others
    "django.contrib.messages.middleware.MessageMiddleware",
    "clubsite.middleware.RejectNulMiddleware",  # a NUL in any parameter: 400
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into the page that says so
]

ROOT_URLCONF = "clubsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubsite.context_processors.club",
            ],
        },
    },
]

WSGI_APPLICATION = "clubsite.wsgi.application"
ASGI_APPLICATION = "clubsite.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that accepts connections but never answers fails a request after this many
    # seconds instead of hanging the worker until gunicorn kills it.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = int(
        os.environ.get("DB_CONNECT_TIMEOUT", "5")
    )
    # Each server process keeps a pool of at most DB_POOL_SIZE connections (psycopg's pool):
    # a burst of requests waits for one (DB_POOL_TIMEOUT seconds at most, then a 503 with
    # Retry-After) instead of opening one each until PostgreSQL refuses "too many clients".
    DB_POOL_SIZE = int(os.environ.get("DB_POOL_SIZE", "6"))
    if DB_POOL_SIZE > 0:
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1,
            "max_size": DB_POOL_SIZE,
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
            "max_idle": 60,
        }
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them (Django requires 0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): LOGIN_FAILURE_LIMIT wrong passwords for one username from
# one address lock that pair out of the site's and the admin's login for LOGIN_LOCKOUT_MINUTES
# (even the right password is refused meanwhile); see clubsite/lockout.py.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "clubs.staff.ClubRoleBackend",  # the model backend, reading the user's roles at the club
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
# By username and address; a browser that signed in as that user before, by its device.
AXES_LOCKOUT_PARAMETERS = "clubsite.lockout.lockout_parameters"
AXES_RESET_ON_SUCCESS = True
AXES_SENSITIVE_PARAMETERS = []  # the lockout's log line names the username and address
AXES_LOCKOUT_CALLABLE = "clubsite.lockout.lockout_response"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed names in production (after `collectstatic`); plain in development.
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# manage.py backup_club writes this (Django's JSON with times to the microsecond).
SERIALIZATION_MODULES = {"club-json": "clubsite.backup_format"}

# The boards' rendered fragments and the ratings are cached. With REDIS_URL the server's
# processes share one cache (a board changed by a stroke is rendered once, the ratings are
# recomputed once after a restart); without it each process keeps its own, in memory.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            # Django's RedisCache, but a dead Redis is a miss, logged (see toolbox/cache.py).
            "BACKEND": "toolbox.cache.ResilientRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": "luza",
            "OPTIONS": {
                "socket_connect_timeout": float(os.environ.get("REDIS_TIMEOUT", "0.5")),
                "socket_timeout": float(os.environ.get("REDIS_TIMEOUT", "0.5")),
            },
        }
    }

# Live boards (live/): which broker tells the server's processes that a board changed. Empty:
# Redis with REDIS_URL, else PostgreSQL LISTEN/NOTIFY on PostgreSQL, else in-process.
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", "0.5"))
LIVE_BROKER = os.environ.get("LIVE_BROKER", "")
# A stream ends after this long and the browser reconnects (spreads screens over restarted
# workers); under WSGI (runserver, tests) a stream holds a thread, so it ends sooner.
LIVE_STREAM_SECONDS = int(os.environ.get("LIVE_STREAM_SECONDS", "900"))

# The tables' lights (lights/): the MQTT broker of the club's relays (Tasmota), e.g.
# mqtt://user:pass@127.0.0.1:1883; unset: no light is driven and nothing else changes.
MQTT_URL = os.environ.get("MQTT_URL", "")
LIGHT_OFF_DELAY_SECONDS = int(os.environ.get("LIGHT_OFF_DELAY_SECONDS", "60"))
LIGHT_GUARD = os.environ.get("LIGHT_GUARD", "warn")  # a table lit by hand: off|warn|switch_off
if LIGHT_GUARD not in ("off", "warn", "switch_off"):
    raise ImproperlyConfigured("LIGHT_GUARD must be off, warn or switch_off.")
LIVE_WSGI_STREAM_SECONDS = 60
# Under uvicorn WhiteNoise's static files are file iterators that Django reads in a thread, and
# says so on every one of them; that is fine for static files (the streams are asynchronous).
warnings.filterwarnings(
    "ignore", "StreamingHttpResponse must consume synchronous iterators", Warning
)

# The club's cash register (fiscal/, chosen in the Django admin's Fiscal settings): a payment's
# receipt is tried at once in a thread after the payment commits; off: only the worker
# (manage.py fiscal_worker) sends them.
FISCAL_SEND_AT_ONCE = env_flag("FISCAL_SEND_AT_ONCE", default=True)

CLUB_NAME = os.environ.get("CLUB_NAME", "Luza")
# The second wall between clubs on PostgreSQL (clubs/db_wall.py): the money tables' row-level
# security told the club in scope. Off: the policies let every row through (e.g. behind
# PgBouncer in transaction pooling, where a session's setting cannot be kept).
CLUB_DB_WALL = env_flag("CLUB_DB_WALL", default=True)
# The players' "you're up" with their page closed: the club's Telegram bot (me/telegram.py,
# manage.py telegram_bot). Off unless the token is set; TELEGRAM_API_URL: another Bot API
# server (a local one); TELEGRAM_BOT_NAME: the bot's @username, for the players' link.
TELEGRAM_BOT_TOKEN = os.environ.get("TELEGRAM_BOT_TOKEN", "")
TELEGRAM_API_URL = os.environ.get("TELEGRAM_API_URL", "")
TELEGRAM_BOT_NAME = os.environ.get("TELEGRAM_BOT_NAME", "")
# How often an open marker's console checks whether another device has moved its game on.
CONSOLE_POLL_SECONDS = 3
# The public pages (home, boards, wall, leaderboards, rules) a crowd opens at once: a visitor
# who is not signed in gets this process's copy made less than this many seconds ago
# (toolbox/shared_pages.py); 0: each visit renders its own.
SHARED_PAGE_SECONDS = int(os.environ.get("SHARED_PAGE_SECONDS", "1"))

# Content-Security-Policy (django-csp): scripts, styles, images and requests from this site
# only; no inline script anywhere (behaviour lives in static/js/, htmx evaluates nothing, see
# the htmx-config in base.html). The one relaxation: style attributes, which the wall board
# uses to pass its grid size to the CSS (custom properties) — they cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# The overlays and embeds (broadcast/) — and only they — may be framed by other sites: their
# views replace frame-ancestors with this (space-separated origins, e.g.
# "https://club.example https://vk.com"; default: any site).
EMBED_FRAME_ANCESTORS = os.environ.get("EMBED_FRAME_ANCESTORS", "*").split()

# The API (api/): any site may read it from a browser (GET, no cookies); a client gets
# API_RATE_LIMIT requests (django-ninja's throttling, counted in the cache above; with Redis
# across the processes, without it per process; a dead Redis refuses nothing).
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_ALLOW_CREDENTIALS = False
CORS_EXPOSE_HEADERS = ("Retry-After",)
API_RATE_LIMIT = os.environ.get("API_RATE_LIMIT", "120/min")

# Behind a reverse proxy that terminates TLS (nginx, Caddy, …) and sets X-Forwarded-Proto and
# X-Forwarded-For: requests count as HTTPS (absolute URLs such as the boards' QR codes say
# https://), and login throttling sees the visitor's address rather than the proxy's.
BEHIND_TLS_PROXY = env_flag("BEHIND_TLS_PROXY")
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    AXES_IPWARE_PROXY_COUNT = 1
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
# The API's rate limit counts a client by his address: the proxy's X-Forwarded-For behind one,
# else the connection's own (a header sent by the client himself is never believed).
NINJA_NUM_PROXIES = 1 if BEHIND_TLS_PROXY else 0

# Plain-HTTP requests are redirected to HTTPS (except /healthz, for a load balancer's probes).
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

if not DEBUG:
    SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES", default=True)
    # HSTS: browsers keep to HTTPS for this long. On by default with secure cookies (the site is
    # served over HTTPS then); one hour to start with, raise it (e.g. 31536000, a year) once
    # HTTPS is known to work.
    SECURE_HSTS_SECONDS = int(
        os.environ.get("SECURE_HSTS_SECONDS", "3600" if SESSION_COOKIE_SECURE else "0")
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    # Preloading (SECURE_HSTS_PRELOAD=1) is a separate decision: it also needs the domain submitted
    # to the browsers' preload list, and cannot be undone quickly. Not asking is no weakness.
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD")
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    CSRF_TRUSTED_ORIGINS = [
        origin.strip()
        for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
        if origin.strip()
    ]

# Every log line goes to stderr (gunicorn and systemd collect it) with the request's path and
# user id; an unhandled exception is logged with its traceback by ``django.request``, also when
# DEBUG is off. LOG_LEVEL sets the threshold (default INFO).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_context": {"()": "clubsite.logs.RequestContextFilter"},
        "dropped_stream": {"()": "live.asgi.DroppedStreamFilter"},
    },
    "formatters": {
        "line": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_path)s user=%(user_id)s] "
            "%(message)s"
        }
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_context"],
            "formatter": "line",
        }
    },
    "root": {"handlers": ["stderr"], "level": os.environ.get("LOG_LEVEL", "INFO").upper()},
    # Django's own handlers (console in DEBUG only, e-mail to ADMINS) are replaced by the root's.
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "uvicorn.error": {"filters": ["dropped_stream"]},  # a slow screen dropped: a warning
    },
}

# Optional error reporting: with SENTRY_DSN set, unhandled exceptions also go to Sentry (or a
# compatible service). Off by default; no personal data is sent.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        send_default_pii=False,
        traces_sample_rate=0,
    )
