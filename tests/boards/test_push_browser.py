"""Pushed boards in a real browser: a stroke from the marker's console is on the table board in
under a second without a single poll; a board whose stream dies shows the reconnecting mark,
reconnects by itself and catches up; ``?poll=1`` polls as before."""

import time
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import expect

from games import rules, selectors, services
from games.i18n import minus
from tables.models import Table
from tests.conftest import login as sign_in
from tests.factories import ev, record, start
from tests.helpers import free_port, start_server, stop_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TV = {"width": 1920, "height": 1080}
POLLS = "**/tables/3/board/?fp=*"
STREAMS = "**/tables/3/board/stream/**"


def score_of(page, seat):
    return page.locator(f'#board [data-seat="{seat}"] [data-score]')


# When a screen's scores became ``texts``, by the screen's own clock (the machine's, as
# Python's ``time.time()``): the time it took is the push's, not the test's polling of three
# screens one after another. Scores already there count from now (an upper bound).
NOTE_WHEN_SCORES_ARE = """(texts) => {
  const shown = () => texts.every((text, seat) => {
    const score = document.querySelector(`#board [data-seat="${seat}"] [data-score]`);
    return score !== null && score.textContent.trim() === text;
  });
  window.scoresLandedAt = null;
  if (shown()) { window.scoresLandedAt = Date.now(); return; }
  const observer = new MutationObserver(() => {
    if (shown()) { window.scoresLandedAt = Date.now(); observer.disconnect(); }
  });
  observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def polls_of(page):
    """The board's polls the page sends from now on."""
    sent = []
    page.on("request", lambda request: "?fp=" in request.url and sent.append(request.url))
    return sent


def test_a_stroke_is_pushed_to_the_board_in_under_a_second_without_polling(
    browser, page, live_server, marker_user
):
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    page.goto(f"{live_server.url}/tables/3/board/")
    page.locator("body.streaming").wait_for(timeout=5000)
    polls = polls_of(page)
    page.wait_for_timeout(1500)  # a poll would have been sent by now
    assert polls == []

    console = browser.new_context(locale="ru-RU").new_page()
    sign_in(console, live_server, marker_user.username)
    console.goto(f"{live_server.url}/marker/games/{game.pk}/")
    console.click('button.action-button[data-kind="score"]')  # «Пробка сбита»: +2 = 3
    clicked = time.monotonic()
    expect(score_of(page, 0)).to_have_text("3", timeout=1000)
    elapsed = time.monotonic() - clicked
    assert elapsed < 1, f"the stroke took {elapsed:.3f} s to reach the board"
    assert polls == []  # pushed, not polled
    # The event just recorded is highlighted for a few seconds.
    expect(page.locator("#board.just-changed .ticker li.newest")).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "board-pushed-stroke.png")
    expect(page.locator("#board.just-changed")).to_have_count(0, timeout=6000)
    console.context.close()


def test_a_board_whose_stream_dies_reconnects_and_catches_up(
    page, live_server, marker_user, settings
):
    settings.LIVE_WSGI_STREAM_SECONDS = 2  # the server ends every stream after 2 s
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    page.route(POLLS, lambda route: route.abort("internetdisconnected"))  # streams only
    page.goto(f"{live_server.url}/tables/3/board/")
    page.locator("body.streaming").wait_for(timeout=5000)
    mark = page.locator(".reconnecting")
    assert mark.is_hidden()

    page.route(STREAMS, lambda route: route.abort("internetdisconnected"))
    page.locator("body:not(.streaming)").wait_for(timeout=5000)  # the stream ended
    mark.wait_for(state="visible", timeout=5000)
    record(game, marker_user, ev("foul", fouls=("miss",)))  # while the board is cut off
    page.wait_for_timeout(500)
    assert score_of(page, 0).inner_text() == "1"

    page.unroute(STREAMS)  # the stream is back (polls still fail): it alone must catch up
    expect(score_of(page, 0)).to_have_text("−1", timeout=8000)
    mark.wait_for(state="hidden", timeout=2000)
    page.locator("body.streaming").wait_for(timeout=2000)


def test_a_board_opened_with_poll_1_polls_and_holds_no_stream(page, live_server, marker_user):
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    streams = []
    page.on("request", lambda request: "/stream/" in request.url and streams.append(request))
    polls = polls_of(page)
    page.goto(f"{live_server.url}/tables/3/board/?poll=1")
    record(game, marker_user, ev("foul", fouls=("miss",)))
    expect(score_of(page, 0)).to_have_text("−1", timeout=3000)
    assert polls and not streams
    assert page.locator("body.streaming").count() == 0


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a server of its own needs PostgreSQL"
)
def test_screens_served_by_uvicorn_all_show_each_stroke_at_once(browser, marker_user):
    """As in production: uvicorn answers the streams beside Django (``live.asgi``), one
    audience writes each stroke to every screen of the table — two TVs and a phone here, in
    two languages — through PostgreSQL's NOTIFY from the stroke's own statement."""
    table = Table.objects.create(number=3)
    game = start(table, "cork", ["Аня", "Борис"], marker_user)
    port = free_port()
    server = start_server(port)
    screens = [
        (TV, "ru-RU", ""),
        (TV, "ru-RU", ""),
        ({"width": 360, "height": 740}, "en-US", "?lang=en"),
    ]
    contexts = []
    try:
        pages = []
        for viewport, locale, query in screens:
            contexts.append(browser.new_context(viewport=viewport, locale=locale))
            page = contexts[-1].new_page()
            page.goto(f"http://127.0.0.1:{port}/tables/3/board/{query}")
            page.locator("body.streaming").wait_for(timeout=5000)
            pages.append(page)
        for event in (ev("foul", fouls=("miss",)), ev("score")):
            game = record(game, marker_user, event)
            recorded = time.time()
            texts = [str(minus(points)) for points in selectors.game_state(game).scores]
            for page in pages:  # each screen notes the moment its scores became the engine's
                page.evaluate(NOTE_WHEN_SCORES_ARE, texts)
            for page in pages:
                for seat, text in enumerate(texts):
                    expect(score_of(page, seat)).to_have_text(text, timeout=3000)
            landed = max(page.evaluate("window.scoresLandedAt") for page in pages) / 1000
            elapsed = landed - recorded
            assert elapsed < 1.5, f"the stroke took {elapsed:.3f} s to reach the last screen"
        expect(pages[2].locator("#board")).to_contain_text("Bank")  # the phone's language
        ARTIFACTS.mkdir(exist_ok=True)
        pages[0].screenshot(path=ARTIFACTS / "board-pushed-by-uvicorn-tv.png")
        pages[2].screenshot(path=ARTIFACTS / "board-pushed-by-uvicorn-phone.png")
    finally:
        for context in contexts:
            context.close()
        stop_server(server)


@pytest.mark.parametrize(
    ("locale", "before", "now"),
    [
        ("ru-RU", "Шансы на матч:", "Шансы на матч сейчас:"),
        ("en-US", "Chances of the match:", "Chances of the match now:"),
    ],
)
def test_the_odds_of_a_match_on_the_tv_move_with_a_frame_won_without_a_reload(
    browser, live_server, marker_user, monkeypatch, locale, before, now
):
    """Issue 33 item 2: the TV board of a match in progress shows the chances of the match
    from its frame score; the marker saves a frame on the console and the TV shows the new
    chances, pushed, never reloaded (in the frame's seat order: the next breaker first)."""
    from players.models import Player
    from records import glicko, odds
    from tests.helpers import fixed_skills
    from tournaments import selectors as tournament_selectors
    from tournaments import services as tournament_services

    skills = fixed_skills(monkeypatch)
    long_name = "Константин Преображенский-Оболенский"
    a = Player.objects.create(full_name=long_name)
    b = Player.objects.create(full_name="Николай Фёдоров")
    skills[a.pk] = glicko.Skill(1650, 60, games=80)
    skills[b.pk] = glicko.Skill(1500, 60, games=80)
    p = glicko.win_probability(skills[a.pk], skills[b.pk])
    table = Table.objects.create(number=3)
    match = tournament_services.start_match(
        table=table, variant="pyramid_free", a=a, b=b, race_to=3, marker=None
    )
    tv = browser.new_context(locale=locale, viewport=TV).new_page()
    tv.set_default_timeout(10_000)
    loads = []
    tv.on("load", lambda _page: loads.append(1))
    tv.goto(f"{live_server.url}/tables/3/board/")
    tv.locator("body.streaming").wait_for(timeout=5000)
    shown = tv.locator('#board [data-odds="now"]')
    expect(shown.locator(".odds-label")).to_have_text(before)
    assert float(shown.get_attribute("data-probability")) == pytest.approx(
        odds.race(p, 3, 3), abs=1e-4
    )
    expect(shown.locator(".odds-name").first).to_have_text(long_name)  # A breaks: A first

    # The frame all but won by A (the breaker), the marker's last tap on the console.
    game = tournament_selectors.current_frame(match).game
    game = services.record_event(
        game=game, expected_seq=0, event=rules.Event("pot", count=7), user=None
    )
    console = browser.new_context(locale=locale).new_page()
    sign_in(console, live_server, marker_user.username)
    console.goto(f"{live_server.url}/marker/games/{game.pk}/")
    console.click('.action-pot button[data-count="1"]')
    console.wait_for_selector("[data-finish]")
    console.locator("#console button.primary:visible").click()  # save it, play the next
    console.wait_for_url(lambda url: f"/marker/games/{game.pk}/" not in url)

    expect(shown.locator(".odds-label")).to_have_text(now)  # pushed to the TV
    expect(shown.locator(".odds-name").first).to_have_text("Николай Фёдоров")  # B breaks now
    assert float(shown.get_attribute("data-probability")) == pytest.approx(
        1 - odds.race(p, 2, 3), abs=1e-4
    )
    b_percent = round((1 - odds.race(p, 2, 3)) * 100)
    expect(shown.locator("[data-percent]").first).to_contain_text(str(b_percent))
    assert len(loads) == 1  # never reloaded
    ARTIFACTS.mkdir(exist_ok=True)
    tv.screenshot(path=ARTIFACTS / f"board-match-odds-{locale}.png")
    console.context.close()
    tv.context.close()
