"""Stream overlays and embeds: what they show, pushed and polled like the boards, their
options from the address, and framing: only the overlay and embed pages may be framed by
other sites; every other page keeps refusing to be."""

import re

import pytest
from django.test import override_settings

from clubsite.asgi import feed_for_path
from tests.factories import PlayerFactory, ev, record, start
from tests.helpers import poll

pytestmark = pytest.mark.django_db

FRAMEABLE = [
    "/tables/3/overlay/",
    "/tables/3/overlay/?position=top-right&size=l&theme=light",
    "/embed/tables/3/",
    "/embed/leaderboards/",
]
NOT_FRAMEABLE = [
    "/",
    "/tables/3/board/",
    "/board/",
    "/overlay/",
    "/leaderboards/",
    "/tournaments/",
    "/api/v1/docs",
    "/accounts/login/",
]


@pytest.fixture
def game(table, marker_user):
    sokol = PlayerFactory(full_name="Иван Соколов", nickname="Сокол")
    game = start(table, "pyramid_free", [sokol, "Борис"], marker_user, weaker_seat=1, head_start=1)
    return record(game, marker_user, ev("pot", count=2))


def test_only_overlays_and_embeds_may_be_framed(client, game):
    for url in FRAMEABLE:
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert "frame-ancestors *" in answer["Content-Security-Policy"], url
        assert "X-Frame-Options" not in answer, url
    for url in NOT_FRAMEABLE:
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert "frame-ancestors 'none'" in answer["Content-Security-Policy"], url
        assert answer["X-Frame-Options"] == "DENY", url


@override_settings(EMBED_FRAME_ANCESTORS=["https://club.example", "https://vk.com"])
def test_the_sites_that_may_frame_them_can_be_named(client, table):
    answer = client.get("/embed/tables/3/")
    assert (
        "frame-ancestors https://club.example https://vk.com" in (answer["Content-Security-Policy"])
    )


def test_the_overlay_shows_the_scoreboard_and_follows_the_game(client, game, marker_user):
    html = client.get("/tables/3/overlay/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'class="overlay-body pos-bottom-left size-m theme-dark"' in html
    assert 'sse-connect="/tables/3/overlay/stream/?fp=' in html and 'sse-swap="overlay"' in html
    for text in ("Сокол", "Борис", "Шаров на столе", "Фора", "Сокол: "):
        assert text in html, text
    assert 'class="lt-last"' in html
    fp = f"{game.pk}.1.p"
    assert poll(client, "/tables/3/overlay/", fp).status_code == 204
    record(game, marker_user, ev("stroke"))
    changed = poll(client, "/tables/3/overlay/", fp)
    assert changed.status_code == 200 and f'data-fp="{game.pk}.2.p"' in changed.content.decode()


def test_a_wrong_option_shows_the_default(client, table):
    html = client.get("/tables/3/overlay/?position=middle&size=xxl&theme=pink").content.decode()
    assert 'class="overlay-body pos-bottom-left size-m theme-dark"' in html
    assert "sse-connect" not in client.get("/tables/3/overlay/?poll=1").content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/tables/4/overlay/",
        "/tables/99999/overlay/",
        "/embed/tables/4/",
        "/tournaments/5/overlay/",
        "/tournaments/99999999999/overlay/",
        "/embed/tournaments/5/bracket/",
        "/tables/4/overlay/stream/",
        "/tournaments/5/overlay/stream/",
    ],
)
def test_what_does_not_exist_is_a_404(client, table, url):
    assert client.get(url).status_code == 404


def test_the_streams_are_served_beside_django_with_the_boards_topics(table):
    assert feed_for_path("/tables/3/overlay/stream/").topic == "table.3"
    assert feed_for_path("/tables/3/overlay/stream/").event == "overlay"
    assert feed_for_path("/tables/3/board/stream/").event == "board"  # the boards' as before


def test_a_tournaments_overlay_follows_the_match_started_last(client, demo_tournament):
    tournament, first, second = demo_tournament
    html = client.get(f"/tournaments/{tournament.pk}/overlay/").content.decode()
    assert f'data-follow="{second.table.number}"' in html
    assert f'data-table="{second.table.number}"' in html and tournament.name in html
    assert second.name_a in html and second.name_b in html
    pinned = client.get(f"/tournaments/{tournament.pk}/overlay/?table={first.table.number}")
    html = pinned.content.decode()
    assert "data-follow" not in html and f'data-table="{first.table.number}"' in html
    stream = f"/tournaments/{tournament.pk}/overlay/tables/{first.table.number}/stream/"
    assert f'sse-connect="{stream}?fp=' in html
    assert feed_for_path(stream).topic == f"table.{first.table.number}"
    follow = feed_for_path(f"/tournaments/{tournament.pk}/overlay/stream/")
    assert follow.topic == f"table.{second.table.number}"
    bracket = client.get(f"/embed/tournaments/{tournament.pk}/bracket/")
    assert bracket.status_code == 200 and "frame-ancestors *" in bracket["Content-Security-Policy"]
    assert feed_for_path(f"/embed/tournaments/{tournament.pk}/bracket/stream/").topic == (
        f"tournament.{tournament.pk}"
    )


def test_the_pages_show_the_embed_code_to_copy(client, demo_tournament):
    tournament = demo_tournament[0]
    html = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'&lt;iframe src="http://testserver/embed/tournaments/{tournament.pk}/bracket/"' in html
    assert "data-copy" in html and "js/embed.js" in html
    board = client.get("/leaderboards/?variant=cork").content.decode()
    assert "http://testserver/embed/leaderboards/?variant=cork" in board
    help_page = client.get(f"/overlay/?tournament={tournament.pk}").content.decode()
    assert f'src="/tournaments/{tournament.pk}/overlay/?position=bottom-left' in help_page
    assert "img/overlay-sample.svg" in help_page


def test_the_overlay_shows_each_players_chances_of_the_match_and_follows_the_frames(
    client, table, monkeypatch
):
    """Issue 33 item 2: beside each seat's frames its chance of the match now (the frame
    score's), a provisional rating marked; a frame won moves them."""
    from records import glicko, odds
    from tests.helpers import fixed_skills
    from tournaments import selectors
    from tournaments import services as tournament_services
    from tournaments.simulate import play_frame

    skills = fixed_skills(monkeypatch)
    sokol, newcomer = PlayerFactory(full_name="Сокол"), PlayerFactory(full_name="Новичок")
    skills[sokol.pk] = glicko.Skill(1650, 60, games=80)
    p = glicko.win_probability(skills[sokol.pk], glicko.start("novice"))
    match = tournament_services.start_match(
        table=table, variant="clockwise", a=sokol, b=newcomer, race_to=3, marker=None
    )
    html = client.get("/tables/3/overlay/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    first = round(odds.race(p, 3, 3) * 100)
    assert re.findall(r'class="lt-odds" data-odds="(\d+)"', html) == [str(first), str(100 - first)]
    assert f">{first}%<" in html and html.count("data-provisional") == 1
    assert ">provisional<" in html
    frame = selectors.current_frame(match)
    game = play_frame(frame.game, 1)  # the newcomer wins: 0 : 1, and breaks next (seat 1)
    tournament_services.finish_frame_and_continue(
        game=game, expected_seq=game.last_seq, marker=None
    )
    html = client.get("/tables/3/overlay/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    now = round((1 - odds.race(p, 3, 2)) * 100)  # the newcomer's, seat 1
    assert re.findall(r'class="lt-odds" data-odds="(\d+)"', html) == [str(now), str(100 - now)]
    assert f">{now}\u00a0%<" in html and ">П<" in html
