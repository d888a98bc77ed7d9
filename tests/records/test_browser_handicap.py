"""In a real browser: the start form shows the suggested handicap and the marker accepts it."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games.models import Game
from tables.models import Table
from tests.conftest import login as sign_in
from tests.factories import T0, cue_run_stats, finished, player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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
