"""The console under a marker's fingers on a 360×740 phone, with real timings: a double tap
records once, a tap shows at once, focus stays in the console, the screen stays awake."""

import pytest

from games import rules, services
from games.models import Event, Game
from tables.models import Table
from tests.conftest import login as sign_in

from .test_console_browser import PASSWORD, PHONE, cork_game, phone_marker, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STROKE = '#console button.action-button[data-kind="stroke"]'  # «Без результата»


def open_console(page, live_server, game):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "marker-phone", PASSWORD)
    page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    page.wait_for_selector(f'#console[data-seq="{game.last_seq}"]')


@pytest.fixture
def game_on_the_phone(page, live_server, settings):
    """A cork game (Анна, Борис) open on the marker's console on a phone; only the taps
    talk to the server (no polling)."""
    settings.CONSOLE_POLL_SECONDS = 3600
    game = cork_game(phone_marker(), table_number=5)
    open_console(page, live_server, game)
    return game


DOUBLE_TAP_MS = 600  # static/js/console.js: the same button again within this is ignored
CONFIRM_GUARD_MS = 400  # static/js/console.js: a confirmation ignores taps this long


def recorded(game):
    return Event.objects.filter(game=game).count()


def double_tap(page, selector, gap_ms):
    """Two taps of a finger at the same spot, ``gap_ms`` apart (the first answer may swap in
    a new console meanwhile: the second tap lands on whatever is under the finger then).
    Returns the gap the page really saw between the two clicks, in ms."""
    page.evaluate(
        "() => { window.__taps = []; window.addEventListener('click',"
        " () => window.__taps.push(performance.now()), true); }"
    )
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    if gap_ms:
        page.wait_for_timeout(gap_ms)
    page.mouse.click(x, y)
    taps = page.evaluate("window.__taps")
    return round(taps[1] - taps[0])


@pytest.mark.parametrize("gap_ms", [0, 30, 60, 100, 150, 250, 400])
def test_an_accidental_double_tap_records_one_stroke(page, game_on_the_phone, gap_ms):
    game = game_on_the_phone
    for round_ in range(1, 3):  # twice: the second double tap lands on a swapped console
        seen = double_tap(page, STROKE, gap_ms)
        if seen >= DOUBLE_TAP_MS:  # a busy machine clicked later than asked: two taps, not one
            pytest.skip(f"the second tap came {seen} ms after the first: not a double tap")
        page.wait_for_selector(f'#console[data-seq="{round_}"]')
        page.wait_for_timeout(800)  # anything the second tap sent has been answered by now
        assert recorded(game) == round_, f"a double tap {seen} ms apart recorded twice"
        assert page.locator('#console [role="alert"]').count() == 0  # and no error either
        page.wait_for_timeout(600)  # the next double tap is a new, deliberate one
    assert Game.objects.get(pk=game.pk).last_seq == 2


def test_two_deliberate_taps_a_second_apart_record_two_strokes(page, game_on_the_phone):
    game = game_on_the_phone
    double_tap(page, STROKE, 1000)
    page.wait_for_selector('#console[data-seq="2"]')
    assert recorded(game) == 2
    # different buttons in quick succession are two actions: both are recorded
    page.wait_for_timeout(600)
    page.click(STROKE)
    page.wait_for_selector('#console[data-seq="3"]')
    page.click('#console button[data-foul="miss"]')
    page.wait_for_selector('#console[data-seq="4"]')
    assert recorded(game) == 4


def test_a_tap_shows_as_pressed_before_the_answer_comes(page, game_on_the_phone):
    game = game_on_the_phone
    held = []
    page.route("**/record/", lambda route: held.append(route))  # the answer is on its way
    page.click(STROKE)
    assert "is-pressed" in page.get_attribute(STROKE, "class")
    assert page.evaluate(f"getComputedStyle(document.querySelector('{STROKE}')).filter") != "none"
    page.wait_for_timeout(100)
    held[0].continue_()
    page.wait_for_selector('#console[data-seq="1"]')
    assert recorded(game) == 1


def test_a_double_tap_on_undo_does_not_also_confirm_it(page, live_server, settings):
    settings.CONSOLE_POLL_SECONDS = 3600
    marker = phone_marker()
    game = cork_game(marker, table_number=5)
    services.record_event(game=game, expected_seq=0, event=rules.Event("stroke"), user=marker)
    open_console(page, live_server, Game.objects.get(pk=game.pk))
    page.evaluate(
        "() => { window.__swapped = null; window.__tapped = null;"
        " document.addEventListener('htmx:afterSwap', () => window.__swapped = performance.now());"
        " window.addEventListener('click', () => window.__tapped = performance.now(), true); }"
    )
    page.click("#console [data-undo]")
    page.wait_for_selector("#confirm-undo")
    # the finger's second tap lands on whatever the dialog put there: nothing happens
    page.click('#console .confirm button[type="submit"]')
    seen = round(page.evaluate("window.__tapped - window.__swapped"))
    if seen >= CONFIRM_GUARD_MS:  # a busy machine clicked later than a finger would
        pytest.skip(f"the second tap came {seen} ms after the dialog: not a double tap")
    page.wait_for_timeout(600)
    assert recorded(game) == 1, f"a tap {seen} ms after the dialog confirmed it"
    screenshot(page, "confirm-undo")
    page.click('#console .confirm button[type="submit"]')  # a deliberate tap confirms
    page.wait_for_selector('#console[data-seq="2"]')
    assert recorded(game) == 2


def test_after_a_tap_the_next_action_is_one_tab_away(page, game_on_the_phone):
    page.focus(STROKE)
    page.keyboard.press("Enter")
    page.wait_for_selector('#console[data-seq="1"]')
    assert page.evaluate("document.activeElement.id") == "console"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#console .actions') !== null"), (
        page.evaluate("document.activeElement.outerHTML")
    )


def test_the_clockwise_pot_button_says_which_pocket_it_records(page, live_server, settings):
    settings.CONSOLE_POLL_SECONDS = 3600
    marker = phone_marker()
    table = Table.objects.create(number=5)
    game = services.start_game(
        table=table, variant="clockwise", settings={}, seats=["Анна", "Борис"], marker=marker
    )
    events = [rules.Event("break"), rules.Event("nominate", pocket=rules.Pocket.NEAR_RIGHT)]
    pocket = rules.Pocket.NEAR_RIGHT
    for ball in range(1, 5):  # balls 1–4 into their pockets: ball 5 is on
        events.append(rules.Event("pot", ball=ball, pocket=pocket))
        pocket = pocket.next_clockwise()
    for event in events:
        game = services.record_event(
            game=game, expected_seq=game.last_seq, event=event, user=marker
        )
    designated = pocket  # ball 5's pocket: the far right corner
    open_console(page, live_server, game)
    button = page.locator('#console .action-pot button[data-kind="pot"]')
    assert button.inner_text() == "Шар 5 в лузе (дальняя правая угловая)"

    page.click('#console .action-pot label:has(input[value="far_left"])')
    assert button.inner_text() == (
        "Шар 5 в лузе (дальняя левая угловая) — не та луза: шар вернётся на стол"
    )
    assert "wrong-pocket" in button.get_attribute("class")
    screenshot(page, "clockwise-wrong-pocket")
    page.click(f'#console .action-pot label:has(input[value="{designated.value}"])')
    assert button.inner_text() == "Шар 5 в лузе (дальняя правая угловая)"
    assert "wrong-pocket" not in button.get_attribute("class")

    # what the button says is what is recorded
    page.click('#console .action-pot label:has(input[value="left_middle"])')
    assert "не та луза" in button.inner_text()
    button.click()
    page.wait_for_selector(f'#console[data-seq="{len(events) + 1}"]')
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert (last.kind, last.payload) == ("pot", {"ball": 5, "pocket": "left_middle"})
    assert "не в ту лузу" in page.inner_text("#console .log li:first-child") or (
        "левая средняя" in page.inner_text("#console .log li:first-child")
    )
    # the fresh console's button is back on the designated pocket of ball 5
    assert (
        page.locator('#console .action-pot button[data-kind="pot"]').inner_text()
        == "Шар 5 в лузе (дальняя правая угловая)"
    )


def test_the_strip_keeps_the_game_in_sight_while_scrolling(page, game_on_the_phone):
    page.click('#console button[data-foul="miss"]')  # Анна: a miss, −2
    page.wait_for_selector('#console[data-seq="1"]')
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down to the log
    page.wait_for_timeout(100)
    strip = page.locator("#console [data-strip]")
    box = strip.bounding_box()
    assert 0 <= box["y"] <= 2 and box["y"] + box["height"] <= PHONE["height"] / 3
    assert page.inner_text("#console [data-turn]") == "Борис"
    text = strip.inner_text()
    assert "Банк: 4" in text
    assert "Анна: Промах — штраф −2 = −1, банк 4" in text
    screenshot(page, "strip-scrolled")


def test_the_menu_is_for_fingers_and_log_out_is_away_from_new_game(page, game_on_the_phone):
    targets = page.locator(".site-header a, .site-header button")
    for i in range(targets.count()):
        box = targets.nth(i).bounding_box()
        assert box["height"] >= 44, targets.nth(i).inner_text()
    log_out = page.get_by_role("button", name="Выйти").bounding_box()
    new_game = page.get_by_role("link", name="Новая партия").bounding_box()
    # not side by side nor one just under the other: a slip of the finger cannot log out
    gap_x = max(
        log_out["x"] - (new_game["x"] + new_game["width"]),
        new_game["x"] - (log_out["x"] + log_out["width"]),
    )
    gap_y = max(
        log_out["y"] - (new_game["y"] + new_game["height"]),
        new_game["y"] - (log_out["y"] + log_out["height"]),
    )
    assert max(gap_x, gap_y) >= 44, (log_out, new_game)


WAKE_LOCK_STUB = """
window.__wakeLocks = [];
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
  request(type) {
    window.__wakeLocks.push(type);
    const sentinel = new EventTarget();
    sentinel.release = () => Promise.resolve();
    return Promise.resolve(sentinel);
  }
}});
"""


def hide_and_show(page):
    """The tab goes to the background and comes back (the browser drops the lock)."""
    for state in ("hidden", "visible"):
        page.evaluate(
            "s => { Object.defineProperty(document, 'visibilityState', {configurable: true,"
            " get: () => s}); document.dispatchEvent(new Event('visibilitychange')); }",
            state,
        )


@pytest.mark.parametrize("path", ["console", "/tables/5/board/", "/board/"])
def test_the_screen_stays_awake(page, live_server, path):
    game = cork_game(phone_marker(), table_number=5)
    page.add_init_script(WAKE_LOCK_STUB)
    if path == "console":
        open_console(page, live_server, game)
    else:
        page.goto(live_server.url + path)
    page.wait_for_function("() => window.__wakeLocks.length === 1")
    assert page.evaluate("window.__wakeLocks") == ["screen"]
    hide_and_show(page)
    page.wait_for_function("() => window.__wakeLocks.length === 2")
    assert page.evaluate("window.__wakeLocks") == ["screen", "screen"]


def test_nothing_breaks_without_the_wake_lock_api(page, live_server):
    game = cork_game(phone_marker(), table_number=5)
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    open_console(page, live_server, game)
    page.click(STROKE)
    page.wait_for_selector('#console[data-seq="1"]')
    page.goto(f"{live_server.url}/tables/5/board/")
    page.wait_for_timeout(300)
    assert errors == []
