"""/healthz: 200 while the database answers, 503 otherwise (for a supervisor or load balancer)."""

from django.db import OperationalError, connections


def test_healthz_answers_200_with_the_database_reachable(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]


def test_healthz_answers_503_when_the_database_does_not(client, db, monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 port 5432 failed")

    # What a dead server gives: every attempt to reach it fails.
    wrapper = connections["default"]
    with monkeypatch.context() as patch:
        patch.setattr(wrapper, "ensure_connection", refuse)
        patch.setattr(wrapper, "connection", None)
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unavailable\n"
    assert "Health check: the database does not answer" in caplog.text
