"""The leagues' pages: public reads, the desk's roles, the captains' forms — and a line-up
that neither the other captain nor the public sees before both are locked."""

import re

import pytest
from django.contrib.auth.models import Group

from leagues import services
from leagues.models import League, MatchDay, MatchDayStatus, Team
from tests.factories import PlayerFactory, UserFactory
from tests.me.conftest import account
from toolbox.roles import PLAYERS, ensure_roles

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(season):
    services.generate_fixtures(season=season)
    day = MatchDay.objects.filter(season=season).order_by("date", "pk").first()
    account(day.home.captain, "home")
    account(day.away.captain, "away")
    return day


def signed_in(client, player):
    client.force_login(player.user)
    return client


def lock_post(client, day, team, *numbers):
    members = {p.full_name: p.pk for p in team.members.all()}
    data = {f"lu-player_{i}": members[f"{team.name} {n}"] for i, n in enumerate(numbers, 1)}
    return client.post(f"/leagues/match-days/{day.pk}/line-up/", data)


def test_the_public_pages(client, day):
    league = day.season.league
    for url in (
        "/leagues/",
        f"/leagues/{league.pk}/",
        f"/leagues/match-days/{day.pk}/",
        f"/leagues/match-days/{day.pk}/board/",
        f"/embed/leagues/{league.pk}/",
    ):
        assert client.get(url).status_code == 200, url
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert day.home.name in page and "/embed/leagues/" in page
    assert client.get("/leagues/99999/").status_code == 404


def test_the_embed_may_be_framed_the_standings_not(client, day):
    league = day.season.league
    framed = client.get(f"/embed/leagues/{league.pk}/")
    assert "frame-ancestors *" in framed["Content-Security-Policy"]
    assert "X-Frame-Options" not in framed
    page = client.get(f"/leagues/{league.pk}/")
    assert page["X-Frame-Options"] == "DENY"


def test_a_line_up_is_seen_by_nobody_else_until_both_are_locked(client, day):
    # Not the captain ("… 1", named on the page as captain): the two others.
    home_names = [f"{day.home.name} 2", f"{day.home.name} 3"]
    answer = lock_post(signed_in(client, day.home.captain), day, day.home, 2, 3)
    assert answer.status_code == 302
    own = client.get(f"/leagues/match-days/{day.pk}/").content.decode()
    assert all(name in own for name in home_names)  # his own, for himself
    # The other captain (his members' names are on his own form) and the public do not.
    signed_in(client, day.away.captain)
    other = client.get(f"/leagues/match-days/{day.pk}/").content.decode()
    assert f"{day.home.name} 2" not in other
    assert "data-hidden" in other
    client.logout()
    for url in (f"/leagues/match-days/{day.pk}/", f"/leagues/match-days/{day.pk}/board/"):
        public = client.get(url).content.decode()
        assert not any(name in public for name in home_names), url
    api = client.get(f"/api/v1/leagues/{day.season.league_id}/").content.decode()
    assert f"{day.home.name} 2" not in api
    # The away captain locks: both revealed at once, to everyone.
    lock_post(signed_in(client, day.away.captain), day, day.away, 2, 3)
    client.logout()
    public = client.get(f"/leagues/match-days/{day.pk}/").content.decode()
    assert all(name in public for name in home_names + [f"{day.away.name} 3"])


def test_the_cap_refusal_shows_the_numbers(client, day):
    strong = day.home.members.get(full_name=f"{day.home.name} 1")
    strong.skill_class = "ms"
    strong.save()
    answer = lock_post(signed_in(client, day.home.captain), day, day.home, 1, 2)
    assert answer.status_code == 400
    error = re.search(r"<p [^>]*data-error>(.*?)</p>", answer.content.decode()).group(1)
    assert re.search(r"\b8 &gt; \D*\b6\b", error), error
    assert not day.line_ups.filter(locked_at__isnull=False).exists()


def test_only_a_captain_of_the_day_posts_its_forms(client, day):
    stranger = PlayerFactory(full_name="Посторонний Игрок")
    account(stranger, "stranger")
    signed_in(client, stranger)
    assert lock_post(client, day, day.home, 1, 2).status_code == 403
    assert client.post(f"/leagues/match-days/{day.pk}/date/accept/").status_code == 403
    client.logout()
    answer = client.post(f"/leagues/match-days/{day.pk}/line-up/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    # A captain's bad input: 400, nothing changed.
    signed_in(client, day.home.captain)
    assert (
        client.post(f"/leagues/match-days/{day.pk}/line-up/", {"lu-player_1": "x"}).status_code
        == 400
    )
    answer = client.post(f"/leagues/match-days/{day.pk}/date/", {"date-date": "вчера"})
    assert answer.status_code == 400
    assert client.post(f"/leagues/match-days/{day.pk}/date/accept/").status_code == 400


def test_the_desk_pages_need_the_tournament_role(client, admin_user, season):
    league = season.league
    desk = [
        ("get", "/leagues/new/"),
        ("get", f"/leagues/{league.pk}/manage/"),
        ("post", f"/leagues/{league.pk}/fixtures/"),
    ]
    for method, url in desk:
        answer = getattr(client, method)(url)
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"], url
    ensure_roles()
    player_user = UserFactory(username="just-a-player")
    player_user.groups.add(Group.objects.get(name=PLAYERS))
    client.force_login(player_user)
    for method, url in desk:
        assert getattr(client, method)(url).status_code == 403, url
    client.force_login(admin_user)
    assert client.get(f"/leagues/{league.pk}/manage/").status_code == 200


def test_the_desk_creates_a_league_its_season_and_teams_and_the_fixtures(admin_client):
    players = [PlayerFactory(full_name=f"Игрок {n}") for n in range(4)]
    answer = admin_client.post(
        "/leagues/new/",
        {
            "name": "Лига вторников",
            "variant": "pyramid_free",
            "win_points": 3,
            "draw_points": 1,
            "loss_points": 0,
            "frame_points": 0,
            "forfeit_penalty": 1,
            "cap_kind": "none",
            "cap_limit": 0,
            "starts_at": "19:30",
            "hours": 3,
            "table_kind": "",
            "games": 3,
            "race_to": 2,
            "tie_break_chain": ["points", "frames_won"],
            "divisions": "Высшая\nПервая",
        },
    )
    league = League.objects.get(name="Лига вторников")
    assert answer.status_code == 302
    assert league.format == [{"race_to": 2}] * 3
    assert league.tie_breaks == ["points", "frames_won"]
    assert [d.name for d in league.divisions.order_by("pk")] == ["Высшая", "Первая"]
    answer = admin_client.post(
        f"/leagues/{league.pk}/seasons/",
        {"season-name": "Весна", "season-starts_on": "2027-03-01", "season-weekday": "1",
         "season-holiday_list": "2027-03-09"},
    )  # fmt: skip
    assert answer.status_code == 302
    division = league.divisions.get(name="Высшая")
    for index, name in enumerate(("Красные", "Синие")):
        captain, mate = players[2 * index], players[2 * index + 1]
        answer = admin_client.post(
            f"/leagues/{league.pk}/teams/",
            {"team-name": name, "team-division": division.pk, "team-captain": captain.pk,
             "team-members": [mate.pk]},
        )  # fmt: skip
        assert answer.status_code == 302
    assert set(Team.objects.get(name="Красные").members.all()) == {players[0], players[1]}
    assert admin_client.post(f"/leagues/{league.pk}/fixtures/").status_code == 302
    day = MatchDay.objects.get()
    assert str(day.date) == "2027-03-02"
    assert admin_client.post(f"/leagues/{league.pk}/fixtures/").status_code == 400
    bad = admin_client.post(
        f"/leagues/{league.pk}/seasons/", {"season-name": "X", "season-starts_on": "завтра"}
    )
    assert bad.status_code == 400
    answer = admin_client.post(f"/leagues/match-days/{day.pk}/forfeit/{day.away_id}/")
    assert answer.status_code == 302
    day.refresh_from_db()
    assert day.status == MatchDayStatus.FORFEITED


def test_the_api(client, day):
    services.forfeit(match_day=day, team=day.away)
    league = day.season.league
    items = client.get("/api/v1/leagues/").json()["items"]
    assert [item["name"] for item in items] == [league.name]
    detail = client.get(f"/api/v1/leagues/{league.pk}/").json()
    assert detail["points"] == [2, 1, 0]
    standings = detail["divisions"][0]["standings"]
    assert standings[0]["team"] == day.home.name and standings[0]["points"] == 2
    assert standings[-1]["team"] == day.away.name and standings[-1]["points"] == -1
    forfeited = [f for f in detail["fixtures"] if f["forfeit_by"]]
    assert {f.pop("club")["slug"] for f in detail["fixtures"]} == {day.club.slug}
    assert forfeited == [
        {"round": 1, "date": str(day.date), "division": day.division.name,
         "home": day.home.name, "away": day.away.name, "status": "forfeited",
         "home_frames": 2, "away_frames": 0, "forfeit_by": day.away.name, "games": []}
    ]  # fmt: skip
    assert client.get("/api/v1/leagues/99999/").status_code == 404


def test_me_shows_the_captains_match_days(client, day):
    answer = signed_in(client, day.home.captain).get("/me/")
    page = answer.content.decode()
    assert f'href="/leagues/match-days/{day.pk}/"' in page
    assert "data-league" in page


# --- doubles, drafts, the standings' TV board, the captains' news ---------------------------


@pytest.fixture
def pairs_day(doubles_season):
    services.generate_fixtures(season=doubles_season)
    day = MatchDay.objects.filter(season=doubles_season).order_by("date", "pk").first()
    account(day.home.captain, "home")
    account(day.away.captain, "away")
    return day


def line_up_data(team, *numbers):
    """The form's fields: 2 → a singles game's player, (1, 3) → a doubles game's pair."""
    members = {p.full_name: p.pk for p in team.members.all()}
    data = {}
    for order, n in enumerate(numbers, 1):
        first, partner = n if isinstance(n, tuple) else (n, None)
        data[f"lu-player_{order}"] = members[f"{team.name} {first}"] if first else ""
        if partner is not None:
            data[f"lu-partner_{order}"] = members[f"{team.name} {partner}"]
    return data


def test_a_draft_is_saved_with_its_cap_said_hidden_from_the_others_then_locked(client, pairs_day):
    day = pairs_day
    url = f"/leagues/match-days/{day.pk}/"
    signed_in(client, day.home.captain)
    form = client.get(url).content.decode()
    assert 'name="lu-partner_3"' in form and "data-save-draft" in form
    answer = client.post(
        f"{url}line-up/draft/", line_up_data(day.home, 2, None, (2, 3)), follow=True
    )
    page = answer.content.decode()
    assert "Черновик сохранён, не зафиксирован: сумма 4 при лимите 6." in page, page
    assert "data-draft-line-up" in page
    # The draft's choices are the form's again.
    chosen = re.search(r'<select name="lu-partner_3"[^>]*>.*?</select>', page, re.S).group(0)
    home_3 = day.home.members.get(full_name=f"{day.home.name} 3").pk
    assert f'<option value="{home_3}" selected>' in chosen
    # Nobody else sees it, nor that it is there.
    signed_in(client, day.away.captain)
    other = client.get(url).content.decode()
    assert f"{day.home.name} 2" not in other and "Состава пока нет." in other
    client.logout()
    assert f"{day.home.name} 3" not in client.get(f"{url}board/").content.decode()
    # Over the cap: saved all the same, the numbers said; the lock refuses it.
    strong = day.home.members.get(full_name=f"{day.home.name} 3")
    strong.skill_class = "ms"
    strong.save()
    signed_in(client, day.home.captain)
    answer = client.post(f"{url}line-up/draft/", line_up_data(day.home, 1, 3, (1, 2)), follow=True)
    assert "сумма 10 больше лимита 6" in answer.content.decode()
    assert client.post(f"{url}line-up/", line_up_data(day.home, 1, 3, (1, 2))).status_code == 400
    # Bad input: 400, the draft as it was.
    bad = line_up_data(day.home, 1, 2, (1, 2)) | {"lu-partner_3": "x"}
    assert client.post(f"{url}line-up/draft/", bad).status_code == 400
    same = client.post(f"{url}line-up/draft/", line_up_data(day.home, 1, 2, (2, 2)))
    assert same.status_code == 400 and "Пара — это два разных игрока." in same.content.decode()
    assert day.line_ups.get().cap_total == 10
    assert client.post(f"{url}line-up/", line_up_data(day.home, 1, 2, (1, 2))).status_code == 302
    assert day.line_ups.get().locked_at is not None


def test_a_doubles_game_shows_both_names_of_each_pair_everywhere(client, pairs_day):
    day = pairs_day
    url = f"/leagues/match-days/{day.pk}/"
    signed_in(client, day.home.captain)
    assert client.post(f"{url}line-up/", line_up_data(day.home, 1, 2, (2, 3))).status_code == 302
    signed_in(client, day.away.captain)
    assert client.post(f"{url}line-up/", line_up_data(day.away, 3, 1, (1, 2))).status_code == 302
    home_pair = f"{day.home.name} 2 / {day.home.name} 3"
    away_pair = f"{day.away.name} 1 / {day.away.name} 2"
    client.logout()
    for page in (url, f"{url}board/"):
        text = client.get(page).content.decode()
        assert home_pair in text and away_pair in text, page
    # The home captain scores it (its form names both pairs), the away captain confirms it.
    signed_in(client, day.home.captain)
    pair = day.games.get(order=3)
    row = re.search(
        r'<tr class="[^"]*is-doubles"[^>]*>.*?</tr>', client.get(url).content.decode(), re.S
    )
    assert home_pair in row.group(0) and "score" in row.group(0)
    client.post(f"{url}games/{pair.pk}/score/", {"home_frames": "1", "away_frames": "0"})
    signed_in(client, day.away.captain)
    row = re.search(
        r'<tr class="[^"]*is-doubles"[^>]*>.*?</tr>', client.get(url).content.decode(), re.S
    )
    assert away_pair in row.group(0) and "data-confirm-game" in row.group(0)
    assert client.post(f"{url}games/{pair.pk}/confirm/").status_code == 302
    fixture = next(
        f
        for f in client.get(f"/api/v1/leagues/{day.season.league_id}/").json()["fixtures"]
        if f["games"]
    )
    assert fixture["games"][2] == {
        "order": 3, "race_to": 1, "doubles": True,
        "home": [f"{day.home.name} 2", f"{day.home.name} 3"],
        "away": [f"{day.away.name} 1", f"{day.away.name} 2"],
        "home_frames": 1, "away_frames": 0, "status": "confirmed",
    }  # fmt: skip
    assert fixture["games"][0]["home"] == [f"{day.home.name} 1"]


def test_the_desk_creates_a_league_with_doubles_games(admin_client):
    data = {
        "name": "Лига пар", "variant": "pyramid_free", "win_points": 2, "draw_points": 1,
        "loss_points": 0, "frame_points": 0, "forfeit_penalty": 1, "cap_kind": "none",
        "cap_limit": 0, "starts_at": "19:00", "hours": 3, "table_kind": "", "games": 4,
        "doubles": 1, "race_to": 3, "tie_break_chain": ["points"], "divisions": "A",
    }  # fmt: skip
    assert admin_client.post("/leagues/new/", data).status_code == 302
    league = League.objects.get(name="Лига пар")
    assert league.format == [{"race_to": 3}] * 4 + [{"race_to": 3, "doubles": True}]
    assert admin_client.post("/leagues/new/", data | {"games": 9}).status_code == 400


def test_the_standings_tv_board(client, day):
    league = day.season.league
    services.forfeit(match_day=day, team=day.away)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert f'href="/leagues/{league.pk}/board/"' in page
    answer = client.get(f"/leagues/{league.pk}/board/")
    board = answer.content.decode()
    assert answer.status_code == 200 and 'hx-trigger="every 15s"' in board
    assert day.home.name in board and "неявка" in board  # the last result
    teams = re.findall(r'<tr data-team="([^"]+)"', board)
    assert teams[0] == day.home.name and len(teams) == 4
    upcoming = re.search(r"<ul [^>]*data-next>(.*?)</ul>", board, re.S).group(1)
    assert upcoming.count("<li") == 5  # the five other match days, the soonest first
    partial = client.get(f"/leagues/{league.pk}/board/", headers={"HX-Request": "true"})
    assert partial.content.decode().lstrip().startswith('<section id="league-board"')
    assert client.get("/leagues/99999/board/").status_code == 404
    assert f"/leagues/{league.pk}/board/" in client.get("/overlay/").content.decode()


def test_me_shows_the_captains_news_and_his_line_up(client, pairs_day):
    day = pairs_day
    signed_in(client, day.home.captain)
    client.post(
        f"/leagues/match-days/{day.pk}/line-up/draft/", line_up_data(day.home, 1, 2, (1, 3))
    )
    page = client.get("/me/").content.decode()
    assert "Ваш черновик, не зафиксирован:" in page
    assert f"{day.home.name} 1 / {day.home.name} 3" in page
    signed_in(client, day.away.captain)
    client.post(f"/leagues/match-days/{day.pk}/line-up/", line_up_data(day.away, 1, 2, (1, 2)))
    signed_in(client, day.home.captain)
    page = client.get("/me/").content.decode()
    assert 'data-notice="locked"' in page
    assert f"«{day.away.name}» — состав зафиксирован. Зафиксируйте свой." in page
    assert f"{day.home.name} 3" in page  # his draft is his to see
