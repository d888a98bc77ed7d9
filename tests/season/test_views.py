"""The series' pages on the demo club: the public standings, the desk's pages and their
role checks, the embed, the roll of honour."""

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client, override_settings

from clubs.current import forget_clubs
from clubs.models import Club
from players.models import Player
from season import selectors
from season.models import Series, Stage
from tests.conftest import FAST_HASHERS
from tests.factories import UserFactory
from toolbox.roles import PLAYERS
from tournaments.models import Tournament, TournamentStatus


@pytest.fixture(scope="module")
def demo(demo_club_rows, django_db_blocker):
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),
        transaction.atomic(),
    ):
        demo_club_rows.restore()
        yield
        transaction.set_rollback(True)


@pytest.fixture
def series(demo, db):
    return Series.objects.get(name="Кубок сезона")


def client_of(username):
    client = Client()
    if username:
        client.force_login(User.objects.get(username=username))
    return client


def test_the_demo_series_shows_its_standings(series):
    response = client_of(None).get(f"/series/{series.pk}/")
    assert response.status_code == 200
    table = response.context["table"]
    finished = [info for info in table.stages if info.finished]
    assert finished and table.lines
    # The champion of the finished stage leads with the championship's 100 points, scaled by
    # the stage's value.
    first = finished[0]
    champion = next(pid for pid, place in first.places.items() if place == (1, 1))
    assert table.lines[0].player_id == champion
    assert table.lines[0].total == round(100 * first.value, 2)
    body = response.content.decode()
    assert "final-line" in body and "Кубок клуба" in body


def test_the_list_board_embed_and_honours_answer(series):
    client = client_of(None)
    for url in ("/series/", "/series/honours/", f"/series/{series.pk}/board/"):
        assert client.get(url).status_code == 200
    embed = client.get(f"/embed/series/{series.pk}/")
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed.headers
    # An ordinary page may not be framed.
    assert client.get(f"/series/{series.pk}/").headers.get("X-Frame-Options")


def test_a_finished_series_is_on_the_roll_of_honour(series):
    series.finished = True
    series.save()
    response = client_of(None).get("/series/honours/")
    assert response.status_code == 200
    assert [s for s, _top in response.context["honours"]] == [series]
    assert response.context["honours"][0][1][0].name in response.content.decode()


@pytest.mark.parametrize(
    ("username", "status"), [(None, 302), ("marker", 403), ("cashier", 403), ("admin", 200)]
)
def test_only_the_clubs_admins_edit_its_series(series, username, status):
    client = client_of(username)
    assert client.get(f"/series/{series.pk}/edit/").status_code == status
    before = series.stages.count()
    response = client.post(f"/series/{series.pk}/stages/{series.stages.first().pk}/remove/")
    assert response.status_code == (status if status != 200 else 302)
    assert series.stages.count() == before - (username == "admin")


def test_the_admin_makes_a_series_with_its_rules(series):
    client = client_of("admin")
    response = client.post(
        "/series/new/",
        {
            "name": "Осенний кубок",
            "season": "2026",
            "best_n": "3",
            "final_size": "8",
            "tie_break_1": "head_to_head",
            "tie_break_2": "rating",
            "norms_text": "КМС: 7-16\n1: 1-6\nms: 1-1",  # as the desk types it, or by code
        },
    )
    assert response.status_code == 302
    made = Series.objects.get(name="Осенний кубок")
    assert made.chain == ["points", "head_to_head", "rating"]
    assert made.norms == [
        {"class": "cms", "places": [7, 16]},
        {"class": "1", "places": [1, 6]},
        {"class": "ms", "places": [1, 1]},
    ]
    edit = client.get(f"/series/{made.pk}/edit/").content.decode()
    assert "КМС: 7-16\n1: 1-6\nМС: 1-1" in edit  # shown as typed, not as its codes
    assert made.club_id == Club.objects.order_by("pk").first().pk
    tournament = Tournament.objects.filter(status=TournamentStatus.FINISHED).first()
    response = client.post(
        f"/series/{made.pk}/stages/",
        {"tournament": tournament.pk, "number": "1", "table": "custom", "points_text": "25, 18"},
    )
    assert response.status_code == 302
    stage = made.stages.get()
    assert stage.custom_points == [25, 18] and stage.tournament == tournament
    assert (7, 16, "cms") in selectors.norms_for_tournament(tournament)
    # The same tournament twice, a bad norm: a clear 400, nothing changed.
    again = client.post(
        f"/series/{made.pk}/stages/", {"tournament": tournament.pk, "number": "2", "table": "club"}
    )
    assert again.status_code == 400 and made.stages.count() == 1
    bad = client.post(
        f"/series/{made.pk}/edit/",
        {"name": "Осенний кубок", "season": "2026", "final_size": "8", "norms_text": "cms 7"},
    )
    assert bad.status_code == 400
    assert "«КМС: 7-16»" in bad.content.decode()
    made.refresh_from_db()
    assert made.norms[0]["class"] == "cms"


def test_a_network_series_is_edited_by_the_networks_admins_only(series):
    network = Series.objects.create(name="Кубок сети", season="2026", club=None)
    admin = client_of("admin")
    assert admin.get(f"/series/{network.pk}/edit/").status_code == 403
    netadmin = Client()
    netadmin.force_login(UserFactory(username="net", groups=["Network admins"]))
    assert netadmin.get(f"/series/{network.pk}/edit/").status_code == 200
    assert client_of(None).get(f"/series/{network.pk}/").status_code == 200


def test_another_clubs_series_is_not_found_here(series, settings):
    settings.ALLOWED_HOSTS = ["testserver", "sokol.example"]
    home = Club.objects.order_by("pk").first()
    home.hosts = ["testserver"]
    home.save()
    other = Club.objects.create(
        name="Сокол", slug="sokol", hosts=["sokol.example"], time_zone="Asia/Omsk"
    )
    forget_clubs()
    theirs = Series.objects.create(name="Сокольский кубок", season="2026", club=other)
    assert client_of(None).get(f"/series/{theirs.pk}/").status_code == 404
    assert (
        client_of(None).get(f"/series/{theirs.pk}/", HTTP_HOST="sokol.example").status_code == 200
    )
    assert client_of(None).get(f"/series/{series.pk}/").status_code == 200
    assert client_of("admin").get(f"/series/{theirs.pk}/edit/").status_code == 404
    assert client_of(None).get(f"/embed/series/{theirs.pk}/").status_code == 404
    forget_clubs()


def test_a_stage_of_a_series_names_the_norms_of_its_places(series):
    stage = Stage.objects.filter(series=series).first()
    assert selectors.norms_for_tournament(stage.tournament) == [(1, 2, "1"), (3, 4, "2")]


def test_the_players_page_says_where_he_stands_and_what_he_needs(series):
    table = selectors.table_of(series)
    line = table.lines[-1]  # the last of the table: the final is not his yet
    user = UserFactory(username="last-player", groups=[PLAYERS])
    Player.everywhere.filter(pk=line.player_id).update(user=user)
    client = Client()
    client.force_login(user)
    response = client.get("/me/")
    assert response.status_code == 200
    [(found, mine, outlook)] = response.context["series"]
    assert found == series and mine.player_id == line.player_id
    assert outlook.status in ("open", "out")
    body = response.content.decode()
    assert "data-series" in body and series.name in body
    assert f'data-outlook="{outlook.status}"' in body


def test_a_players_public_page_lists_his_series_with_his_place_and_points(series, settings):
    """players:detail, as anyone sees it: each series he is in (the running first, then the
    finished), his place and points, linked to the series' standings; another club's series
    is not listed here, and a player of none shows no such section."""
    table = selectors.table_of(series)
    line = table.lines[0]
    done = Series.objects.create(
        name="Прошлый кубок", season="2025", club=series.club, finished=True
    )
    for stage in series.stages.all():
        Stage.objects.create(
            series=done, tournament=stage.tournament, number=stage.number, table=stage.table
        )
    other = Club.objects.create(name="Сокол", slug="sokol", hosts=["sokol.example"])
    Series.objects.create(name="Сокольский кубок", season="2026", club=other)
    forget_clubs()
    settings.ALLOWED_HOSTS = ["testserver", "sokol.example"]
    home = Club.objects.order_by("pk").first()
    home.hosts = ["testserver"]
    home.save()
    forget_clubs()
    response = client_of(None).get(f"/players/{line.player_id}/")
    assert response.status_code == 200
    body = response.content.decode()
    section = body[body.index("data-player-series") :]
    section = section[: section.index("</section>")]
    rows = section.split("data-series-id=")[1:]
    assert [row.split('"')[1] for row in rows] == [str(series.pk), str(done.pk)]
    assert f'href="/series/{series.pk}/"' in rows[0] and f'href="/series/{done.pk}/"' in rows[1]
    assert f"<b>{line.place}</b>" in rows[0]
    points = f"{line.total:.2f}".rstrip("0").rstrip(".").replace(".", ",")
    assert f">{points}<" in rows[0]
    assert "завершена" in rows[1] and "Сокольский" not in body
    forget_clubs()

    nobody = Player.objects.create(full_name="Новичок Без Серий")
    assert "data-player-series" not in client_of(None).get(f"/players/{nobody.pk}/").text
