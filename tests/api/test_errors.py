"""The API's errors are the API's (issue 31 item 8): every error answered under ``/api/`` is
JSON in the documented shape, whichever layer of the site answered it — a query string the
site refuses (a NUL character, too many parameters), an address no route knows, a method the
API does not serve, a Host not allowed, a busy database, a server error."""

import pytest
from django.db import OperationalError

from api import selectors

pytestmark = pytest.mark.django_db

TOO_MANY = "&".join(f"p{n}=1" for n in range(1001))


def problem_of(answer, status):
    assert answer.status_code == status
    assert answer["Content-Type"] == "application/json; charset=utf-8"
    return answer.json()


@pytest.mark.parametrize(
    ("query", "line"),
    [
        ("search=%00", "query.search: символ NUL"),
        ("limit=10%00", "query.limit: символ NUL"),
        ("%00=1", "query.\\x00: символ NUL"),
        ("lang=%00", "query.lang: символ NUL"),
        (TOO_MANY, "query: больше 1000 параметров"),
    ],
)
def test_a_query_the_site_refuses_is_the_apis_400(client, query, line):
    """Schemathesis found these five times on ``GET /api/v1/tournaments/?…``: the site's
    HTML 400 page (a NUL), or a 500 (too many parameters), instead of the API's JSON."""
    answer = client.get(f"/api/v1/tournaments/?{query}", HTTP_ACCEPT_LANGUAGE="ru")
    body = problem_of(answer, 400)
    assert body == {"detail": "Неверный параметр запроса.", "errors": [line]}
    assert answer["Content-Language"] == "ru"


def test_its_words_follow_accept_language(client):
    answer = client.get("/api/v1/tournaments/?search=%00", HTTP_ACCEPT_LANGUAGE="en")
    assert problem_of(answer, 400) == {
        "detail": "A parameter of the request is not valid.",
        "errors": ["query.search: a NUL character"],
    }


def test_other_sites_may_read_the_error_too(client):
    answer = client.get("/api/v1/tables/?x=%00", HTTP_ORIGIN="https://club-fans.example")
    problem_of(answer, 400)
    assert answer["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("url", ["/api/v1/nowhere/", "/api/nowhere", "/api/v2/tables/"])
def test_an_address_no_route_knows_is_a_json_404(client, url):
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert problem_of(answer, 404) == {"detail": "Не найдено."}


def test_a_method_the_api_does_not_serve_is_a_json_405(client, table):
    for answer in (client.post("/api/v1/tables/"), client.delete("/api/v1/tables/3/")):
        body = problem_of(answer, 405)
        assert body["detail"].startswith("Метод не поддерживается")
        assert answer["Allow"] == "GET"


def test_a_host_not_allowed_is_a_json_400(client, settings):
    settings.DEBUG = False
    answer = client.get("/api/v1/tables/", HTTP_HOST="evil.example")
    assert problem_of(answer, 400) == {"detail": "Неверный параметр запроса.", "errors": []}


@pytest.fixture
def production(settings, client):
    settings.DEBUG = False
    client.raise_request_exception = False
    return client


def test_a_busy_database_is_a_json_503_with_retry_after(production, monkeypatch):
    def busy():
        raise OperationalError("sorry, too many clients already")

    monkeypatch.setattr(selectors, "tournaments", busy)
    answer = production.get("/api/v1/tournaments/", HTTP_ACCEPT_LANGUAGE="ru")
    assert problem_of(answer, 503)["detail"].startswith("Сервер занят")
    assert answer["Retry-After"] == "5"


def test_a_server_error_is_a_json_500(production, monkeypatch):
    def broken():
        raise RuntimeError("a bug")

    monkeypatch.setattr(selectors, "tournaments", broken)
    answer = production.get("/api/v1/tournaments/", HTTP_ACCEPT_LANGUAGE="en")
    body = problem_of(answer, 500)
    assert body == {"detail": "The server failed to answer; the error is logged."}


def test_what_is_not_an_error_is_left_as_it_is(client, table):
    assert client.get("/api/v1/docs")["Content-Type"].startswith("text/html")  # Swagger UI
    assert client.get("/api/v1/tables")["Location"] == "/api/v1/tables/"  # the slash added
    assert problem_of(client.get("/api/v1/tables/0/"), 400)["errors"]  # ninja's own
