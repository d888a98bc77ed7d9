"""Settings come from the environment: each case loads clubsite/settings.py afresh."""

import importlib.util
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "clubsite" / "settings.py"
VARIABLES = [
    "DATABASE_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "REDIS_URL",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "BEHIND_TLS_PROXY",
    "DB_CONNECT_TIMEOUT",
    "SENTRY_DSN",
]


def load_settings(monkeypatch, **env):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_under_test", SETTINGS_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_default_database_is_sqlite_in_the_project_dir(monkeypatch):
    settings = load_settings(monkeypatch)
    database = settings.DATABASES["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(database["NAME"]) == SETTINGS_FILE.parent.parent / "db.sqlite3"


def test_postgres_url_uses_the_postgresql_backend(monkeypatch):
    settings = load_settings(
        monkeypatch, DATABASE_URL="postgres://club:s3cret@db.example:6543/luza_prod"
    )
    database = settings.DATABASES["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "luza_prod",
        "club",
        "s3cret",
    )
    assert (database["HOST"], database["PORT"]) == ("db.example", 6543)


def test_psycopg_3_is_the_driver():
    import psycopg

    assert psycopg.__version__.startswith("3.")


def test_debug_defaults_on_with_a_development_key_and_local_hosts(monkeypatch):
    settings = load_settings(monkeypatch)
    assert settings.DEBUG is True
    assert settings.SECRET_KEY
    assert "127.0.0.1" in settings.ALLOWED_HOSTS and "localhost" in settings.ALLOWED_HOSTS


def test_production_needs_a_secret_key(monkeypatch):
    with pytest.raises(ImproperlyConfigured):
        load_settings(monkeypatch, DEBUG="0")


def test_production_reads_key_hosts_and_origins(monkeypatch):
    settings = load_settings(
        monkeypatch,
        DEBUG="false",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="club.example, www.club.example ,",
        CSRF_TRUSTED_ORIGINS="https://club.example",
    )
    assert settings.DEBUG is False
    assert settings.SECRET_KEY == "x" * 50
    assert settings.ALLOWED_HOSTS == ["club.example", "www.club.example"]
    assert settings.CSRF_TRUSTED_ORIGINS == ["https://club.example"]
    assert settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE
    assert "Manifest" in settings.STORAGES["staticfiles"]["BACKEND"]


def test_production_without_hosts_allows_none(monkeypatch):
    settings = load_settings(monkeypatch, DEBUG="0", SECRET_KEY="x" * 50)
    assert settings.ALLOWED_HOSTS == []


def test_whitenoise_serves_static_files(monkeypatch):
    settings = load_settings(monkeypatch)
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in settings.MIDDLEWARE
    assert settings.MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") == 1


def test_russian_is_the_default_language(monkeypatch):
    settings = load_settings(monkeypatch)
    assert settings.LANGUAGE_CODE == "ru"
    assert [code for code, _name in settings.LANGUAGES] == ["ru", "en"]


def test_each_process_caches_in_memory_unless_redis_is_named(monkeypatch):
    assert not hasattr(load_settings(monkeypatch), "CACHES")  # Django's default: in memory
    settings = load_settings(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/3")
    cache = settings.CACHES["default"]
    assert cache["BACKEND"] == "toolbox.cache.ResilientRedisCache"
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/3"


def test_postgresql_connections_time_out(monkeypatch):
    settings = load_settings(monkeypatch, DATABASE_URL="postgres://club@db.example/luza")
    assert settings.DATABASES["default"]["OPTIONS"]["connect_timeout"] == 5
    settings = load_settings(
        monkeypatch, DATABASE_URL="postgres://club@db.example/luza", DB_CONNECT_TIMEOUT="2"
    )
    assert settings.DATABASES["default"]["OPTIONS"]["connect_timeout"] == 2


def test_hsts_is_on_by_default_with_secure_cookies_only(monkeypatch):
    production = {"DEBUG": "0", "SECRET_KEY": "k" * 50}
    assert load_settings(monkeypatch, **production).SECURE_HSTS_SECONDS == 3600
    lan = load_settings(monkeypatch, SECURE_COOKIES="0", **production)
    assert lan.SECURE_HSTS_SECONDS == 0 and lan.SESSION_COOKIE_SECURE is False
    assert not hasattr(lan, "SECURE_PROXY_SSL_HEADER")
    proxied = load_settings(monkeypatch, BEHIND_TLS_PROXY="1", **production)
    assert proxied.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
