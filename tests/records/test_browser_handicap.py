"""In a real browser: the start form shows the suggested handicap and the marker accepts it;
the match form shows the odds of the race and the fair race, accepted with one tap."""

from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Game
from tables.models import Table
from tests.conftest import login as sign_in
from tests.factories import T0, cue_run_stats, finished, player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def add_player(page, name):
    page.fill("input[name=q]", name)
    page.locator("#player-results button.chip", has_text=name).click()
    page.locator("#seats li", has_text=name).wait_for()


def test_marker_accepts_the_suggested_handicap(page, live_server, marker_user):
    from records import rating

    rating.forget()
    Table.objects.create(number=5)
    strong, weak = player("Сильный Игрок"), player("Слабый Игрок")
    for i, (s, w) in enumerate([(16, 19), (17, 20), (18, 21)]):  # averages 17 and 20: 3 strokes
        finished(
            "cue_run",
            [(strong, "win", s, cue_run_stats(s)), (weak, "loss", w, cue_run_stats(w))],
            at=T0 + timedelta(hours=i),
        )
    sign_in(page, live_server, marker_user.username)
    page.goto(f"{live_server.url}/marker/tables/5/")
    page.select_option("select[name=variant]", "cue_run")
    page.locator("select[name=s_handicap]").wait_for()
    add_player(page, "Слабый")
    add_player(page, "Сильный")

    hint = page.locator("#handicap-hint .handicap-hint")
    expect(hint).to_contain_text("Слабый Игрок получает фору: дополнительных ударов — 3.")
    page.locator("#handicap-hint button").click()
    expect(page.locator("select[name=s_handicap]")).to_have_value("extra_strokes")
    expect(page.locator("input[name=s_handicap_strokes]")).to_have_value("3")
    expect(page.locator("select[name=s_strong_seat]")).to_have_value("1")

    page.locator("button[name=op][value=start]").click()
    page.wait_for_url(lambda url: "/marker/games/" in url)
    game = Game.objects.get(table__number=5)
    assert game.settings["handicap"] == "extra_strokes"
    assert game.settings["handicap_strokes"] == 3
    assert str(game.settings["strong_seat"]) == "1"


@pytest.mark.parametrize(
    ("locale", "accept", "done"),
    [
        ("ru-RU", "Принять честный матч", "Принято: можно изменить"),
        ("en-US", "Accept the fair race", "Accepted: you may still change it"),
    ],
)
def test_the_marker_accepts_the_fair_race_on_the_match_form(
    browser, live_server, marker_user, monkeypatch, locale, accept, done
):
    """Issue 33 item 2: the match form shows the odds of the race and proposes the fair race
    (the head start in frames closest to even, with the odds it leaves); one tap fills the
    head start, and the match starts with it."""
    from records import forecast, glicko, odds
    from tests.helpers import fixed_skills
    from tournaments.models import Match

    skills = fixed_skills(monkeypatch)
    Table.objects.create(number=5)
    strong = player("Александр Преображенский-Оболенский")
    player("Пётр Иванов")  # a newcomer: his odds are uncertain, marked
    skills[strong.pk] = glicko.Skill(1750, 60, games=80)
    p = glicko.win_probability(skills[strong.pk], glicko.start("novice"))
    fair = forecast.fair_race(p, 5)
    assert fair.side == "b" and fair.head_start >= 1

    context = browser.new_context(locale=locale, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server, marker_user.username)
    page.goto(f"{live_server.url}/marker/matches/new/?table=5")
    with page.expect_response(lambda answer: answer.request.method == "POST"):
        page.select_option("select[name=variant]", "clockwise")  # the form comes back for it
    page.locator("[name=s_points_per_ball]").wait_for()  # the clockwise game's own setting
    add_player(page, "Преображенский")
    add_player(page, "Иванов")
    page.fill("input[name=race_to]", "5")
    page.locator("input[name=race_to]").dispatch_event("change")  # the hint follows the form

    race = page.locator('#handicap-hint th[data-odds="race"]')
    expect(race).to_have_attribute("data-probability", f"{odds.race(p, 5, 5):.4f}")
    expect(page.locator("#handicap-hint [data-provisional]")).to_have_count(1)
    button = page.locator("#handicap-hint [data-accept-fair]")
    expect(button).to_have_text(accept)
    fair_odds = page.locator('#handicap-hint th[data-odds="fair"]')
    assert float(fair_odds.get_attribute("data-probability")) == pytest.approx(
        fair.probability, abs=1e-4
    )
    button.click()
    expect(button).to_have_text(done)
    expect(page.locator("input[name=head_start_b]")).to_have_value(str(fair.head_start))
    expect(page.locator("input[name=head_start_a]")).to_have_value("0")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#handicap-hint").screenshot(path=ARTIFACTS / f"match-form-fair-race-{locale}.png")

    page.locator("button[data-start-match]").click()
    page.wait_for_url(lambda url: "/marker/games/" in url)
    match = Match.objects.get()
    assert (match.race_to, match.head_start_a, match.head_start_b) == (5, 0, fair.head_start)
    context.close()


@pytest.mark.parametrize(
    ("locale", "odds_title", "accept"),
    [("ru-RU", "Шансы", "Принять"), ("en-US", "Chances", "Accept")],
)
def test_the_start_form_proposes_the_fair_head_start_of_a_pyramid_game(
    browser, live_server, marker_user, locale, odds_title, accept
):
    """Issue 33 item 6: the start form shows both players' chances, and the head start that
    brings them closest to even ("8–6" for a master against a newcomer), with one tap."""
    from records import forecast, glicko, rating

    rating.forget()
    Table.objects.create(number=6)
    player("Мастер Спорта Константинопольский", skill_class="ms")
    player("Новичок Первогодкин")
    p_master = glicko.win_probability(glicko.start("ms"), glicko.start("novice"))
    fair = forecast.fair_handicap("pyramid_free", p_master)
    assert fair.seat == 1 and fair.head_start >= 2  # a master against anyone: a real one
    context = browser.new_context(locale=locale, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": locale[:2]})
    sign_in(page, live_server, marker_user.username)
    page.goto(f"{live_server.url}/marker/tables/6/")
    page.select_option("select[name=variant]", "pyramid_free")
    page.locator("input[name=s_head_start]").wait_for()
    add_player(page, "Мастер")
    add_player(page, "Новичок")
    hint = page.locator("#handicap-hint")
    expect(hint).to_contain_text(odds_title)
    expect(hint).to_contain_text(f"8–{8 - fair.head_start}")
    hint.locator("button", has_text=accept).first.click()
    expect(page.locator("input[name=s_head_start]")).to_have_value(str(fair.head_start))
    expect(page.locator("select[name=s_weaker_seat]")).to_have_value("1")
    page.screenshot(path=ARTIFACTS / f"start-form-fair-head-start-{locale}.png", full_page=True)
    # Nothing wider than the phone (the game's select made the form 366 px wide).
    wide = page.evaluate(
        """() => [...document.querySelectorAll('*')]
                 .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
                 .map(e => e.tagName + '.' + e.className)"""
    )
    assert wide == []
    page.locator("button[name=op][value=start]").click()
    page.wait_for_url(lambda url: "/marker/games/" in url)
    game = Game.objects.get(table__number=6)
    assert game.settings["head_start"] == fair.head_start
    assert str(game.settings["weaker_seat"]) == "1"
    context.close()
