"""Fuzzes the API from its own OpenAPI schema (schemathesis) on the demo club: for every
operation, requests generated from the schema — valid and invalid — get no 5xx, and every
answer matches the schema (status code, content type, body, headers). Bounded: a few dozen
examples per operation, the whole module well under a minute.

The live feed (``…/stream/``, an endless Server-Sent Events response) is left to
``test_api.py``: a generated request would wait on it for as long as it lasts.
"""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

EXAMPLES = 25

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application()).exclude(
    path_regex=r"/stream/$"
)


@pytest.fixture(autouse=True)
def no_rate_limit(settings):
    settings.API_RATE_LIMIT = "1000000/min"


@pytest.fixture(autouse=True)
def the_tests_connection_stays():
    """The WSGI application ends each request by closing old connections, as Django's test
    client does not: inside the test's transaction that closes the test's own connection
    (with PostgreSQL's pool, it goes back to the pool). Kept open, as the test client keeps
    it."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_to_its_schema(case, demo_club):
    case.call_and_validate()
