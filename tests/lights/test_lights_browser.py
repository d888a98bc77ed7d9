"""The cashier's desk at 1366×768 shows each table's light, live: a relay lit by hand turns
its table's badge into the alarm within a few seconds, without a reload."""

from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.scoping import club_in_scope
from lights.models import LightController, LightState
from tests.conftest import login
from tests.factories import TableFactory, UserFactory
from toolbox.roles import CASHIERS

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_desk_shows_each_light_and_the_alarm_live(page, live_server, settings):
    settings.MQTT_URL = "mqtt://127.0.0.1:1883"
    UserFactory(username="kassa", groups=[CASHIERS])
    lit = TableFactory(number=1, light_topic="table1")
    dark = TableFactory(number=2, light_topic="table2")
    LightState.objects.create(table=lit, on=True, online=True)
    LightState.objects.create(table=dark, on=False, online=True)
    LightController.objects.create(pk=club_in_scope().pk, connected=True, seen_at=timezone.now())
    page.set_viewport_size({"width": 1366, "height": 768})
    login(page, live_server, "kassa")
    page.goto(f"{live_server.url}/billing/desk/")
    expect(page.locator("#light-1")).to_have_text("свет горит")
    expect(page.locator("#light-2")).to_have_text("свет выключен")
    expect(page.locator("#lights-status")).to_be_hidden()
    # Someone switches table 2 on at the wall: the controller stores the alarm.
    LightState.objects.filter(table=dark).update(on=True, alarm_since=timezone.now())
    expect(page.locator("#light-2")).to_have_text("горит без часов!", timeout=6000)
    expect(page.locator("#light-2")).to_have_class("light-badge light-alarm")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lights-desk-alarm.png"))
    # The controller goes quiet: the desk says the lights are not controlled.
    LightController.objects.filter(pk=club_in_scope().pk).update(connected=False)
    expect(page.locator("#lights-status")).to_be_visible(timeout=6000)
