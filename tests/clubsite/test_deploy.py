"""Deployment settings: check --deploy is clean with the production settings of
docs/operations.md, Content-Security-Policy on every page, HTTPS behind a TLS proxy, a
database that hangs."""

import os
import re
import secrets
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import OperationalError
from django.db.backends.postgresql.base import DatabaseWrapper

from boards.views import qr_svg
from tests.factories import TableFactory

ROOT = Path(__file__).resolve().parents[2]


def documented_production_env():
    """The variables the production recipe (docs/operations.md) exports, with its
    placeholders filled."""
    recipe = (ROOT / "docs" / "operations.md").read_text()
    section = recipe.split("## Production", 1)[1]
    script = re.search(r"```sh\n(.*?)```", section, re.S).group(1).replace("\\\n", " ")
    line = next(line for line in script.splitlines() if line.startswith("export "))
    env = dict(word.split("=", 1) for word in shlex.split(line)[1:])
    env["SECRET_KEY"] = secrets.token_urlsafe(50)  # docs/operations.md: "a long random string"
    return {name: value.replace("…", "secret") for name, value in env.items()}


def check_deploy(env):
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "PYTHONPATH"}}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**keep, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_documented_recipe_sets_what_production_needs():
    env = documented_production_env()
    assert env["DEBUG"] == "0"
    assert {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "BEHIND_TLS_PROXY"} <= set(env)


def test_check_deploy_is_clean_with_the_documented_production_settings():
    result = check_deploy(documented_production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_would_complain_without_them():
    env = documented_production_env()
    del env["SECURE_SSL_REDIRECT"]
    result = check_deploy({**env, "SECURE_HSTS_SECONDS": "0"})
    assert result.returncode != 0
    assert "security.W008" in result.stderr and "security.W004" in result.stderr


def test_every_page_carries_a_content_security_policy_without_inline_script(client, db):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert "unsafe" not in directives["style-src"]
    assert directives["frame-ancestors"] == "'none'"
    assert "Content-Security-Policy" in client.get("/tables/")  # any page, not just home


def test_no_template_has_inline_script_or_event_handlers():
    offenders = []
    for path in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in path.parts:
            continue
        html = path.read_text()
        for match in re.finditer(r"<script\b[^>]*>", html):
            if "src=" not in match.group(0):
                offenders.append(f"{path}: {match.group(0)}")
        for match in re.finditer(r"\s(on[a-z]+|hx-on[:\w-]*)=", html):
            offenders.append(f"{path}: {match.group(1)}")
    assert offenders == []


def test_behind_a_tls_proxy_the_qr_code_encodes_https(client, db, settings):
    TableFactory(number=3)
    settings.ALLOWED_HOSTS = ["club.example"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # What the proxy forwards of a visitor's https://club.example/tables/3/board/:
    html = client.get(
        "/tables/3/board/", headers={"Host": "club.example", "X-Forwarded-Proto": "https"}
    ).content.decode()
    assert qr_svg("https://club.example/tables/3/board/") in html
    assert qr_svg("http://club.example/tables/3/board/") not in html


def test_hsts_and_ssl_redirect(client, db, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    plain = client.get("/rules/")
    assert plain.status_code == 301 and plain["Location"] == "https://testserver/rules/"
    assert client.get("/healthz").status_code == 200  # a load balancer's probe is not redirected
    secure = client.get("/rules/", headers={"X-Forwarded-Proto": "https"})
    assert secure["Strict-Transport-Security"] == "max-age=3600; includeSubDomains"


def test_a_database_that_never_answers_fails_within_the_connect_timeout(django_db_blocker):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)  # accepts connections, never says a word
    wrapper = DatabaseWrapper(
        {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": "luza",
            "USER": "luza",
            "PASSWORD": "",
            "HOST": "127.0.0.1",
            "PORT": server.getsockname()[1],
            "OPTIONS": {"connect_timeout": 2},
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": False,
            "AUTOCOMMIT": True,
            "ATOMIC_REQUESTS": False,
            "TIME_ZONE": None,
            "TEST": {},
        }
    )
    started = time.monotonic()
    try:
        with django_db_blocker.unblock(), pytest.raises(OperationalError):
            wrapper.ensure_connection()
    finally:
        server.close()
    assert time.monotonic() - started < 10  # not the 30 s+ of the OS's TCP retries


@pytest.mark.parametrize("module", ["clubsite.asgi", "clubsite.wsgi"])
def test_a_worker_leaves_what_start_up_made_out_of_the_garbage_collector_s_passes(module):
    """clubsite/process.py: a worker (uvicorn's, gunicorn's) freezes its start-up's objects
    and collects less often (their full passes stalled the busiest player's page)."""
    code = (
        f"import gc, {module}; "
        "print(gc.get_freeze_count() > 50_000, gc.get_threshold() == (10_000, 50, 100))"
    )
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "PYTHONPATH"}}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**keep, **documented_production_env()},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]
