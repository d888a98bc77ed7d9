"""Under load it degrades, never breaks (issue 27 item 1): each server process keeps a pool of
database connections; a request that cannot get one in time — or that PostgreSQL refuses
("too many clients") — is answered 503 with Retry-After and a page that needs no database,
never a 500. ``bench/burst.py`` measures a burst of 500 against the production recipe."""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError, connection

from tables.models import Table
from tests.bench.helpers import ROOT
from tests.clubsite.test_errors import failing_site, stderr_log  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def test_a_view_without_a_connection_answers_503_with_retry_after(failing_site, stderr_log):  # noqa: F811
    response = failing_site.get("/busy/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    html = response.content.decode()
    assert 'http-equiv="refresh" content="5"' in html  # it tries again by itself
    assert "Слишком много людей сразу: ничего не изменилось." in html  # Russian by default
    assert "WARNING clubsite.middleware" in stderr_log.getvalue()
    assert "ERROR" not in stderr_log.getvalue()


def test_the_busy_page_needs_no_database(failing_site, django_assert_num_queries):  # noqa: F811
    with django_assert_num_queries(0):
        assert failing_site.get("/busy/").status_code == 503


def test_a_failure_after_the_view_is_a_503_too(failing_site, monkeypatch):  # noqa: F811
    """The session saved as the response goes finds no connection: 503, not 500."""

    def no_connection(self, must_create=False):
        raise OperationalError("sorry, too many clients already")

    monkeypatch.setattr(SessionStore, "save", no_connection)
    response = failing_site.get("/remember/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"


def test_a_lost_race_for_a_constraint_is_a_409_with_its_message(failing_site):  # noqa: F811
    """Caught by no view: the constraint's own message (here a unique field's), in the page
    and in the header htmx's banner shows; nothing was written."""
    response = failing_site.get("/duplicate/")
    assert response.status_code == 409
    assert "Стол с таким номером уже есть." in response.content.decode()
    assert "%D0%A1%D1%82%D0%BE%D0%BB" in response["X-Refusal"]  # «Стол», quoted
    assert not Table.objects.exists()


def test_any_other_error_is_still_a_500(failing_site):  # noqa: F811
    assert failing_site.get("/boom/").status_code == 500


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_server_whose_database_refuses_more_clients_answers_503(live_database_role):
    """A real server (uvicorn, the pool on) whose every connection PostgreSQL refuses (its
    role may hold one, and the test holds it): 503 with Retry-After; once the connection is
    let go, the same page answers 200."""
    url, hold = live_database_role
    port = 18427
    env = dict(os.environ, DATABASE_URL=url, DB_POOL_SIZE="2", DB_POOL_TIMEOUT="0.5")
    env.update(DEBUG="1")  # its static files as they are (no collectstatic in a clean clone)
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "clubsite.asgi:application", "--port", str(port),
         "--lifespan", "off", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        held = hold()
        assert status(port, "/", wait=20) == (503, "5")  # its tables: a query
        held.close()
        # The pool connects again by itself (after its back-off): the same page answers 200.
        deadline = time.monotonic() + 15
        while status(port, "/")[0] != 200:
            assert time.monotonic() < deadline, "still refused 15 s after the connection was let go"
            time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=10)


def status(port, path, wait=0):
    """(status, Retry-After) of a GET, waiting up to ``wait`` s for the server to listen."""
    deadline = time.monotonic() + wait
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
                return answer.status, answer.headers.get("Retry-After")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Retry-After")
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture
def live_database_role():
    """A PostgreSQL role allowed one connection to the test database, and a way to take it."""
    import psycopg

    name = connection.settings_dict["NAME"]
    role = "luza_one_connection"
    with connection.cursor() as cursor:
        cursor.execute(f"DROP ROLE IF EXISTS {role}")
        cursor.execute(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 1")
        cursor.execute(f'GRANT ALL ON DATABASE "{name}" TO {role}')
        cursor.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
    url = f"postgres://{role}@127.0.0.1:5432/{name}"
    yield url, lambda: psycopg.connect(url)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [role]
        )
        cursor.execute(f"REASSIGN OWNED BY {role} TO CURRENT_USER")
        cursor.execute(f"DROP OWNED BY {role}")
        cursor.execute(f"DROP ROLE {role}")
