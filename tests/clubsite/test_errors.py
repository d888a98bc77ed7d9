"""With DEBUG off an unhandled exception is logged to stderr with its traceback, path and user;
a request Django will not read is the 400 page."""

import io
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def stderr_log():
    """What the configured stderr handler writes during the test."""
    handler = next(h for h in logging.getLogger().handlers if getattr(h, "name", None) == "stderr")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


@pytest.fixture
def failing_site(settings, client):
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.clubsite.urls_raising"
    client.raise_request_exception = False
    return client


def test_an_unhandled_exception_is_logged_with_traceback_path_and_user(
    failing_site, marker_user, stderr_log
):
    failing_site.force_login(marker_user)
    response = failing_site.get("/boom/?x=1")
    assert response.status_code == 500
    logged = stderr_log.getvalue()
    assert "ERROR django.request" in logged
    assert f"[GET /boom/ user={marker_user.pk}]" in logged
    assert "Traceback (most recent call last)" in logged
    assert "RuntimeError: the marker's tap broke something" in logged


def test_a_visitor_s_error_is_logged_without_a_user(failing_site, db, stderr_log):
    assert failing_site.post("/boom/").status_code == 500
    assert "[POST /boom/ user=-]" in stderr_log.getvalue()


def test_a_403_is_logged_as_one_line_not_a_traceback(client, marker_user, stderr_log):
    """A marker opening the cash desk: Django logged «Forbidden (Permission denied)» with the
    whole traceback of the PermissionDenied it answered."""
    client.force_login(marker_user)
    assert client.get("/billing/desk/").status_code == 403
    logged = stderr_log.getvalue()
    assert f"WARNING django.request [GET /billing/desk/ user={marker_user.pk}] Forbidden" in logged
    assert "Traceback" not in logged and "PermissionDenied" not in logged


def test_other_log_lines_written_during_a_request_name_it_too(client, admin_user, stderr_log):
    client.force_login(admin_user)
    from clubsite import logs

    seen = []

    class Spy(logging.Handler):
        def emit(self, record):
            seen.append((record.request_path, record.user_id))

    spy = Spy()
    spy.addFilter(logs.RequestContextFilter())
    logging.getLogger("games").addHandler(spy)
    try:
        # A log line outside any request:
        logging.getLogger("games").warning("outside")
        request = client.get("/").wsgi_request
        token = logs._current_request.set(request)
        logging.getLogger("games").warning("inside")
        logs._current_request.reset(token)
    finally:
        logging.getLogger("games").removeHandler(spy)
    assert seen == [("-", "-"), ("GET /", str(admin_user.pk))]


def _settings_in_a_subprocess(code, **env):
    environment = {k: v for k, v in os.environ.items() if k != "SENTRY_DSN"}
    environment.update(env)
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env={**environment, "DJANGO_SETTINGS_MODULE": "clubsite.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_sentry_reporting_is_off_by_default_and_on_with_a_dsn():
    code = "import sentry_sdk; c = sentry_sdk.get_client(); print(c.is_active(), c.dsn)"
    assert _settings_in_a_subprocess(code) == "False None"
    dsn = "http://public@127.0.0.1:9/1"
    assert _settings_in_a_subprocess(code, SENTRY_DSN=dsn) == f"True {dsn}"


TOO_MANY = "&".join(f"p{n}=1" for n in range(1001))


def test_a_request_django_will_not_read_is_the_400_page(client, settings, db):
    """A query of too many parameters, a Host not allowed: the site's 400 page (they were a
    500: Django's 400 handler rendered the page before any middleware had set the user)."""
    settings.DEBUG = False
    for answer in (
        client.get("/?x=%00"),
        client.get(f"/tournaments/?{TOO_MANY}"),
        client.get("/", HTTP_HOST="evil.example"),
    ):
        assert answer.status_code == 400
        assert answer["Content-Type"].startswith("text/html")
        assert "Неверный запрос" in answer.content.decode()
