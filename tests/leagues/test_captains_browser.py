"""Two captains on two phones (360×740): each locks his line-up blind, one is refused by the
cap with the numbers shown, both are revealed at once; a game of the match day is scored by
the home captain and confirmed by the away captain. With a doubles game: a draft saved with
its cap, a pair of one player refused, the news on /me/, the pairs revealed, the doubles game
scored and confirmed. The league's standings on the hall's TV (1920×1080)."""

import pytest
from playwright.sync_api import expect

from leagues import services
from leagues.models import GameStatus, MatchDay, MatchDayStatus
from players.models import SkillClass
from tests.conftest import login
from tests.me.conftest import account
from tests.me.test_phones_browser import no_horizontal_scroll, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def member(team, number):
    return team.members.get(full_name=f"{team.name} {number}")


def choose(page, *players):
    """A player per game; a pair (a tuple) for a doubles game."""
    for order, player in enumerate(players, start=1):
        first, partner = player if isinstance(player, tuple) else (player, None)
        page.select_option(f"select[name=lu-player_{order}]", str(first.pk))
        if partner is not None:
            page.select_option(f"select[name=lu-partner_{order}]", str(partner.pk))


def test_two_captains_lock_blind_one_refused_by_the_cap_then_score_and_confirm(
    phone, browser, live_server, season
):
    services.generate_fixtures(season=season)
    day = MatchDay.objects.filter(season=season).order_by("date", "pk").first()
    home, away = day.home, day.away
    account(home.captain, "home")
    account(away.captain, "away")
    star = member(away, 2)
    star.skill_class = SkillClass.MASTER  # 6 class points: with anybody, over the cap of 6
    star.save()
    his, hers = phone(), phone()
    login(his, live_server, "home")
    login(hers, live_server, "away")

    # The home captain finds the match day on his page and locks his line-up.
    his.goto(f"{live_server.url}/me/")
    his.click(f'[data-match-day="{day.pk}"] a')
    his.wait_for_url(f"**/leagues/match-days/{day.pk}/")
    choose(his, member(home, 2), member(home, 3))
    no_horizontal_scroll(his)
    screenshot(his, "league-line-up")
    his.click("[data-lock]")
    his.wait_for_selector(f'[data-side="{home.name}"] [data-line-up]')
    assert member(home, 3).full_name in his.locator(f'[data-side="{home.name}"]').inner_text()

    # The away captain sees that it is locked, not who is in it.
    hers.goto(f"{live_server.url}/leagues/match-days/{day.pk}/")
    hidden = hers.locator(f'[data-side="{home.name}"]').inner_text()
    assert hers.locator(f'[data-side="{home.name}"] [data-hidden]').count()
    assert member(home, 2).full_name not in hidden and member(home, 3).full_name not in hidden
    # Her first try is over the cap: refused, with the numbers.
    choose(hers, member(away, 1), star)
    hers.click("[data-lock]")
    error = hers.locator("[data-error]").inner_text()
    assert "8" in error and "6" in error, error
    no_horizontal_scroll(hers)
    screenshot(hers, "league-cap-refused")
    assert member(home, 2).full_name not in hers.content()
    # Within the cap: locked, and both line-ups are shown at once.
    choose(hers, member(away, 1), member(away, 3))
    hers.click("[data-lock]")
    hers.wait_for_selector(f'[data-side="{home.name}"] [data-line-up]')
    assert member(home, 2).full_name in hers.content()
    day.refresh_from_db()
    assert day.status == MatchDayStatus.REVEALED
    his.reload()
    assert member(away, 3).full_name in his.locator(f'[data-side="{away.name}"]').inner_text()
    screenshot(his, "league-revealed")

    # He scores the first game 2:1; she confirms it.
    row = his.locator('[data-game="1"]')
    row.locator("input[name=home_frames]").fill("2")
    row.locator("input[name=away_frames]").fill("1")
    row.locator("[data-score-game]").click()
    his.wait_for_selector('[data-game="1"].is-scored')
    hers.reload()
    no_horizontal_scroll(hers)
    screenshot(hers, "league-confirm")
    hers.locator('[data-game="1"] [data-confirm-game]').click()
    hers.wait_for_selector('[data-game="1"].is-confirmed')
    game = day.games.get(order=1)
    assert (game.home_frames, game.away_frames, game.status) == (2, 1, GameStatus.CONFIRMED)
    assert hers.locator("[data-score]").inner_text().replace(" ", "") == "1:0"

    # The club's TV shows the match day: the team score and each game, big.
    tv = browser.new_context(locale="ru-RU", viewport={"width": 1920, "height": 1080})
    board = tv.new_page()
    board.goto(f"{live_server.url}/leagues/match-days/{day.pk}/board/")
    assert board.locator(".lboard [data-score]").inner_text().replace(" ", "") == "1:0"
    assert board.locator(".lboard-games li").count() == 2
    size = board.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.lboard-games')).fontSize)"
    )
    assert size >= 40, size  # 4.4vh of 1080 lines: read from 5 m
    assert board.evaluate("document.documentElement.scrollHeight") <= 1080
    screenshot(board, "league-board")
    tv.close()


def test_doubles_line_ups_a_draft_then_locked_blind_the_pairs_scored_and_confirmed(
    phone, live_server, doubles_season
):
    services.generate_fixtures(season=doubles_season)
    day = MatchDay.objects.filter(season=doubles_season).order_by("date", "pk").first()
    home, away = day.home, day.away
    account(home.captain, "home")
    account(away.captain, "away")
    h1, h2, h3 = (member(home, n) for n in (1, 2, 3))
    a1, a2, a3 = (member(away, n) for n in (1, 2, 3))
    his, hers = phone(), phone()
    login(his, live_server, "home")
    login(hers, live_server, "away")
    url = f"{live_server.url}/leagues/match-days/{day.pk}/"

    # He saves a draft: its cap said (three players in four places: 2 + 2 + 2), not locked.
    his.goto(url)
    choose(his, h1, h3, (h1, h2))
    his.click("[data-save-draft]")
    his.wait_for_selector("[data-draft-line-up]")
    assert "сумма 6 при лимите 6" in his.locator(".messages").inner_text()
    no_horizontal_scroll(his)
    screenshot(his, "league-doubles-draft")
    assert day.line_ups.get().locked_at is None

    # She sees no line-up of his; her pair of one player is refused, then she locks hers.
    hers.goto(url)
    assert hers.locator(f'[data-side="{home.name}"] [data-hidden]').inner_text() == (
        "Состава пока нет."
    )
    assert h3.full_name not in hers.content()
    choose(hers, a1, a2, (a3, a3))
    hers.click("[data-lock]")
    assert hers.locator("[data-error]").inner_text() == "Пара — это два разных игрока."
    choose(hers, a1, a2, (a2, a3))
    hers.click("[data-lock]")
    hers.wait_for_selector(f'[data-side="{away.name}"] [data-line-up]')
    assert h3.full_name not in hers.content()

    # His page: her line-up is locked (lock yours), and his draft with its pair.
    his.goto(f"{live_server.url}/me/")
    news = his.locator("[data-league-notices]").inner_text()
    assert f"«{away.name}» — состав зафиксирован. Зафиксируйте свой." in news
    mine = his.locator("[data-my-line-up]").inner_text()
    assert f"{h1.full_name} / {h2.full_name}" in mine and "черновик" in mine
    no_horizontal_scroll(his)
    screenshot(his, "league-me-doubles-news")

    # He changes his draft (the form keeps it) and locks it: both revealed, pairs named.
    his.click(f'[data-match-day="{day.pk}"] > a')
    his.wait_for_url(url)
    assert his.input_value("select[name=lu-partner_3]") == str(h2.pk)
    his.select_option("select[name=lu-partner_3]", str(h3.pk))
    his.click("[data-lock]")
    his.wait_for_selector(f'[data-side="{away.name}"] [data-line-up]')
    pair = his.locator('[data-game="3"]')
    assert pair.locator("[data-home]").inner_text() == f"{h1.full_name} / {h3.full_name}"
    assert pair.locator("[data-away]").inner_text() == f"{a2.full_name} / {a3.full_name}"

    # He scores the doubles game 1:0; she is told, and confirms it from the match day.
    pair.locator("input[name=home_frames]").fill("1")
    pair.locator("input[name=away_frames]").fill("0")
    pair.locator("[data-score-game]").click()
    his.wait_for_selector('[data-game="3"].is-scored')
    hers.goto(f"{live_server.url}/me/")
    assert "встреча 3" in hers.locator("[data-league-notices]").inner_text()
    hers.goto(url)
    no_horizontal_scroll(hers)
    screenshot(hers, "league-doubles-confirm")
    hers.locator('[data-game="3"] [data-confirm-game]').click()
    hers.wait_for_selector('[data-game="3"].is-confirmed')
    assert day.games.get(order=3).status == GameStatus.CONFIRMED


def test_the_leagues_standings_on_the_halls_tv(browser, live_server, season):
    services.generate_fixtures(season=season)
    days = list(MatchDay.objects.filter(season=season).order_by("date", "pk"))
    services.forfeit(match_day=days[0], team=days[0].away)
    services.forfeit(match_day=days[1], team=days[1].home)
    playing = days[3]  # under way: its score so far among the next match days
    for team in (playing.home, playing.away):
        services.lock_line_up(
            match_day=playing, team=team, player_ids=[member(team, 1).pk, member(team, 2).pk]
        )
    first = playing.games.get(order=1)
    services.score_game(game=first, team=playing.home, home_frames=2, away_frames=1)
    services.confirm_game(game=first, team=playing.away)
    tv = browser.new_context(locale="ru-RU", viewport={"width": 1920, "height": 1080})
    board = tv.new_page()
    board.clock.install()
    board.goto(f"{live_server.url}/leagues/{season.league_id}/")
    board.click("[data-league-board]")
    board.wait_for_url(f"**/leagues/{season.league_id}/board/")
    assert board.locator(".lgboard-table tbody tr").count() == 4
    assert board.locator("[data-results] li").count() == 2
    assert board.locator("[data-next] li").count() == 4
    live = board.locator("[data-next] li.is-revealed")
    assert live.inner_text().split() == [
        "16", "сен", playing.home.name, "1:0", playing.away.name
    ]  # fmt: skip
    sizes = board.evaluate(
        """[".lgboard-table td", ".lgboard-list li"].map(
             (s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"""
    )
    assert min(sizes) >= 34, sizes  # 3.2vh and more of 1080 lines: read from 5 m
    assert board.evaluate("document.documentElement.scrollHeight") <= 1080
    assert board.evaluate("document.documentElement.scrollWidth") <= 1920
    # It asks again by itself: a result recorded meanwhile shows without a reload.
    services.forfeit(match_day=days[2], team=days[2].away)
    board.clock.fast_forward(10_000)
    expect(board.locator("[data-results] li")).to_have_count(2)  # not yet: every 15 s
    board.clock.fast_forward(6_000)
    expect(board.locator("[data-results] li")).to_have_count(3)
    screenshot(board, "league-standings-board")
    tv.close()
