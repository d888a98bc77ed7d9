"""The API's OpenAPI schema is served and browsable, and every field it can answer with is
on the allow-list below: nothing private (phones, e-mails, notes, bills, staff, users) is
reachable. A field added to ``api/schemas.py`` fails this test until it is listed here."""

import pytest
from django.contrib.staticfiles import finders

from api.urls import api

# Every object of the schema and its fields: what the public pages already show.
ALLOWED = {
    "Error": {"detail"},
    "ValidationProblem": {"detail", "errors"},
    "Figure": {"label", "value"},
    "ClubRef": {"slug", "name", "city", "time_zone", "url"},
    "Club": {
        "slug", "name", "city", "time_zone", "url", "address", "hosts", "tables", "live_games",
    },
    "LiveSeat": {"position", "name", "score", "to_play", "winner", "role"},
    "TournamentRef": {"id", "name"},
    "TournamentAtClub": {"id", "name", "club"},
    "MatchOdds": {
        "frame", "race", "race_now", "fair_head_start", "fair_receiver", "fair_probability",
        "provisional",
    },
    "LiveMatch": {"id", "race_to", "frame", "frames", "finished", "tournament", "odds"},
    "LiveGame": {
        "id", "variant", "variant_name", "status", "finished", "last_seq", "target",
        "score_caption", "seats", "key_figure", "last_event", "handicap", "result", "disputed",
        "match",
    },
    "Table": {"number", "name", "kind", "kind_name", "status", "status_name", "club"},
    "TableLive": {
        "number", "name", "kind", "kind_name", "status", "status_name", "club", "fingerprint",
        "live",
    },
    "Seat": {"position", "name", "player_id", "score", "outcome"},
    "Game": {
        "id", "variant", "variant_name", "table", "status", "started_at", "finished_at",
        "match_id", "seats", "club",
    },
    "Result": {"winners", "draw"},
    "State": {"scores", "to_play", "finished", "figures"},
    "Event": {
        "seq", "kind", "fouls", "ball", "pocket", "count", "balls", "recorded_at", "tapped_at",
        "description", "undone", "state",
    },
    "GameDetail": {
        "id", "variant", "variant_name", "table", "status", "started_at", "finished_at",
        "match_id", "seats", "club", "settings", "result", "events", "replay_error",
    },
    "Player": {"id", "name", "full_name", "nickname", "skill_class", "skill_class_name"},
    "RecordFigure": {"key", "label", "value"},
    "Record": {
        "variant", "variant_name", "games", "wins", "losses", "draws", "win_percentage",
        "figures",
    },
    "PlayerRating": {"family", "family_name", "rating", "deviation", "provisional", "games"},
    "Performance": {
        "performance", "error", "games", "results", "score", "rating_before", "deviation_before",
    },
    "PlayerPerformance": {
        "performance", "error", "games", "results", "score", "rating_before", "deviation_before",
        "family", "family_name", "month", "tournament",
    },
    "PlayerDetail": {
        "id", "name", "full_name", "nickname", "skill_class", "skill_class_name", "records",
        "ratings", "performances",
    },
    "RatingFamily": {"family", "family_name", "variants"},
    "RatingRow": {"rank", "player_id", "name", "rating", "deviation", "provisional", "games"},
    "Tournament": {
        "id", "name", "date", "variant", "variant_name", "format", "format_name", "status",
        "status_name", "club",
    },
    "Entrant": {"seed", "name", "player_id", "withdrawn", "performance"},
    "TournamentMatch": {
        "key", "number", "stage", "bracket", "round", "status", "seed_a", "seed_b", "name_a",
        "name_b", "score_a", "score_b", "winner", "result_kind", "table", "match_id",
        "started_at", "finished_at",
    },
    "Standing": {
        "rank", "seed", "name", "played", "wins", "losses", "frames_won", "frames_lost",
        "frame_difference",
    },
    "Group": {"number", "standings"},
    "Place": {"place", "seed", "name", "performance"},
    "TournamentDetail": {
        "id", "name", "date", "variant", "variant_name", "format", "format_name", "status",
        "status_name", "club", "rules", "entrants", "matches", "groups", "places", "champion",
    },
    "Frame": {"number", "game_id", "breaker", "status", "winner"},
    "Series": {"id", "name", "season", "club", "finished", "final_size", "stage_count"},
    "SeriesStage": {"number", "tournament", "points_table", "value", "finished", "is_final"},
    "SeriesResult": {"stage", "points", "counted"},
    "SeriesLine": {
        "place", "player_id", "name", "points", "finalist", "wildcard", "results",
        "final_place",
    },
    "SeriesDetail": {
        "id", "name", "season", "club", "finished", "final_size", "stage_count", "best_n",
        "per_month", "best_months", "tie_breaks", "wildcards", "stages", "standings",
    },
    "Match": {
        "id", "variant", "variant_name", "name_a", "name_b", "player_a_id", "player_b_id",
        "race_to", "head_start_a", "head_start_b", "status", "score_a", "score_b", "winner",
        "result_kind", "table", "tournament", "club", "started_at", "finished_at", "frames",
        "odds",
    },
    # Team leagues: the standings and the fixtures, never a line-up before both are locked.
    "League": {"id", "name", "variant", "variant_name", "club"},
    "LeagueStanding": {
        "place", "team", "played", "won", "drawn", "lost", "frames_won", "frames_lost", "points",
    },
    "LeagueDivision": {"name", "standings"},
    "LeagueFixture": {
        "round", "date", "division", "home", "away", "status", "home_frames", "away_frames",
        "forfeit_by", "club", "games",
    },
    "LeagueGame": {
        "order", "race_to", "doubles", "home", "away", "home_frames", "away_frames", "status",
    },
    "LeagueDetail": {
        "id", "name", "variant", "variant_name", "club", "season", "points", "frame_points",
        "tie_breaks", "divisions", "fixtures",
    },
    **{
        page: {"count", "limit", "offset", "items"}
        for page in ("ClubPage", "TablePage", "GamePage", "PlayerPage", "RatingPage",
                     "TournamentPage", "SeriesPage", "LeaguePage")
    },
}  # fmt: skip
PRIVATE = ("phone", "email", "mail", "note", "bill", "payment", "staff", "user", "marker",
           "password", "session", "tariff", "recorded_by", "cashier", "booking")  # fmt: skip


def walk(node, path="#"):
    """Every object schema of ``node`` (nested, in components or inline) as (where, name of
    the component or None, its property names)."""
    if isinstance(node, dict):
        if "properties" in node:
            yield path, node.get("title"), set(node["properties"])
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}/{index}")


def unlisted(schema):
    """What the schema answers with beyond the allow-list: ["where: field", …]."""
    found = []
    components = schema.get("components", {}).get("schemas", {})
    for name, component in components.items():
        for where, _title, fields in walk(component, f"#/components/schemas/{name}"):
            allowed = ALLOWED.get(name if where.count("/") == 3 else "", set())
            found += [f"{where}: {field}" for field in sorted(fields - allowed)]
    for where, _title, fields in walk(schema.get("paths", {}), "#/paths"):
        if "/responses/" in where:
            found += [f"{where}: {field}" for field in sorted(fields)]  # no inline object
    return found


def private_words(schema):
    names = set()
    for _where, _title, fields in walk(schema):
        names |= fields
    names |= set(schema.get("components", {}).get("schemas", {}))
    return sorted(n for n in names if any(word in n.lower() for word in PRIVATE))


def test_every_field_the_api_answers_with_is_on_the_allow_list():
    schema = api.get_openapi_schema()
    assert unlisted(schema) == []
    assert private_words(schema) == []
    # and the allow-list is the schema, not a wider list of what might be
    assert set(schema["components"]["schemas"]) == set(ALLOWED)


def test_the_walk_finds_a_private_field_slipped_in():
    schema = api.get_openapi_schema()
    player = schema["components"]["schemas"]["Player"]
    player["properties"]["phone"] = {"type": "string"}
    assert unlisted(schema) == ["#/components/schemas/Player: phone"]
    assert private_words(schema) == ["phone"]
    inline = {"200": {"content": {"application/json": {"schema": {"properties": {"x": {}}}}}}}
    schema["paths"]["/api/v1/tables/"]["get"]["responses"] = inline
    assert "#/paths/" in unlisted(schema)[-1]


def test_every_operation_is_a_get_under_v1():
    schema = api.get_openapi_schema()
    for path, operations in schema["paths"].items():
        assert path.startswith("/api/v1/")
        assert set(operations) == {"get"}, path


@pytest.mark.django_db
def test_the_schema_is_served_and_browsable_from_the_sites_own_files(client):
    served = client.get("/api/v1/openapi.json")
    assert served.status_code == 200
    assert served.json()["info"]["version"] == "1"
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html and "cdn" not in html.lower()
    assert finders.find("ninja/swagger-ui-bundle.js")  # (WhiteNoise serves it)
