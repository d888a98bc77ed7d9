"""The marker's console in a real browser on a phone: start a cork game and play it by taps.

Screenshots go to test-artifacts/ (git-ignored) so that a person can look at the phone.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import rules, services
from games.models import Game, GameStatus
from players.models import Player
from tables.models import Table
from tests.conftest import login as sign_in
from tests.factories import TableFactory, UserFactory, start
from toolbox.roles import MARKERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
PASSWORD = "cue-and-cork-360"


def no_horizontal_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"


def phone_marker():
    return UserFactory(username="marker-phone", password=PASSWORD, groups=[MARKERS])


def cork_game(marker, table_number):
    return start(TableFactory(number=table_number), "cork", ["Анна", "Борис"], marker)


def tap(page, selector, seq):
    """Taps a console button and waits for the console showing event ``seq``."""
    page.click(selector)
    page.wait_for_selector(f'#console[data-seq="{seq}"]')


def scores(page):
    """The scoreboard's scores (a negative one is written with U+2212, «−2»)."""
    texts = page.locator("#console [data-score]").all_inner_texts()
    assert not any(text.startswith("-") for text in texts), texts
    return [int(text.replace("\u2212", "-")) for text in texts]


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"console-{name}.png"), full_page=True)


def test_a_short_cork_game_tapped_on_a_phone(page, live_server, settings):
    settings.CONSOLE_POLL_SECONDS = 3600  # the other marker's stroke must meet a stale tap
    marker = phone_marker()
    Table.objects.create(number=4, name="У бара")
    anna = Player.objects.create(full_name="Анна Лебедева")
    Player.objects.create(full_name="Борис Котов")
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "marker-phone", PASSWORD)

    # The table's marker page: no game yet, so the start form with the defaults prefilled.
    page.goto(f"{live_server.url}/marker/tables/4/")
    assert page.input_value("input[name=s_target]") == "100"
    no_horizontal_scroll(page)
    page.fill("input[name=q]", "лебе")  # as the marker types, the roster is searched
    page.click(f'button[value="add:{anna.pk}"]')
    page.wait_for_selector(f'#seats input[value="p:{anna.pk}"]', state="attached")
    page.fill("input[name=q]", "Бор")
    page.click('#player-results button[value^="add:"]')
    page.wait_for_selector("#seats li:nth-child(2)")
    page.fill("input[name=guest]", "Гость Виктор")
    page.click('button[value="guest"]')
    page.wait_for_selector("#seats li:nth-child(3)")
    page.click('button[value="up:2"]')  # the guest plays second
    page.wait_for_selector('#seats li:nth-child(2) input[value="g:Гость Виктор"]', state="attached")
    page.fill("input[name=s_target]", "5")
    # Leave the number box first: its blur shifts Chromium's layout mid-click.
    page.locator("input[name=s_target]").blur()
    no_horizontal_scroll(page)
    screenshot(page, "start")
    page.click('button[value="start"]')
    page.wait_for_selector('#console[data-seq="0"]')
    game = Game.objects.get(status=GameStatus.IN_PROGRESS)
    assert [s.name for s in game.seats.order_by("position")] == [
        "Анна Лебедева",
        "Гость Виктор",
        "Борис Котов",
    ]
    assert game.settings == {"players": 3, "target": 5}
    no_horizontal_scroll(page)

    # Anna: no score. The guest: a miss (−3, bank 6).
    tap(page, 'button.action-button[data-kind="stroke"]', 1)
    tap(page, 'button[data-foul="miss"]', 2)
    assert scores(page) == [1, -2, 1]
    assert page.inner_text("#console [data-figure]") == "6"
    screenshot(page, "playing")

    # Undo shows what it undoes before asking; then the foul is gone (and stays in the log).
    tap(page, "[data-undo]", 2)
    page.wait_for_selector("#confirm-undo")
    assert "−3" in page.inner_text("#confirm-undo")
    page.wait_for_timeout(450)  # the marker reads the question (earlier taps are ignored)
    tap(page, '#console .confirm button[type="submit"]', 3)
    assert scores(page) == [1, 1, 1]
    assert page.locator("#console .log del").count() == 1

    # Another marker records a stroke meanwhile, right after the undo's swap: this phone's
    # console hears of it at once (its stream) and shows it, before a tap could go out stale.
    services.record_event(
        game=game, expected_seq=3, event=rules.Event("foul", fouls=("miss",)), user=marker
    )
    page.wait_for_selector('#console[data-seq="4"]', timeout=3000)
    game.refresh_from_db()
    assert game.last_seq == 4  # the other marker's stroke, and nothing from a stale tap
    assert scores(page) == [1, -2, 1]
    no_horizontal_scroll(page)

    # Boris knocks the cork down: 1 + 6 = 7 ≥ 5, he wins.
    tap(page, 'button.action-button[data-kind="score"]', 5)
    assert page.locator("#console .outcome").count() == 1
    screenshot(page, "over")
    page.click("[data-finish]")
    page.wait_for_url(f"**/marker/games/{game.pk}/result/")
    assert "Борис Котов" in page.inner_text(".result")
    no_horizontal_scroll(page)
    page.click(f'form[action="/marker/games/{game.pk}/rematch/"] button')
    page.wait_for_selector('#console[data-seq="0"]')
    rematch = Game.objects.get(status=GameStatus.IN_PROGRESS)
    assert rematch.rematch_of_id == game.pk
    assert [s.name for s in rematch.seats.order_by("position")] == [
        "Анна Лебедева",
        "Гость Виктор",
        "Борис Котов",
    ]


@pytest.mark.parametrize(
    ("variant", "events"),
    [
        ("cork", []),
        ("clockwise", [rules.Event("break")]),  # the nomination: six pocket buttons
        (
            "clockwise",
            [rules.Event("break"), rules.Event("nominate", pocket=rules.Pocket.FAR_LEFT)],
        ),
        ("cue_run", [rules.Event("pot")] * 3),
        ("cue_vs_hand", [rules.Event("stroke")]),
    ],
)
def test_every_games_console_fits_a_phone(page, live_server, variant, events):
    marker = phone_marker()
    table = Table.objects.create(number=7)
    names = ["Константин Длиннофамильный-Перепёлкин", "Аркадий Сверхдлинноименный"]
    game = services.start_game(
        table=table, variant=variant, settings={}, seats=names, marker=marker
    )
    for event in events:
        game = services.record_event(
            game=game, expected_seq=game.last_seq, event=event, user=marker
        )
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "marker-phone", PASSWORD)
    page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    page.wait_for_selector(f'#console[data-seq="{len(events)}"]')
    no_horizontal_scroll(page)
    for details in page.locator("#console details").all():
        details.evaluate("d => d.open = true")
    no_horizontal_scroll(page)
    screenshot(page, f"{variant}-{len(events)}")


def test_a_console_left_open_follows_the_marker_on_another_device(browser, live_server, settings):
    settings.CONSOLE_POLL_SECONDS = 1
    marker = phone_marker()
    game = cork_game(marker, table_number=2)
    contexts = [browser.new_context(locale="ru-RU") for _ in range(2)]
    try:
        tablet, phone = (context.new_page() for context in contexts)
        for device in (tablet, phone):
            device.set_default_timeout(10_000)
            sign_in(device, live_server, "marker-phone", PASSWORD)
            device.goto(f"{live_server.url}/marker/games/{game.pk}/")
            device.wait_for_selector('#console[data-seq="0"]')

        tap(phone, 'button[data-foul="miss"]', 1)  # the phone records a miss…
        tablet.wait_for_selector('#console[data-seq="1"]', timeout=5_000)  # …the tablet too
        assert scores(tablet) == scores(phone) != [1, 1]
        # and the tablet's next tap is recorded, not refused as stale
        tap(tablet, 'button.action-button[data-kind="stroke"]', 2)
        assert tablet.locator('#console .message.error[role="alert"]').count() == 0
        assert Game.objects.get(pk=game.pk).last_seq == 2
    finally:
        for context in contexts:
            context.close()


def test_a_push_that_comes_while_a_tap_is_in_flight_is_not_lost(page, live_server, settings):
    """The other marker records a stroke while this console's own tap is on its way back:
    the push comes before that tap's answer; once the answer is in, the console asks and
    shows the other stroke too (it used to drop that push and show a stale game)."""
    settings.CONSOLE_POLL_SECONDS = 3600  # only the push can bring the other stroke
    marker = phone_marker()
    game = cork_game(marker, table_number=6)
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "marker-phone", PASSWORD)
    page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    expect(page.locator("body")).to_have_class(re.compile(r"\bstreaming\b"))

    def answer_late(route):
        answer = route.fetch()  # this tap is recorded (event 1)…
        services.record_event(  # …the other marker records event 2…
            game=game, expected_seq=1, event=rules.Event("foul", fouls=("miss",)), user=marker
        )
        page.wait_for_timeout(500)  # …and its push reaches the phone first
        route.fulfill(response=answer)

    page.route("**/record/", answer_late)
    page.click('button.action-button[data-kind="stroke"]')
    page.wait_for_selector('#console[data-seq="2"]', timeout=5000)
    assert page.locator('#console .message.error[role="alert"]').count() == 0
    assert Game.objects.get(pk=game.pk).last_seq == 2


def test_a_tap_that_fails_says_so_and_a_dropped_one_is_kept_and_sent(page, live_server, settings):
    settings.CONSOLE_POLL_SECONDS = 3600  # only the taps talk to the server here
    marker = phone_marker()
    game = cork_game(marker, table_number=6)
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "marker-phone", PASSWORD)
    page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    page.wait_for_selector('#console[data-seq="0"]')
    banner = page.locator("#request-failed")
    assert banner.is_hidden()
    record = f"**/marker/games/{game.pk}/record/"

    page.route(record, lambda route: route.fulfill(status=500, body="Server Error"))
    page.click('button.action-button[data-kind="stroke"]')
    banner.wait_for(state="visible")
    assert banner.inner_text() == (
        "Сервер не смог это сделать; ничего не изменилось. Попробуйте ещё раз. (500)"
    )
    page.unroute(record)

    page.route(record, lambda route: route.abort())  # the Wi-Fi drops
    page.click('button.action-button[data-kind="stroke"]')
    # (expect, not wait_for_function: that polls by eval, which the CSP forbids)
    expect(page.locator("#request-failed")).to_have_text(re.compile(r"^Нет связи"))
    # Issue 23: the stroke is not lost, it waits on the phone (static/js/outbox.js) …
    expect(page.locator("#console [data-outbox-status]")).to_contain_text("Не отправлено (1)")
    assert Game.objects.get(pk=game.pk).last_seq == 0
    page.unroute(record)

    # … and lands by itself once the network is back, once; the next tap goes as usual.
    page.wait_for_selector('#console[data-seq="1"]:not([data-offline])', timeout=30_000)
    assert Game.objects.get(pk=game.pk).last_seq == 1
    page.wait_for_timeout(700)  # a person's pace: past the double-tap guard
    tap(page, 'button.action-button[data-kind="stroke"]', 2)
    assert banner.is_hidden()
    assert Game.objects.get(pk=game.pk).last_seq == 2


def within_the_screen(page, selector):
    """The element is on the phone's screen (not above or below it)."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_refusal_is_in_sight_on_a_phone(page, live_server):
    """Issue 22 item 3: a refused start form said why 190–490 px above the screen, at the
    form's top, while the marker had tapped «Начать партию» at its bottom; so did a refused
    match. The reason is brought into sight; a refused stroke says it in the sticky strip."""
    phone_marker()
    Table.objects.create(number=5)
    anna = Player.objects.create(full_name="Анна Лебедева")
    playing = services.start_game(
        table=TableFactory(number=6), variant="cork", settings={}, seats=[anna, "Гость"],
        marker=None,
    )  # fmt: skip
    page.set_viewport_size(PHONE)
    sign_in(page, live_server, "marker-phone", PASSWORD)

    page.goto(f"{live_server.url}/marker/tables/5/")
    page.select_option("select[name=variant]", "pyramid_free")
    page.wait_for_selector("select[name=s_foul_model]")  # the game's settings: a long form
    page.fill("input[name=q]", "Лебед")
    page.click(f'button[value="add:{anna.pk}"]')
    page.wait_for_selector(f'#seats input[value="p:{anna.pk}"]', state="attached")
    page.fill("input[name=guest]", "Гость Виктор")
    page.click('button[value="guest"]')
    page.wait_for_selector("#seats li:nth-child(2)")
    page.locator('button[value="start"]').scroll_into_view_if_needed()
    page.click('button[value="start"]')
    error = "#start-form .errorlist, #start-form .errors"
    page.wait_for_selector(error)
    page.wait_for_timeout(300)
    assert "уже играет за столом 6" in page.inner_text(error)
    assert within_the_screen(page, error)
    screenshot(page, "refused-start")
    assert Game.objects.filter(status=GameStatus.IN_PROGRESS).count() == 1

    # A match of the same players: refused as well, and the reason in sight.
    page.goto(f"{live_server.url}/marker/matches/new/?table=5")
    page.fill("input[name=q]", "Лебед")
    page.click(f'button[value="add:{anna.pk}"]')
    page.wait_for_selector(f'#seats input[value="p:{anna.pk}"]', state="attached")
    page.fill("input[name=guest]", "Гость Виктор")
    page.click('button[value="guest"]')
    page.wait_for_selector("#seats li:nth-child(2)")
    page.locator("[data-start-match]").scroll_into_view_if_needed()
    page.click("[data-start-match]")
    error = "#match-form .errorlist, #match-form .errors"
    page.wait_for_selector(error)
    page.wait_for_timeout(300)
    assert "играет" in page.inner_text(error)
    assert within_the_screen(page, error)
    screenshot(page, "refused-match")

    # A stroke the server refuses (a console out of step with the game): its sticky strip.
    page.goto(f"{live_server.url}/marker/games/{playing.pk}/")
    page.wait_for_selector('#console[data-seq="0"]')
    page.locator('button[data-foul="miss"]').scroll_into_view_if_needed()
    page.evaluate(
        """() => document.querySelectorAll('#console input[name="seq"]')
                 .forEach((seq) => { seq.value = "7"; })"""
    )
    page.click('button[data-foul="miss"]')
    alert = "#console [data-strip] [role=alert]"
    page.wait_for_selector(alert)
    assert within_the_screen(page, alert)
    screenshot(page, "refused-stroke")
    assert Game.objects.get(pk=playing.pk).last_seq == 0
