"""A pyramid game's table board on the hall's TV (1920×1080) beside a running table clock:
the table and the target stay in sight, not under the clock, and the handicap still
explains the result once the frame is over.

Screenshots go to test-artifacts/ (git-ignored): look at them.
"""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from billing import services as billing
from billing.demo import load_demo_tariffs
from tests.factories import TableFactory, UserFactory, ev, record, start
from toolbox.roles import CASHIERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NAMES = ["Константин Преображенский", "Андрей Васильев"]  # the demo's longest names


def overlap(a, b):
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_target_clears_the_clock_and_the_handicap_stays_at_the_end(
    page, live_server, marker_user
):
    load_demo_tariffs()
    table = TableFactory(number=2)
    cashier = UserFactory(username="cashier-board", groups=[CASHIERS])
    # prepaid time run out: the clock at its widest, with its warning
    started = datetime.now(UTC) - timedelta(minutes=75)
    billing.open_shift(user=cashier, opening_cash=0)  # prepaid time is paid up front
    tender = billing.Tender(method="cash", amount=None, receipt_number="1")
    billing.start_session(table=table, user=cashier, prepaid_minutes=60, tender=tender, at=started)
    game = start(table, "pyramid_combined", NAMES, marker_user, weaker_seat=0, returned_pots=2)
    strokes = [ev("pot", count=2), ev("stroke"), ev("pot", count=6), ev("stroke")]
    record(game, marker_user, *strokes, ev("pot", count=6))  # 8 : 4, two of B's returned
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/tables/2/board/")
    page.wait_for_selector("#board .banner-box")
    page.wait_for_timeout(300)  # the clock ticks in, the layout settles
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board-pyramid_combined-clock-end.png"))
    clock = page.locator(".board-clock").bounding_box()
    for part in (".board-meta .table-no", ".board-meta .target", ".variant-name"):
        assert not overlap(page.locator(part).bounding_box(), clock), part
    note = page.locator(".panel .handicap-note")
    assert note.is_visible()
    assert "Андрей Васильев: первые 2 забитых шара возвращаются" in note.inner_text()
    box = note.bounding_box()
    assert (
        box["y"] + box["height"]
        <= page.locator(".panel").bounding_box()["y"]
        + page.locator(".panel").bounding_box()["height"]
    )
