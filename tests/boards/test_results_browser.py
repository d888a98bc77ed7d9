"""Boards that say what happened (issue 31 item 3), on the hall's TV (1920×1080): a
conditional draw is called one, with nobody tagged the winner (D1); a match that is over
reads in one order above and in its banner (D8); a long name on the wall is set at the
wall's size on two lines, not shrunk beside the others (D9).

Screenshots go to test-artifacts/screenshots/boards/ (git-ignored): look at them.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from players.models import Player
from tables.models import Table
from tests.factories import ev, record, start
from tests.helpers import a_club_of_twelve
from tournaments import selectors as match_selectors
from tournaments import services as match_services
from tournaments.simulate import play_frame

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "boards"
TV = {"width": 1920, "height": 1080}


def tv_page(browser):
    context = browser.new_context(viewport=TV, locale="ru-RU")
    return context, context.new_page()


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def test_a_conditional_draw_is_called_one_and_nobody_is_the_winner(
    browser, live_server, marker_user
):
    """«Кладка шаров кием»: both runs in 17 strokes (not 16 in 16) are a conditional draw. The
    TV tagged both players «ПОБЕДИТЕЛЬ» and said «Ничья»."""
    game = start(Table.objects.create(number=3), "cue_run", ["Вера", "Глеб"], marker_user)
    run = [ev("stroke"), *[ev("pot")] * 16]
    record(game, marker_user, *run, *run)
    context, page = tv_page(browser)
    page.goto(f"{live_server.url}/tables/3/board/")
    expect(page.locator("#board [data-banner]")).to_have_text("Условная ничья: Вера, Глеб")
    marks = page.locator("#board .seat .draw-mark")
    expect(marks).to_have_count(2)
    assert marks.all_inner_texts() == ["НИЧЬЯ", "НИЧЬЯ"]  # (the tag is set in capitals)
    expect(page.locator("#board .seat .winner-mark")).to_have_count(0)
    expect(page.locator("#board .seat.is-winner")).to_have_count(0)
    shoot(page, "cue_run-conditional-draw-1920x1080")
    page.goto(f"{live_server.url}/board/")
    expect(page.locator('[data-table="3"] .tile-banner')).to_have_text("Условная ничья: Вера, Глеб")
    context.close()


def test_a_match_over_reads_in_one_order_above_and_in_its_banner(browser, live_server, db):
    """A race to 3 won 3 : 1 by the player in seat 2 of the last frame: the line above the
    seats read «Сокол 1 : 3, до 3 Дмитрий Кузнецов» right above «Матч окончен 3 : 1»."""
    sokol = Player.objects.create(full_name="Иван Соколов", nickname="Сокол")
    dmitry = Player.objects.create(full_name="Дмитрий Кузнецов")
    table = Table.objects.create(number=4)
    match = match_services.start_match(
        table=table, variant="pyramid_free", a=sokol, b=dmitry, race_to=3, marker=None,
        first_break="b",
    )  # fmt: skip
    for side in "bab":  # Дмитрий, Сокол, Дмитрий: 2 : 1; the break alternates to Сокол
        frame = match_selectors.current_frame(match)
        game = play_frame(frame.game, 0 if frame.breaker == side else 1)
        match_services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    frame = match_selectors.current_frame(match)
    assert frame.breaker == "a"  # Сокол in seat 1 of the last frame, Дмитрий in seat 2
    game = play_frame(frame.game, 1)
    match_services.finish_frame_and_continue(game=game, expected_seq=game.last_seq, marker=None)
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", "b")
    context, page = tv_page(browser)
    page.goto(f"{live_server.url}/tables/4/board/")
    line = page.locator("#board .match-line")
    expect(line.locator(".match-name")).to_have_text(["Дмитрий Кузнецов", "Сокол"])
    expect(line.locator("[data-match-score]")).to_have_text("3 : 1, до 3")
    expect(page.locator("#board [data-match-over]")).to_have_text("Матч окончен 3 : 1")
    expect(page.locator("#board [data-banner]")).to_have_text("Победитель: Дмитрий Кузнецов")
    # The seats below stay the frame's, in its playing order.
    expect(page.locator("#board .seat .seat-name")).to_have_text(["Сокол", "Дмитрий Кузнецов"])
    shoot(page, "match-over-one-order-1920x1080")
    context.close()


# Run in the wall: each two-player tile's names, the size they are set at, how many lines
# they take, and whether any is cut, ellipsised or broken inside a word.
WALL_NAMES = """() => [...document.querySelectorAll(".tile[data-table]")]
  .filter((tile) => tile.querySelectorAll(".mini-name").length === 2)
  .map((tile) => ({table: tile.dataset.table, names: [...tile.querySelectorAll(".mini-name")]
    .map((el) => {
      const style = getComputedStyle(el);
      const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.1;
      const row = el.closest(".mini-seat").getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return {text: el.textContent.trim(), font: parseFloat(style.fontSize),
              lines: Math.round(el.getBoundingClientRect().height / line),
              cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
              inside: box.top >= row.top - 1 && box.bottom <= row.bottom + 1};
    })}))"""


def test_a_long_name_on_the_wall_takes_two_lines_at_the_walls_size(browser, live_server, db):
    """A club's twelve tables on the wall: «Константин Преображенский» was set at 20 px beside
    33 px names, unreadable from five metres. It takes two lines at the size of the others."""
    a_club_of_twelve(
        [
            ("pyramid_free", ["Константин Преображенский", "Николай"]),
            ("clockwise", ["Сокол", "Лена"]),
            ("cue_run", ["Миша", "Дед"]),
            ("cork", ["Аня", "Борис", "Вера", "Глеб"]),
        ]
    )
    context, page = tv_page(browser)
    page.goto(f"{live_server.url}/board/")
    page.wait_for_selector("#wall")
    page.wait_for_timeout(300)  # fit-text has run
    shoot(page, "wall-long-name-1920x1080")
    tiles = {tile["table"]: tile["names"] for tile in page.evaluate(WALL_NAMES)}
    long_name, short = tiles["1"]
    assert long_name["text"] == "Константин Преображенский"
    others = [name["font"] for number in ("2", "3") for name in tiles[number]]
    assert min(others) >= 30, others  # the wall's size for two players, px
    assert long_name["font"] >= min(others) - 0.5, (long_name, others)
    assert long_name["lines"] == 2 and short["lines"] == 1, (long_name, short)
    for name in (long_name, short, *[n for number in ("2", "3") for n in tiles[number]]):
        assert not name["cut"] and name["inside"], name
    context.close()
