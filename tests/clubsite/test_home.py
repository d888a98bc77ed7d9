import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Game, GameStatus
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(db):
    free = TableFactory(number=1, name="Зелёный")
    busy = TableFactory(number=2)
    Game.objects.create(table=busy, variant="cork", status=GameStatus.IN_PROGRESS)
    broken = TableFactory(number=3, out_of_service=True)
    retired = TableFactory(number=4, name="Списанный", is_active=False)
    return free, busy, broken, retired


def test_home_lists_active_tables_with_status_and_board_links(client, tables):
    html = client.get(reverse("home")).content.decode()
    for number in (1, 2, 3):
        assert reverse("games:board", args=[number]) in html
    assert "Списанный" not in html
    assert "Свободен" in html and "Не работает" in html
    assert "status-in_play" in html
    assert reverse("games:wall") in html and reverse("games:rules") in html


@pytest.mark.parametrize(
    "who, sees_marker_pages",
    [(None, False), ("plain_user", False), ("marker_user", True), ("admin_user", True)],
)
def test_marker_links_only_for_staff_who_record(client, tables, who, sees_marker_pages, request):
    if who:
        client.force_login(request.getfixturevalue(who))
    html = client.get(reverse("home")).content.decode()
    assert (reverse("games:table", args=[1]) in html) is sees_marker_pages


def test_roster_links_only_for_admins(client, admin_user, marker_user):
    client.force_login(marker_user)
    assert reverse("players:list") not in client.get(reverse("home")).content.decode()
    client.force_login(admin_user)
    html = client.get(reverse("home")).content.decode()
    assert reverse("players:list") in html and reverse("tables:list") in html


def test_empty_club(client):
    assert "В клубе пока нет столов." in client.get(reverse("home")).content.decode()


# --- log in, log out ------------------------------------------------------------------------


def test_login_page_is_in_the_site_style(client):
    html = client.get(reverse("login")).content.decode()
    assert 'class="site-header"' in html and 'name="username"' in html


def test_log_in_and_out(client, admin_user):
    response = client.post(
        reverse("login"), {"username": "admin-user", "password": "pass-1234", "next": "/players/"}
    )
    assert response["Location"] == "/players/"
    assert client.get(reverse("players:list")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("players:list")).status_code == 302


def test_wrong_password_is_an_error_on_the_login_page(client, admin_user):
    response = client.post(reverse("login"), {"username": "admin-user", "password": "wrong"})
    assert response.status_code == 200
    assert 'class="errors"' in response.content.decode()
    assert "_auth_user_id" not in client.session


# --- languages ------------------------------------------------------------------------------


def test_russian_is_the_default(client):
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="ru">' in html and "Войти" in html


def language_link(html, code):
    """The address of the switch's link to ``code`` in a page."""
    found = re.search(rf'<a href="([^"]+)" hreflang="{code}"', html)
    assert found, f"no link to {code}"
    return unescape(found.group(1))


def test_the_language_switcher_changes_the_language(client):
    html = client.get(reverse("home")).content.decode()
    assert "csrfmiddlewaretoken" not in html  # links, not a form: the page is everyone's
    english = language_link(html, "en")
    assert english == "/?lang=en"
    html = client.get(english).content.decode()
    assert '<html lang="en">' in html and "Log in" in html and "Войти" not in html
    # remembered: the next page is English without asking
    html = client.get(reverse("games:rules")).content.decode()
    assert '<html lang="en">' in html
    client.get(language_link(html, "ru"))
    assert "Войти" in client.get(reverse("home")).content.decode()


def test_the_language_switch_keeps_the_page_and_its_query(client):
    html = client.get(reverse("games:leaderboard") + "?period=month&min_games=5").content.decode()
    link = language_link(html, "en")
    assert link.startswith(reverse("games:leaderboard") + "?")
    assert "period=month" in link and "min_games=5" in link and link.endswith("lang=en")


def test_a_table_in_play_says_which_game_and_who_plays(
    client, db, marker_user, django_assert_max_num_queries
):
    from games import services
    from tests.factories import PlayerFactory

    for number in (1, 2, 3):
        TableFactory(number=number)
    anna = PlayerFactory(full_name="Анна Лебедева", nickname="Аня")
    services.start_game(
        table=TableFactory(number=5),
        variant="clockwise",
        settings={},
        seats=[anna, "Гость Виктор"],
        marker=marker_user,
    )
    # the tables, the games, their seats; the clocks (their stretches only when one runs);
    # the club's billing settings and the next bookings
    with django_assert_max_num_queries(6):
        html = client.get(reverse("home")).content.decode()
    assert "Кладка шаров по часовой стрелке: Аня, Гость Виктор" in html
    assert html.count('class="playing"') == 1


def test_every_page_and_board_has_the_clubs_icon(client, tables):
    """Issue 22 item 7: a favicon. The site's pages and the boards link it; /favicon.ico, which
    some clients ask for without looking, leads to it."""
    for url in (reverse("home"), reverse("games:board", args=[1]), reverse("games:rules")):
        html = client.get(url).content.decode()
        assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in html
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response.url == "/static/img/favicon.svg"
    icon = Path(settings.BASE_DIR, "static", "img", "favicon.svg").read_text()
    assert icon.startswith("<svg") and "viewBox" in icon
