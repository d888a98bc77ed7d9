"""Fuzzes the API from its own OpenAPI schema (schemathesis) on the demo club, with every
check schemathesis has, as ``schemathesis run --checks all`` does:

- each operation, with requests generated from the schema — its examples, the coverage
  phase's boundary and invalid values, then fuzzed ones, valid and invalid: no 5xx, every
  answer as the schema says (status, content type, headers, body), invalid data refused and
  valid data accepted, unsupported methods refused with ``Allow``;
- stateful: scenarios that follow the schema's links from answer to answer (a game's seat to
  its player, a tournament to its first match…) with the same checks at every step.

Bounded: ``EXAMPLES`` generated requests per operation and ``SCENARIOS`` scenarios of at
most ``STEPS`` steps, about 30 s in all on SQLite. The live feed (``…/stream/``, an endless
Server-Sent Events response) is left to ``test_api.py``: a generated request would wait on
it for as long as it lasts.
"""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS
from schemathesis.config import SchemathesisConfig

from clubs.current import default_club, using_club

EXAMPLES = 50
SCENARIOS = 100
STEPS = 8

# Every built-in check on, whatever schemathesis's defaults become.
CONFIG = SchemathesisConfig.from_dict({"checks": {"enabled": True}})

# Loaded as the tests are collected, with no database yet: for the club of the settings.
with using_club(default_club()):
    schema = schemathesis.openapi.from_wsgi(
        "/api/v1/openapi.json", get_wsgi_application(), config=CONFIG
    ).exclude(path_regex=r"/stream/$")

HYPOTHESIS = {
    "deadline": None,
    "derandomize": True,
    "suppress_health_check": list(HealthCheck),
}


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


def test_every_check_is_on():
    checks = CONFIG.projects.default.checks
    names = [name for name in CHECKS.get_all_names() if name != "max_response_time"]
    assert len(names) >= 14
    assert all(checks.get_by_name(name=name).enabled for name in names), names


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, **HYPOTHESIS)
def test_the_api_keeps_to_its_schema(case, demo_club):
    case.call_and_validate()


@pytest.mark.django_db
def test_its_links_lead_from_answer_to_answer(demo_club):
    """Each step's values come from the links of the answer before it: an id a link names
    must be found (a link to ``/players/None/`` was a 400 for schema-valid data)."""
    workflow = schema.as_state_machine()
    workflow.run(settings=settings(max_examples=SCENARIOS, stateful_step_count=STEPS, **HYPOTHESIS))
