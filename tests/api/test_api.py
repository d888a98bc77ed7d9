"""The API answers what the public pages show, pages its lists, refuses bad input with a
translated 400 or 404 (never a 500), is open to other sites for GET only, limits each
client's rate in the cache (and keeps answering with Redis down), and feeds a table's live
game as Server-Sent Events in JSON."""

import json
import re

import pytest
from django.core.cache import cache
from django.test import override_settings

from clubsite.asgi import feed_for_path
from tests.factories import PlayerFactory, TableFactory, ev, record, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(table, marker_user):
    sokol = PlayerFactory(full_name="Иван Соколов", nickname="Сокол", phone="+7 912 345-67-89",
                          email="sokol@example.com", notes="долг 500 ₽")  # fmt: skip
    game = start(table, "pyramid_free", [sokol, "Гость Борис"], marker_user)
    return record(game, marker_user, ev("pot", count=2), ev("stroke"))


def test_a_table_and_its_live_game(client, game):
    answer = client.get("/api/v1/tables/3/", HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 200
    table = answer.json()
    assert table["number"] == 3 and table["status"] == "in_play"
    live = table["live"]
    assert live["id"] == game.pk and live["variant"] == "pyramid_free"
    assert [seat["name"] for seat in live["seats"]] == ["Сокол", "Гость Борис"]
    assert [seat["score"] for seat in live["seats"]] == [2, 0]
    assert [seat["to_play"] for seat in live["seats"]] == [False, True]
    assert live["key_figure"]["label"] == "Шаров на столе"
    assert live["last_event"].startswith("Сокол")
    listed = client.get("/api/v1/tables/").json()
    assert listed["count"] == 1 and listed["items"][0]["status_name"] == "Идёт игра"


def test_a_game_with_every_event_and_the_state_after_it(client, game):
    detail = client.get(f"/api/v1/games/{game.pk}/").json()
    assert [e["kind"] for e in detail["events"]] == ["pot", "stroke"]
    assert detail["events"][0]["count"] == 2
    assert detail["events"][0]["state"]["scores"] == [2, 0]
    assert detail["events"][1]["state"]["to_play"] == 2
    assert detail["seats"][0]["player_id"] is not None
    page = client.get("/api/v1/games/?status=in_progress&table=3&limit=1").json()
    assert page["count"] == 1 and page["items"][0]["id"] == game.pk
    assert client.get("/api/v1/games/?status=finished").json()["count"] == 0


def test_nothing_private_of_a_player_is_answered(client, game):
    sokol = game.seats.get(position=0).player
    for url in ("/api/v1/players/", f"/api/v1/players/{sokol.pk}/", f"/api/v1/games/{game.pk}/",
                "/api/v1/tables/3/"):  # fmt: skip
        body = client.get(url).content.decode()
        # The phone, the e-mail and the notes, in any spelling (a time's microseconds may
        # hold "912" or "500": whole words only).
        assert not re.search(r"912\D*345|example\.com|долг|\b500\s*₽", body), url
        assert "marker" not in body, url
    assert client.get(f"/api/v1/players/{sokol.pk}/").json()["full_name"] == "Иван Соколов"


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/tables/40000/",
        "/api/v1/tables/0/",
        "/api/v1/games/abc/",
        "/api/v1/games/99999999999999999999/",
        "/api/v1/games/?limit=0",
        "/api/v1/games/?limit=101",
        "/api/v1/games/?offset=-1",
        "/api/v1/games/?offset=99999999999999999999",
        "/api/v1/games/?variant=snooker",
        "/api/v1/ratings/chess/",
    ],
)
def test_bad_input_is_a_translated_400(client, url):
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "Неверный параметр запроса."


def test_what_does_not_exist_is_a_translated_404(client, table):
    for url in ("/api/v1/tables/7/", "/api/v1/games/5/", "/api/v1/players/5/",
                "/api/v1/tournaments/5/", "/api/v1/matches/5/",
                "/api/v1/tables/7/stream/"):  # fmt: skip
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
        assert answer.status_code == 404, url
        assert answer.json() == {"detail": "Не найдено."}
    assert client.get("/api/v1/games/5/", HTTP_ACCEPT_LANGUAGE="en").json()["detail"] == (
        "Not found."
    )


def test_any_site_may_read_it_with_get_only(client, table):
    answer = client.get("/api/v1/tables/", HTTP_ORIGIN="https://club-fans.example")
    assert answer["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in answer
    preflight = client.options(
        "/api/v1/tables/",
        HTTP_ORIGIN="https://club-fans.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
    )
    assert "POST" not in preflight["Access-Control-Allow-Methods"]
    assert client.post("/api/v1/tables/").status_code == 405
    assert client.delete("/api/v1/tables/3/").status_code == 405
    # The site's own pages are not opened to other sites.
    page = client.get("/tournaments/", HTTP_ORIGIN="https://club-fans.example")
    assert "Access-Control-Allow-Origin" not in page


@override_settings(API_RATE_LIMIT="3/min")
def test_each_client_has_a_rate_limit(client, table):
    cache.clear()
    for _ in range(3):
        assert client.get("/api/v1/tables/").status_code == 200
    refused = client.get("/api/v1/tables/", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 429
    assert refused.json()["detail"] == "Слишком много запросов: подождите немного и повторите."
    assert int(refused["Retry-After"]) >= 1
    # A forged X-Forwarded-For is not another client; another address is.
    forged = client.get("/api/v1/tables/", HTTP_X_FORWARDED_FOR="10.9.8.7")
    assert forged.status_code == 429
    assert client.get("/api/v1/tables/", REMOTE_ADDR="127.0.0.2").status_code == 200


@override_settings(
    API_RATE_LIMIT="3/min",
    CACHES={
        "default": {
            "BACKEND": "toolbox.cache.ResilientRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there: Redis is down
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    },
)
def test_with_redis_down_the_api_keeps_answering(client, game):
    for _ in range(5):  # the limit cannot be counted: nobody is refused
        assert client.get("/api/v1/tables/3/").status_code == 200


def sse_messages(response, count):
    chunks = iter(response.streaming_content)
    found = []
    while len(found) < count:
        chunk = next(chunks).decode()
        if chunk.startswith("id:"):
            found.append(chunk)
    return found


def test_the_live_feed_is_server_sent_events_in_json(client, game):
    response = client.get(
        "/api/v1/tables/3/stream/", HTTP_ORIGIN="https://x.example", HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Access-Control-Allow-Origin"] == "*"
    (message,) = sse_messages(response, 1)
    lines = dict(line.split(": ", 1) for line in message.strip().split("\n"))
    assert lines["id"] == f"{game.pk}.2.p" and lines["event"] == "table"
    live = json.loads(lines["data"])
    assert live["id"] == game.pk and live["seats"][0]["name"] == "Сокол"
    # Under uvicorn the same feed is served beside Django, with the same header.
    feed = feed_for_path("/api/v1/tables/3/stream/")
    assert ("Access-Control-Allow-Origin", "*") in feed.headers
    assert json.loads(feed.snapshot()[1])["id"] == game.pk


def test_tournaments_with_their_matches_and_standings(client, demo_club):
    page = client.get("/api/v1/tournaments/").json()
    assert page["count"] >= 2
    for item in page["items"]:
        detail = client.get(f"/api/v1/tournaments/{item['id']}/").json()
        assert detail["entrants"] and detail["matches"]
        played = [m for m in detail["matches"] if m["match_id"]]
        match = client.get(f"/api/v1/matches/{played[0]['match_id']}/").json()
        assert match["frames"] and match["tournament"]["id"] == item["id"]
    robin = [i for i in page["items"] if i["format"] == "round_robin"]
    if robin:
        detail = client.get(f"/api/v1/tournaments/{robin[0]['id']}/").json()
        assert detail["groups"][0]["standings"][0]["rank"] == 1


def test_a_match_and_its_live_game_carry_its_odds_before_and_now(client, db, monkeypatch):
    """Issue 33 item 2: the API's odds of a match — player A's in the match, seat 1's in the
    live game (the frames' order) — equal the race of the two skills, and move with a frame."""
    from records import glicko, odds
    from tests.helpers import fixed_skills
    from tournaments import selectors as tournament_selectors
    from tournaments import services as tournament_services
    from tournaments.simulate import play_frame

    skills = fixed_skills(monkeypatch)
    table = TableFactory(number=91)  # a table of its own (the demo club's may be in play)
    strong, newcomer = PlayerFactory(full_name="Сильный"), PlayerFactory(full_name="Новичок")
    skills[strong.pk] = glicko.Skill(1700, 60, games=80)
    p = glicko.win_probability(skills[strong.pk], glicko.start("novice"))
    match = tournament_services.start_match(
        table=table, variant="clockwise", a=strong, b=newcomer, race_to=3, marker=None,
        head_start_b=1,
    )  # fmt: skip
    found = client.get(f"/api/v1/matches/{match.pk}/").json()["odds"]
    fair = odds.fair_race(p, 3)
    assert found == {
        "frame": round(p, 4),
        "race": round(odds.race(p, 3, 2), 4),
        "race_now": round(odds.race(p, 3, 2), 4),
        "fair_head_start": fair.head_start,
        "fair_receiver": 2,
        "fair_probability": round(fair.probability, 4),
        "provisional": [False, True],
    }
    live = client.get(f"/api/v1/tables/{table.number}/").json()["live"]["match"]["odds"]
    assert live == found  # A breaks the first frame: seat 1 is A

    frame = tournament_selectors.current_frame(match)
    game = play_frame(frame.game, 0)  # A wins it: 1 : 1 (B's head start), B breaks next
    tournament_services.finish_frame_and_continue(
        game=game, expected_seq=game.last_seq, marker=None
    )
    found = client.get(f"/api/v1/matches/{match.pk}/").json()["odds"]
    assert found["race_now"] == round(odds.race(p, 2, 2), 4)
    assert found["race"] == round(odds.race(p, 3, 2), 4)  # before it: as it was
    live = client.get(f"/api/v1/tables/{table.number}/").json()["live"]["match"]
    assert live["frames"] == [1, 1]
    assert live["odds"]["race_now"] == round(1 - odds.race(p, 2, 2), 4)  # B in seat 1 now
    assert live["odds"]["provisional"] == [True, False]
    assert live["odds"]["fair_receiver"] == 1
