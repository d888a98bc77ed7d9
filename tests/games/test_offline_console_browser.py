"""The offline console as the online one, tried in Chromium on a 360×740 phone (issue 31
items 1 and 2): until the rules engine is ready a tap is still kept, in order, and the
console says exactly that — its buttons never disabled; drawn offline, the actions are the
same buttons as online (a pyramid's pocketed balls: +1 … +6 buttons, not a number field);
the screen's status pill and the strip say «Нет связи» together; a stroke sent later keeps
the moment it was tapped."""

import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import selectors
from games.console import engine_catalog
from games.models import Event, Game
from games.rules import VARIANTS, offline
from tests.conftest import login as sign_in
from tests.factories import TableFactory, UserFactory, record, start
from tests.games.test_offline_through_views import random_events
from toolbox.roles import MARKERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
PASSWORD = "offline-cue-360"
NAMES = ["Константин Преображенский", "Борис", "Вера"]

# What a person can press or fill in an actions area, form by form, in order: the same
# list online and offline means the same buttons.
SIGNATURE = """
(root) => Array.from(root.querySelectorAll("form")).map((form) => {
  const kind = form.querySelector("input[type=hidden][name=kind]");
  const wrapper = form.closest("details, fieldset.action") || form;
  return {
    kind: kind ? kind.value : "",
    wrapper: wrapper.tagName + "." + Array.from(wrapper.classList).filter(
      (c) => !c.startsWith("action-")).sort().join("."),
    controls: Array.from(form.querySelectorAll("button, input:not([type=hidden]), select"))
      .map((el) => [el.tagName, el.type, el.name, el.value, !!el.disabled,
                    el.dataset.kind || "", el.textContent.trim()]),
  };
})
"""


def phone(browser):
    context = browser.new_context(viewport=PHONE, locale="ru-RU", service_workers="block")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"offline-console-{name}.png"), full_page=True)


def wait(page, expression, seconds=15):
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {expression}"
        page.wait_for_timeout(100)


def test_before_the_engine_is_ready_a_tap_offline_is_kept_and_the_console_stays_usable(
    browser, live_server
):
    """The engine never loads here (its worker is refused): the console is what a phone
    shows in its first seconds. Offline, every button still works, each tap is kept and
    the strip says so; the status pill says «Нет связи» as the strip does; back online, the
    strokes land in order, each with the moment it was tapped."""
    marker = UserFactory(username="first-phone", password=PASSWORD, groups=[MARKERS])
    game = start(TableFactory(number=1), "cork", NAMES, marker)
    context, page = phone(browser)
    context.route(re.compile(r"/marker/engine"), lambda route: route.abort())
    sign_in(page, live_server, "first-phone", PASSWORD)
    page.goto(f"{live_server.url}/marker/games/{game.pk}/")
    wait(page, "window.luzaOutbox && window.luzaOutbox.store().base !== null")
    assert not page.evaluate("window.luzaOutbox.ready()")
    pill = page.locator("[data-screen-status]")
    expect(pill).to_have_attribute("data-state", "live")

    context.set_offline(True)
    wait(page, "navigator.onLine === false")
    expect(pill).to_have_attribute("data-state", "offline")
    expect(pill.locator("[data-status=offline]")).to_have_text("Нет связи")
    expect(page.locator("#console button:disabled")).to_have_count(0)
    # Nothing tapped yet: nothing said to be kept.
    expect(page.locator("[data-strip-last]")).not_to_contain_text("Сохранено")

    tapped = []
    for number, selector in enumerate(
        ["#console button[data-kind=stroke]", "#console button[data-foul=miss]"], start=1
    ):
        tapped.append(time.time())
        page.click(selector)
        wait(page, f"document.body.dataset.queued === '{number}'")
        page.wait_for_timeout(1000)  # a tap a second
    expect(page.locator("#console button:disabled")).to_have_count(0)
    expect(page.locator("[data-strip-last]")).to_contain_text(
        "Сохранено (2) — появится, когда загрузятся правила"
    )
    expect(page.locator("[data-outbox-status]")).to_contain_text("Не отправлено (2)")
    expect(page.locator("[data-outbox-status]")).to_contain_text("Нет связи")
    screenshot(page, "kept-before-engine")
    assert not Event.objects.filter(game=game).exists()

    page.wait_for_timeout(2000)  # the strokes land later than they were tapped
    context.set_offline(False)
    wait(page, "document.body.dataset.queued === '0'", 20)
    expect(pill).not_to_have_attribute("data-state", "offline")
    page.wait_for_selector('#console[data-seq="2"]')
    expect(page.locator("#console button:disabled")).to_have_count(0)
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert [(e.seq, e.kind, e.payload) for e in events] == [
        (1, "stroke", {}),
        (2, "foul", {"fouls": ["miss"]}),
    ]
    for event, at in zip(events, tapped, strict=True):
        assert event.tapped_at is not None
        assert abs(event.tapped_at.timestamp() - at) < 1.5  # when it was tapped…
        assert (event.recorded_at - event.tapped_at).total_seconds() > 1.5  # …not landed
    assert Game.objects.get(pk=game.pk).last_seq == 2
    context.close()


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_drawn_offline_the_actions_are_the_buttons_online(browser, live_server, key):
    """For this game at its start and mid-game, the console drawn offline (from the actions
    the engine computes) offers exactly the online console's forms, buttons and fields."""
    variant = VARIANTS[key]
    marker = UserFactory(username="same-buttons", password=PASSWORD, groups=[MARKERS])
    context, page = phone(browser)
    sign_in(page, live_server, "same-buttons", PASSWORD)
    catalog = engine_catalog("ru")
    rng = random.Random(key)
    for number, length in enumerate([0, rng.randint(3, 25)], start=1):  # start, mid-game
        game = start(TableFactory(number=number), key, NAMES[: variant.min_seats], marker)
        events = random_events(variant, selectors.settings_of(game), rng, length)
        game = record(game, marker, *events)
        page.goto(f"{live_server.url}/marker/games/{game.pk}/")
        wait(page, "window.luzaOutbox !== undefined")
        online = page.evaluate(
            f"({SIGNATURE.strip()})(document.querySelector('#console .actions')"
            " || document.createElement('div'))"
        )
        names = [seat.name for seat in selectors.seats_of(game)]
        stored = [
            {"kind": kind, "payload": payload}
            for _seq, kind, payload, _by in selectors.offline_events(game)
        ]
        view = offline.console_view(key, game.settings, stored, names, catalog)
        drawn = page.evaluate(
            "(actions) => { const div = document.createElement('div');"
            " div.innerHTML = window.luzaOutbox.actionsHtml(actions);"
            " return (" + SIGNATURE.strip() + ")(div); }",
            view["actions"],
        )
        assert drawn == online, f"{key} after {len(events)} events"
        if number == 2:
            screenshot(page, f"{key}-online")
    context.close()


MID_RANGE_PHONE = {"rate": 4}  # Chromium's CPU throttled 4×
SLOW_NETWORK = {  # 1.6 Mbit/s both ways, 150 ms
    "offline": False,
    "latency": 150,
    "downloadThroughput": 200_000,
    "uploadThroughput": 200_000,
}


def test_a_console_opened_for_the_first_time_records_offline_three_seconds_later(
    browser, live_server
):
    """A phone that never opened the console (nothing cached, its service worker new), its
    CPU throttled 4× and its network slow: three seconds after the console was asked for,
    the Wi-Fi drops and the marker taps. The tap is kept (the engine may still be loading)
    and lands, once, when the network is back."""
    marker = UserFactory(username="new-phone", password=PASSWORD, groups=[MARKERS])
    game = start(TableFactory(number=1), "cork", NAMES, marker)
    context = browser.new_context(viewport=PHONE, locale="ru-RU", service_workers="allow")
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server, "new-phone", PASSWORD)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", MID_RANGE_PHONE)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)

    opened = time.monotonic()
    page.goto(f"{live_server.url}/marker/games/{game.pk}/", wait_until="commit")
    page.wait_for_selector("#console button[data-kind=stroke]")
    remaining = 3 - (time.monotonic() - opened)
    assert remaining > 0, f"the console took {3 - remaining:.1f} s to show its buttons"
    page.wait_for_timeout(remaining * 1000)
    cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK | {"offline": True})
    context.set_offline(True)
    wait(page, "navigator.onLine === false")
    page.click("#console button[data-kind=stroke]")
    wait(page, "document.body.dataset.queued === '1'", 5)
    page.wait_for_timeout(1000)  # a tap a second: the buttons still work
    page.click("#console button[data-foul=miss]", timeout=5000)
    wait(page, "document.body.dataset.queued === '2'", 5)
    screenshot(page, "first-visit-kept")
    assert not Event.objects.filter(game=game).exists()

    context.set_offline(False)
    cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
    wait(page, "document.body.dataset.queued === '0'", 30)
    landed = list(Event.objects.filter(game=game).values_list("seq", "kind"))
    assert landed == [(1, "stroke"), (2, "foul")]
    context.close()
