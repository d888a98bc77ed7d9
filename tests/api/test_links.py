"""The schema's links follow only ids that exist (issue 31 item 8): a guest's seat has no
player and a game outside a match has no match, and schemathesis's links inferred over every
item of a list (``seats/*/player_id``) led to ``/api/v1/players/None/`` and
``/api/v1/matches/None/``, answered 400. Now the schema declares its own links, each naming
one id that is either null (not followed) or found."""

import json
from collections import deque

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application

pytestmark = pytest.mark.django_db

OPENAPI = "/api/v1/openapi.json"


@pytest.fixture(scope="module")
def spec(demo_club, django_db_blocker):
    with django_db_blocker.unblock():
        from django.test import Client

        return Client().get(OPENAPI).json()


def operations(spec):
    """operationId -> (path template, the 200 answer's links)."""
    found = {}
    for path, item in spec["paths"].items():
        operation = item["get"]
        found[operation["operationId"]] = (path, operation["responses"]["200"].get("links", {}))
    return found


def resolve(document, pointer):
    """The value a JSON pointer names, None where there is none."""
    for part in pointer.lstrip("/").split("/"):
        if isinstance(document, list) and part.isdigit() and int(part) < len(document):
            document = document[int(part)]
        elif isinstance(document, dict) and part in document:
            document = document[part]
        else:
            return None
    return document


def test_schemathesis_infers_no_link_the_schema_does_not_declare():
    """Every link its dependency analysis would add (over every item of a list, nulls
    included) is one the schema already declares: a new id field needs its link here."""
    schema = schemathesis.openapi.from_wsgi(OPENAPI, get_wsgi_application())
    assert schema.analysis.inject_links() == 0


def test_every_link_leads_to_what_exists(client, spec, settings):
    """From every list and every game, each answer's links are followed (breadth first,
    every operation reached): a link's id is either null — a guest's seat, a game outside a
    match — and not followed, or its target answers 200."""
    settings.API_RATE_LIMIT = "1000000/min"
    ops = operations(spec)
    by_path = {path: links for path, links in ops.values()}
    queue = deque((path, path) for path in by_path if "{" not in path)
    # And every game of the demo club's first hundred: seats of guests, frames of matches.
    games = client.get("/api/v1/games/?limit=100").json()["items"]
    queue.extend(("/api/v1/games/{game_id}/", f"/api/v1/games/{game['id']}/") for game in games)
    seen, followed, nulls, reached = set(), 0, set(), set()
    while queue:
        template, url = queue.popleft()
        if url in seen or url.endswith("/stream/"):
            continue
        seen.add(url)
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.content[:300])
        reached.add(template)
        body = json.loads(answer.content)
        for name, link in by_path[template].items():
            ((parameter, expression),) = link["parameters"].items()
            value = resolve(body, expression.split("#", 1)[1])
            target = ops[link["operationId"]][0]
            if value is None:
                nulls.add(f"{template} {name}")
                continue
            assert isinstance(value, int | str) and str(value), (url, name, value)
            followed += 1
            queue.append((target, target.replace("{" + parameter + "}", str(value))))
    assert reached >= {path for path in by_path if not path.endswith("/stream/")}
    assert followed > 100
    # The demo club has guests and games outside matches: those links were met as null.
    assert "/api/v1/games/{game_id}/ match" in nulls
    assert "/api/v1/games/{game_id}/ player_2" in nulls  # «Гость …» in the second seat
