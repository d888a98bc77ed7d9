"""Every game's overlay as OBS shows it: a 1920×1080 page, transparent but for a lower third
that is whole (inside the frame, no name or figure cut) and legible (big type on an opaque
panel), in both themes; and only the overlay and embed pages load inside another site's
frame. Screenshots (transparent PNGs) go to ``test-artifacts/screenshots/overlays/``: look
at them."""

import http.server
import random
import struct
import threading
import zlib
from pathlib import Path

import pytest

from games import demo, rules
from tables.models import Table
from tests.factories import UserFactory
from toolbox.roles import MARKERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots" / "overlays"
NAMES = ["Вениамин Преображенский-Задунайский", "Константин Преображенский", "Сокол", "Лёха",
         "Профессор", "Дед"]  # fmt: skip
MIN_NAME_PX = 22  # at 1920 wide, size m: legible on a stream's picture

# Run in the page: the lower third's box, and what of it is cut, too small or see-through.
PROBLEMS = """() => {
  const problems = [];
  const panel = document.querySelector("#overlay");
  const box = panel.getBoundingClientRect();
  if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight)
    problems.push(`the panel leaves the frame: ${JSON.stringify(box)}`);
  for (const el of panel.querySelectorAll("p, span, b, small")) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== "visible")
      problems.push(`cut: «${el.textContent.trim()}»`);
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > box.right + 1 || r.bottom > box.bottom + 1))
      problems.push(`out of the panel: «${el.textContent.trim()}»`);
  }
  for (const el of panel.querySelectorAll(".lt-name, .lt-score")) {
    if (parseFloat(getComputedStyle(el).fontSize) < MIN_NAME_PX)
      problems.push(`small: «${el.textContent.trim()}» ${getComputedStyle(el).fontSize}`);
  }
  const alpha = (color) => { const m = color.match(/rgba?\\(([^)]+)\\)/); const p = m[1].split(",");
                              return p.length > 3 ? parseFloat(p[3]) : 1; };
  if (alpha(getComputedStyle(panel).backgroundColor) < 0.85) problems.push("see-through panel");
  for (const el of [document.documentElement, document.body]) {
    if (alpha(getComputedStyle(el).backgroundColor) !== 0) problems.push("page not transparent");
  }
  return problems;
}""".replace("MIN_NAME_PX", str(MIN_NAME_PX))


def corner_alpha(png):
    """The alpha of the top-left pixel of an RGBA screenshot (plain zlib, no image library)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    position, data, header = 8, b"", None
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position : position + 8])
        body = png[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        position += 12 + length
    width, _height, depth, color = header[:4]
    assert (depth, color) == (8, 6), "an RGBA screenshot"
    first_row = zlib.decompressobj().decompress(data, 1 + 4 * width)
    # (whatever the row's filter, the first pixel of the first row is stored as it is)
    return first_row[4]


def games(marker):
    """Every game of the registry mid-game, with its demo handicap and long names: {table
    number: variant key}."""
    rng = random.Random(26)
    tables = {}
    for number, (key, variant) in enumerate(rules.VARIANTS.items(), start=1):
        seats = NAMES[: 2 if key in demo.HANDICAPS else min(variant.max_seats, 6)]
        demo.play(
            table=Table.objects.create(number=number),
            variant=key,
            settings=demo.HANDICAPS.get(key, {}),
            players=seats,
            marker=marker,
            rng=rng,
            strokes=5,
        )
        tables[number] = key
    return tables


def test_every_games_overlay_is_whole_and_legible_on_a_transparent_page(browser, live_server):
    marker = UserFactory(username="marker-overlay", groups=[MARKERS])
    tables = games(marker)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(locale="ru-RU", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    problems = []
    try:
        for number, key in tables.items():
            for theme, position in (("dark", "bottom-left"), ("light", "top-right")):
                url = (
                    f"{live_server.url}/tables/{number}/overlay/?theme={theme}&position={position}"
                )
                page.goto(url)
                page.wait_for_selector("#overlay .lt-seat")
                page.wait_for_timeout(150)
                problems += [f"{key} {theme}: {p}" for p in page.evaluate(PROBLEMS)]
                shot = page.screenshot(
                    path=str(SCREENSHOTS / f"{key}-{theme}.png"), omit_background=True
                )
                if corner_alpha(shot) != 0:
                    problems.append(f"{key} {theme}: the picture is not transparent")
                names = page.locator("#overlay .lt-name").all_inner_texts()
                assert names and all(name.strip() for name in names)
    finally:
        context.close()
    assert problems == []


@pytest.fixture
def other_site():
    """Another site (another origin: its own port) whose page frames ours; ``serve(html)``
    sets its page and gives its address."""
    page = {"html": b""}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page["html"])

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def serve(html):
        page["html"] = html.encode()
        return f"http://127.0.0.1:{server.server_port}/"

    yield serve
    server.shutdown()
    server.server_close()


def test_only_overlays_and_embeds_load_in_another_sites_frame(page, live_server, other_site):
    Table.objects.create(number=1)
    frames = {
        "overlay": "/tables/1/overlay/",
        "embed": "/embed/leaderboards/",
        "board": "/tables/1/board/",
        "home": "/",
    }
    html = "".join(f"<iframe id={k} src={live_server.url}{v}></iframe>" for k, v in frames.items())
    page.goto(other_site(html))
    page.wait_for_timeout(1500)
    loaded = {
        element: page.locator(f"#{element}").element_handle().content_frame().url
        for element in frames
    }
    assert {element: url.startswith(live_server.url) for element, url in loaded.items()} == {
        "overlay": True,
        "embed": True,
        "board": False,  # refused: Chromium shows its error page in the frame
        "home": False,
    }, loaded
