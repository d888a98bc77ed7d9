"""The season's competitions in the Django admin: series, ladders and team leagues as the
other apps' models are there — each role's permissions (``toolbox.roles``), the club's wall
(another club's rows are not listed and not found), the settings changed by whoever may
change them on the desk's pages, the history looked at, never changed."""

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from clubs.current import using_club
from ladder import services as ladder_services
from ladder.models import Ladder, LadderMove
from leagues.models import Division, League
from season.models import Series
from tests.factories import PlayerFactory, UserFactory
from toolbox.roles import ADMINS, CASHIERS, MARKERS, NETWORK_ADMINS, PLAYERS, ensure_roles

pytestmark = pytest.mark.django_db

SEASON_APPS = ("season", "ladder", "leagues")


def held(group_name, app=None):
    """The 'app.codename' permissions of a role's group (of ``app`` only, if given)."""
    ensure_roles()
    group = Group.objects.get(name=group_name)
    perms = group.permissions.select_related("content_type")
    return {
        f"{p.content_type.app_label}.{p.codename}"
        for p in perms
        if app is None or p.content_type.app_label == app
    }


def test_the_club_admins_hold_the_seasons_permissions_and_nobody_else_does():
    admins = held(ADMINS)
    assert {
        "season.add_series",
        "season.change_series",
        "season.view_series",
        "season.view_stage",
        "ladder.change_ladder",
        "ladder.view_laddermove",
        "ladder.view_challenge",
        "leagues.change_league",
        "leagues.change_division",
        "leagues.view_matchday",
        "leagues.view_team",
    } <= admins
    # The history changes through the services only; the line-ups are nobody's to read.
    for app in SEASON_APPS:
        for perm in held(ADMINS, app):
            model = perm.split("_", 1)[1]
            if model in (
                "laddermove",
                "challenge",
                "notice",
                "season",
                "team",
                "matchday",
                "matchdaygame",
                "stage",
            ):
                assert perm.split(".")[1].startswith("view_"), perm
    assert not any(perm.endswith("_lineup") for perm in admins)
    assert "ladder.delete_ladder" not in admins and "leagues.delete_league" not in admins
    for role in (MARKERS, CASHIERS, PLAYERS):
        for app in SEASON_APPS:
            assert held(role, app) == set(), (role, app)
    # The network's admins: the network's series and leagues; no club's ladder, no new series.
    network = held(NETWORK_ADMINS)
    assert {"season.change_series", "leagues.change_league"} <= network
    assert "season.add_series" not in network and held(NETWORK_ADMINS, "ladder") == set()


@pytest.fixture
def two_clubs(home_and_sokol):
    """Each club with a series, a ladder (with a move) and a league of its own; Сокол's are
    named «Сокольский …»; and the network's series."""
    home, other = home_and_sokol
    for club, name in ((home, "Домашний"), (other, "Сокольский")):
        with using_club(club):
            Series.objects.create(name=f"{name} кубок", season="2026", club=club)
            ladder = Ladder.objects.create(name=f"{name} лестница", variant="pyramid_free")
            ladder_services.join(ladder=ladder, player=PlayerFactory(full_name=f"{name} игрок"))
            league = League.objects.create(name=f"{name} лига")
            Division.objects.create(league=league, name=f"{name} дивизион")
    Series.objects.create(name="Сетевой кубок", season="2026", club=None)
    return home, other


def staff_client(username, *roles, club, host="testserver", is_staff=True):
    with using_club(club):
        user = UserFactory(username=username, is_staff=is_staff, groups=list(roles))
    client = Client(HTTP_HOST=host)
    client.force_login(user)
    return client


PAGES = {
    "/admin/season/series/": Series,
    "/admin/ladder/ladder/": Ladder,
    "/admin/ladder/laddermove/": LadderMove,
    "/admin/leagues/league/": League,
}


def test_another_clubs_rows_are_neither_listed_nor_found(two_clubs):
    home, other = two_clubs
    client = staff_client("home-admin", ADMINS, club=home)
    for page in (*PAGES, "/admin/"):
        response = client.get(page)
        assert response.status_code == 200, page
        assert "Сокольский" not in response.text, page
    listed = client.get("/admin/season/series/").text
    assert "Домашний кубок" in listed and "Сетевой кубок" in listed
    assert "Домашний лестница" in client.get("/admin/ladder/ladder/").text
    with using_club(other):
        theirs = {
            page: (Series.objects.filter(club=other) if model is Series else model.objects).get().pk
            for page, model in PAGES.items()
        }
    for page, pk in theirs.items():
        response = client.get(f"{page}{pk}/change/")
        assert response.status_code == 302, page  # «does not exist»: back to the admin
        assert "Сокольский" not in client.get(response["Location"]).text
    # Сокол's own admin sees Сокол's, at Сокол's address.
    sokol = staff_client("sokol-admin", ADMINS, club=other, host="sokol.example")
    assert "Сокольский кубок" in sokol.get("/admin/season/series/").text
    assert "Домашний" not in sokol.get("/admin/ladder/ladder/").text


def test_the_markers_and_cashiers_see_none_of_it(two_clubs):
    home, _other = two_clubs
    for username, role in (("m", MARKERS), ("c", CASHIERS)):
        client = staff_client(username, role, club=home)
        for page in PAGES:
            assert client.get(page).status_code == 403, (role, page)


def test_a_clubs_admin_changes_his_series_through_the_desks_form_not_the_networks(two_clubs):
    home, _other = two_clubs
    client = staff_client("home-admin", ADMINS, club=home)
    mine = Series.objects.get(name="Домашний кубок")
    form = {
        "name": "Домашний кубок",
        "season": "2026/27",
        "per_month": "2",
        "best_months": "3",
        "tie_break_1": "best_place",
        "tie_break_2": "rating",
        "tie_break_3": "",
        "tie_break_4": "",
        "final_size": "8",
        "norms_text": "1: 1-2",
        "stages-TOTAL_FORMS": "0",
        "stages-INITIAL_FORMS": "0",
    }
    response = client.post(f"/admin/season/series/{mine.pk}/change/", form)
    assert response.status_code == 302, response.text
    mine.refresh_from_db()
    assert (mine.season, mine.per_month, mine.best_months) == ("2026/27", 2, 3)
    assert mine.chain == ["points", "best_place", "rating"]
    assert mine.norms == [{"class": "1", "places": [1, 2]}]
    assert mine.club == home
    # The desk's checks hold here too: the best months need the results a month.
    refused = client.post(f"/admin/season/series/{mine.pk}/change/", form | {"per_month": ""})
    assert refused.status_code == 200 and "сколько результатов месяца идёт в зачёт" in refused.text
    # A new one is the club's.
    added = client.post("/admin/season/series/add/", form | {"name": "Весенний кубок"})
    assert added.status_code == 302
    assert Series.objects.get(name="Весенний кубок").club == home
    # The network's series is looked at, not changed, by a club's admin.
    network = Series.objects.get(name="Сетевой кубок")
    page = client.get(f"/admin/season/series/{network.pk}/change/")
    assert page.status_code == 200 and 'name="name"' not in page.text
    assert client.post(f"/admin/season/series/{network.pk}/change/", form).status_code == 403
    network.refresh_from_db()
    assert network.season == "2026"


def test_the_networks_admin_changes_the_networks_series_only(two_clubs):
    home, _other = two_clubs
    client = staff_client("net-admin", NETWORK_ADMINS, club=home)
    network = Series.objects.get(name="Сетевой кубок")
    mine = Series.objects.get(name="Домашний кубок")
    assert 'name="name"' in client.get(f"/admin/season/series/{network.pk}/change/").text
    page = client.get(f"/admin/season/series/{mine.pk}/change/")
    assert page.status_code == 200 and 'name="name"' not in page.text
    assert client.get("/admin/season/series/add/").status_code == 403
    assert client.get("/admin/ladder/ladder/").status_code == 403


def test_a_ladders_moves_are_looked_at_never_changed(two_clubs):
    home, _other = two_clubs
    root = Client()
    root.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    with using_club(home):
        move = LadderMove.objects.get()
        ladder = move.ladder
    page = root.get(f"/admin/ladder/laddermove/{move.pk}/change/")
    assert page.status_code == 200 and "Домашний игрок" in page.text
    assert root.post(f"/admin/ladder/laddermove/{move.pk}/change/", {}).status_code == 403
    assert (
        root.post(f"/admin/ladder/laddermove/{move.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert (
        root.post(f"/admin/ladder/ladder/{ladder.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert root.get("/admin/leagues/lineup/").status_code == 404  # a captain's draft is his
