"""Every game's table board and the wall, as spectators see them, with the demo's longest names.

Each game of the rules' registry is rendered at its start, mid-game and at its end, at
1920×1080 (the hall's TV), 1366×768 (a laptop) and 360×740 (a phone). A text that overflows
its box, is cut by its card, or is ellipsised while it does not take its whole row fails the
test; so does a page wider than the screen. Whose turn it is must be a filled, highlighted
row on the wall (visible from 5 m). Screenshots of every board go to
``test-artifacts/screenshots/boards/`` (CI lists them): look at them.
"""

import random
from pathlib import Path

import pytest

from clubsite.management.commands.load_demo_club import PLAYERS
from games import demo, rules
from players.models import Player
from tables.models import Table
from tests.factories import UserFactory
from tests.helpers import a_club_of_twelve
from toolbox.roles import MARKERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "boards"
VIEWPORTS = [(1920, 1080), (1366, 768), (360, 740)]
PHASES = ("start", "mid", "end")
MID_GAME = 7  # strokes

# Run in the page: what is wrong with the text of the board (or wall) shown.
TEXT_PROBLEMS = """() => {
  const problems = [];
  const root = document.querySelector("#board, #wall");
  const describe = (el) => {
    const where = el.closest("[data-seat], [data-table]");
    const at = where ? `${where.dataset.seat ?? "#" + where.dataset.table}: ` : "";
    const text = el.textContent.trim().slice(0, 40);
    return `${at}.${[...el.classList].join(".") || el.tagName} «${text}»`;
  };
  const clipper = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") return up;
    }
    return null;
  };
  for (const el of root.querySelectorAll("*")) {
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText || el.closest("svg")) continue;
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    if (style.visibility === "hidden" || rect.width <= 1 || rect.height <= 1) continue;
    const box = clipper(el);
    if (box) {
      const outer = box.getBoundingClientRect();
      const outside = rect.right <= outer.left || rect.left >= outer.right
        || rect.bottom <= outer.top || rect.top >= outer.bottom;
      if (outside) continue;  // hidden on purpose (the ticker's older events)
      if (rect.left < outer.left - 1 || rect.right > outer.right + 1
          || rect.top < outer.top - 1 || rect.bottom > outer.bottom + 1) {
        problems.push(`${describe(el)} is cut by its box`);
        continue;
      }
    }
    if (el.matches(".seat-name, .banner-text")) {  // a name never breaks inside a word
      el.classList.add("fitting");
      const broken = el.scrollWidth > el.clientWidth + 1;
      el.classList.remove("fitting");
      if (broken) problems.push(`${describe(el)} breaks inside a word`);
    }
    // a pill (a badge with round ends): its text must not run into the round ends
    const pill = parseFloat(style.borderTopLeftRadius) >= rect.height / 2 - 1
      && rect.width > rect.height * 1.5;  // not a ball: a circle
    if (pill && style.backgroundColor !== "rgba(0, 0, 0, 0)") {
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      if (text.width > rect.width - rect.height * 0.6) {
        problems.push(`${describe(el)} runs into its pill's round ends`);
      }
    }
    if (style.display === "inline") continue;
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1 && style.webkitLineClamp !== "none";
    if (wide && style.textOverflow === "ellipsis") {
      const row = el.parentElement.clientWidth  // ellipsis is fine for a text given the whole row
        - parseFloat(getComputedStyle(el.parentElement).paddingLeft)
        - parseFloat(getComputedStyle(el.parentElement).paddingRight);
      if (el.offsetWidth < row - 2) problems.push(`${describe(el)} ellipsised; the row has room`);
    } else if (wide) {
      problems.push(`${describe(el)} overflows its box (${el.scrollWidth} > ${el.clientWidth})`);
    } else if (tall) {
      problems.push(`${describe(el)} is cut after ${style.webkitLineClamp} lines`);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > window.innerWidth) {
    problems.push(`the page is wider than the screen (${page.scrollWidth} > ${window.innerWidth})`);
  }
  return problems;
}"""

# Run in the wall: how the seat to play looks, beside the others.
TURN_LOOK = """() => [...document.querySelectorAll(".mini-seat.is-turn")].map((el) => {
  const other = el.parentElement.querySelector(".mini-seat:not(.is-turn)");
  const look = (e) => e ? getComputedStyle(e).backgroundColor : "";
  return {table: el.closest("[data-table]").dataset.table, turn: look(el), other: look(other),
          height: el.getBoundingClientRect().height};
})"""


# Guests longer than anyone in the demo roster: a single long word, a double surname.
LONG_GUESTS = ["Александр Константинопольский", "Вениамин Преображенский-Задунайский"]


def longest_names():
    """Two very long guest names, then the demo roster's names, longest first."""
    return LONG_GUESTS + [player.display_name for player in longest_demo_players()]


def longest_demo_players():
    """The demo roster, longest names (as the boards show them) first."""
    players = [
        Player.objects.create(full_name=name, nickname=nickname, skill_class=skill)
        for name, nickname, skill in PLAYERS
    ]
    return sorted(players, key=lambda p: len(p.display_name), reverse=True)


def seat_count(variant, phase):
    if variant.key in demo.HANDICAPS:
        return 2  # a handicap is played between two
    if phase == "mid":
        return variant.max_seats  # the fullest table the game allows (cork: 10, cue run: 8)
    return min(variant.max_seats, 6)  # six players: the demo's biggest game (one row each)


def board_games(marker):
    """For each game of the registry: a table at its start, one mid-game and one just ended.

    Returns {table number: (variant key, phase)}.
    """
    names = longest_names()
    rng = random.Random(14)
    tables = {}
    for index, (key, variant) in enumerate(rules.VARIANTS.items()):
        # The longest names, seated as guests: a player of the roster cannot be at two tables
        # at once, and every game here is on the boards at the same time.
        for offset, phase in enumerate(PHASES):
            seats = names[: seat_count(variant, phase)]
            number = 3 * index + offset + 1
            demo.play(
                table=Table.objects.create(number=number, name=f"Стол {number}"),
                variant=key,
                settings=demo.HANDICAPS.get(key, {}),
                players=seats if offset % 2 == 0 else seats[::-1],
                marker=marker,
                rng=rng,
                strokes={"start": 0, "mid": MID_GAME, "end": None}[phase],
                undo_every=demo.UNDO_EVERY,
            )
            tables[number] = (key, phase)
    return tables


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_boards_and_wall_show_whole_names_and_figures_at_every_size(browser, live_server):
    marker = UserFactory(username="marker-boards", groups=[MARKERS])
    tables = board_games(marker)
    problems = []
    for width, height in VIEWPORTS:
        context = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
        page = context.new_page()
        for number, (key, phase) in tables.items():
            page.goto(f"{live_server.url}/tables/{number}/board/")
            page.wait_for_selector("#board")
            page.wait_for_timeout(150)  # the layout settles (fonts, container queries)
            shoot(page, f"{key}-{phase}-{width}x{height}")
            problems += [
                f"{key} {phase} {width}×{height}: {p}" for p in page.evaluate(TEXT_PROBLEMS)
            ]
        page.goto(f"{live_server.url}/board/")
        page.wait_for_selector("#wall")
        page.wait_for_timeout(150)
        shoot(page, f"wall-{width}x{height}")
        problems += [f"wall {width}×{height}: {p}" for p in page.evaluate(TEXT_PROBLEMS)]
        turns = page.evaluate(TURN_LOOK)
        playing = [n for n, (_key, phase) in tables.items() if phase != "end"]
        assert len(turns) == len(playing)
        for turn in turns:  # a filled row, not a thin bar: visible from across the hall
            assert turn["turn"] not in ("", "rgba(0, 0, 0, 0)", turn["other"]), turn
        context.close()
    assert not problems, "\n".join(problems)


# Run in the wall: the size names are set at (before fit-text shrinks a long one) and the size
# of the figure line beneath them, per tile.
NAME_SIZES = """() => [...document.querySelectorAll(".tile[data-table]")].filter(
  (tile) => tile.querySelector(".mini-name")).map((tile) => {
    const name = tile.querySelector(".mini-name");
    const inline = name.style.fontSize;
    name.style.fontSize = "";
    const size = parseFloat(getComputedStyle(name).fontSize);
    name.style.fontSize = inline;
    const figure = tile.querySelector(".tile-figure");
    return {table: tile.dataset.table, seats: tile.querySelectorAll(".mini-seat").length,
            name: size, figure: parseFloat(getComputedStyle(figure).fontSize)};
})"""


def test_the_walls_names_are_readable_across_the_hall(browser, live_server):
    """A two-player table's names on the 1920×1080 wall were set at 18 px, smaller than the
    figure line beneath them, in rows three times as tall: unreadable from 5 m. A name is now
    at least as large as that line (fit-text still shrinks a name too long for its row)."""
    a_club_of_twelve(
        [
            ("clockwise", ["Сокол", "Лена"]),
            ("cue_run", ["Миша", "Дед"]),
            ("pyramid_free", ["Андрей", "Профессор"]),
            ("cork", ["Аня", "Борис", "Вера", "Глеб"]),
        ]
    )
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}/board/")
    page.wait_for_selector("#wall")
    page.wait_for_timeout(150)
    shoot(page, "wall-short-names-1920x1080")
    sizes = page.evaluate(NAME_SIZES)
    assert len(sizes) == 4
    for tile in sizes:
        assert tile["name"] >= tile["figure"], tile
        if tile["seats"] == 2:
            assert tile["name"] >= 30, tile  # px on a 1920 px wide TV
    context.close()
