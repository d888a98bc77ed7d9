"""The lights follow the clock (issue 25), tested against a real MQTT broker with relays that
behave as Tasmota does: a clock started lights its table within a second of the commit, a
stop switches it off after the grace, a table lit by hand raises the alarm (and is switched
off under ``switch_off``), a relay that does not answer or goes offline is shown so, a broker
restarted mid-evening is reconciled, and of two controllers only one sends commands."""

import os
import subprocess
import sys
import time

import pytest
from django.db import connection, transaction
from django.urls import reverse

from billing.services import sessions
from lights import controller as controller_module
from lights import selectors
from lights.leader import Leadership
from lights.models import LightEvent, LightEventKind, LightOverride, LightState
from tests.bench.helpers import ROOT
from tests.factories import TableFactory, UserFactory
from tests.lights.conftest import needs_broker, needs_postgres
from tests.lights.tasmota import wait_until
from toolbox.roles import ADMINS, CASHIERS

pytestmark = [needs_broker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cashier():
    return UserFactory(username="light-cashier", groups=[CASHIERS])


def state(table):
    return LightState.objects.filter(table=table).first()


@needs_postgres
def test_the_light_follows_the_clock_within_a_second(lights_on, controller_on, relays, cashier):
    relay = relays()
    table = TableFactory(number=3, light_topic=relay.topic)
    controller_on()
    assert wait_until(lambda: relay.commands), "nothing sent on connecting"
    assert [c for _t, c in relay.commands] == ["OFF"]  # on connecting: set as the clock says
    committed = time.monotonic()
    session = sessions.start_session(table=table, user=cashier)
    assert wait_until(lambda: relay.on, 1.0), "not lit within a second of the commit"
    assert relay.commands[-1][0] - committed < 1.0
    session = sessions.pause_session(session=session, user=cashier)
    assert wait_until(lambda: not relay.on, 1.0)  # grace 0: at once
    session = sessions.resume_session(session=session, user=cashier)
    assert wait_until(lambda: relay.on, 1.0)
    sessions.stop_session(session=session, user=cashier)
    assert wait_until(lambda: not relay.on, 1.0)
    assert wait_until(lambda: state(table) and state(table).on is False)
    assert [c for _t, c in relay.commands] == ["OFF", "ON", "OFF", "ON", "OFF"]  # one each


@needs_postgres
def test_a_pause_keeps_the_light_for_the_grace_and_a_resume_cancels_it(
    lights_on, controller_on, relays, cashier
):
    lights_on.LIGHT_OFF_DELAY_SECONDS = 2
    relay = relays()
    table = TableFactory(number=4, light_topic=relay.topic)
    controller_on()
    session = sessions.start_session(table=table, user=cashier)
    assert wait_until(lambda: relay.on, 2)
    session = sessions.pause_session(session=session, user=cashier)
    time.sleep(1.0)
    assert relay.on  # within the grace
    sessions.resume_session(session=session, user=cashier)
    time.sleep(1.5)
    assert relay.on and relay.commands[-1][1] == "ON"  # never switched off
    session = sessions.pause_session(session=session, user=cashier)
    assert wait_until(lambda: not relay.on, 3.5)


@needs_postgres
def test_no_command_for_a_clock_that_was_rolled_back(lights_on, controller_on, relays, cashier):
    relay = relays()
    table = TableFactory(number=5, light_topic=relay.topic)
    controller_on()
    assert wait_until(lambda: relay.commands)
    with pytest.raises(RuntimeError), transaction.atomic():
        sessions.start_session(table=table, user=cashier)
        raise RuntimeError("the write fails after the clock started")
    time.sleep(1.5)
    assert not relay.on and [c for _t, c in relay.commands] == ["OFF"]


@needs_postgres
@pytest.mark.parametrize("guard", ["warn", "switch_off"])
def test_a_table_lit_by_hand_raises_the_alarm(lights_on, controller_on, relays, guard):
    lights_on.LIGHT_GUARD = guard
    relay = relays()
    table = TableFactory(number=6, light_topic=relay.topic)
    controller_on(guard=guard)
    assert wait_until(lambda: relay.commands)
    relay.press(True)  # someone at the wall
    assert wait_until(lambda: state(table) and state(table).alarm_since is not None)
    assert LightEvent.objects.filter(table=table, kind=LightEventKind.ALARM).count() == 1
    assert selectors.lights_by_table()[6].status == "alarm"
    if guard == "switch_off":
        assert wait_until(lambda: not relay.on, 2)
        assert LightEvent.objects.filter(kind=LightEventKind.SWITCHED_OFF).count() == 1
        assert wait_until(lambda: state(table).alarm_since is None)
    else:
        time.sleep(1.5)
        assert relay.on  # the club only wants to know
        relay.press(False)
        assert wait_until(lambda: state(table).alarm_since is None)


@needs_postgres
def test_a_relay_that_does_not_answer_is_shown_so(
    lights_on, controller_on, relays, cashier, monkeypatch
):
    monkeypatch.setattr(controller_module, "CONFIRM_SECONDS", 0.3)
    relay = relays(answers=False)
    table = TableFactory(number=7, light_topic=relay.topic)
    controller_on()
    sessions.start_session(table=table, user=cashier)
    assert wait_until(lambda: state(table) and not state(table).answering, 5)
    assert len([c for _t, c in relay.commands if c == "ON"]) == controller_module.TRIES
    assert selectors.lights_by_table()[7].status == "not_answering"
    assert LightEvent.objects.filter(kind=LightEventKind.NOT_ANSWERING).count() == 1


@needs_postgres
def test_a_relay_gone_offline_is_shown_so(lights_on, controller_on, relays):
    relay = relays()
    table = TableFactory(number=8, light_topic=relay.topic)
    controller_on()
    assert wait_until(lambda: state(table) and state(table).online is True)
    relay.client.socket().close()  # its connection dies: the broker sends its last will
    assert wait_until(lambda: state(table).online is False, 15)
    assert selectors.lights_by_table()[8].status == "offline"


@needs_postgres
def test_a_relay_heard_before_its_table_is_read_is_shown_online(lights_on, controller_on, relays):
    """A relay's retained will («Online») reaches the controller once, as it subscribes,
    possibly before it has read which table the relay is on: it is kept till then."""
    relay = relays()
    controller_on()
    table = TableFactory(number=14, light_topic=relay.topic)  # after the will was heard
    assert wait_until(lambda: state(table) and state(table).online is True)


@needs_postgres
def test_a_broker_restarted_mid_evening_is_reconciled(
    lights_on, controller_on, relays, cashier, private_broker
):
    port = private_broker["port"]
    relay = relays(port=port)
    table = TableFactory(number=9, light_topic=relay.topic)
    controller_on(port=port)
    session = sessions.start_session(table=table, user=cashier)
    assert wait_until(lambda: relay.on, 1.5)
    private_broker["stop"]()
    assert wait_until(lambda: not selectors.controlled(), 5)  # the desk says so
    sessions.stop_session(session=session, user=cashier)  # the clocks go on meanwhile
    private_broker["start"]()
    assert relay.wait_connected(15)
    assert wait_until(lambda: not relay.on, 15), "not set as the clock says on reconnecting"
    assert wait_until(selectors.controlled, 10)


def test_of_two_controllers_only_one_drives_the_relays():
    first, second = Leadership(), Leadership()
    try:
        assert first.acquire()
        assert not second.acquire()
        first.release()
        assert second.acquire()
    finally:
        first.release()
        second.release()


@needs_postgres
def test_two_lights_processes_send_one_command_per_change(lights_on, relays, cashier):
    relay = relays()
    table = TableFactory(number=10, light_topic=relay.topic)
    env = dict(
        os.environ,
        DATABASE_URL=_database_url(),
        MQTT_URL="mqtt://127.0.0.1:1883",
        LIGHT_OFF_DELAY_SECONDS="0",
        DB_POOL_SIZE="0",
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "manage.py", "lights"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    try:
        assert wait_until(lambda: relay.commands, 15)
        session = sessions.start_session(table=table, user=cashier)
        assert wait_until(lambda: relay.on, 5)
        sessions.stop_session(session=session, user=cashier)
        assert wait_until(lambda: not relay.on, 5)
        time.sleep(1.5)
        assert [c for _t, c in relay.commands] == ["OFF", "ON", "OFF"]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(10)


def _database_url():
    settings = connection.settings_dict
    host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{settings['USER']}@{host}:{port}/{settings['NAME']}"


# --- the pages -----------------------------------------------------------------------------


@needs_postgres
def test_an_admin_lights_a_table_for_cleaning_with_a_reason(
    lights_on, controller_on, relays, client, cashier
):
    relay = relays()
    TableFactory(number=11, light_topic=relay.topic)
    controller_on()
    admin = UserFactory(username="light-admin", groups=[ADMINS])
    url = reverse("lights:light", args=[11])
    client.force_login(cashier)
    assert client.post(url, {"minutes": "20", "reason": "уборка"}).status_code == 403
    client.force_login(admin)
    assert client.post(url, {"minutes": "20", "reason": " "}).status_code == 400
    assert client.post(url, {"minutes": "٢٠", "reason": "уборка"}).status_code == 400
    assert client.post(url, {"minutes": "20", "reason": "уборка"}).status_code == 302
    assert wait_until(lambda: relay.on, 2)
    event = LightEvent.objects.get(kind=LightEventKind.OVERRIDE)
    assert (event.username, event.reason) == ("light-admin", "уборка")
    assert LightOverride.objects.get().until > event.at
    page = client.get(reverse("lights:lights")).content.decode()
    assert "уборка" in page and relay.topic in page


def test_the_desk_and_the_home_page_show_each_light(lights_on, client, cashier):
    table = TableFactory(number=12, light_topic="table12")
    LightState.objects.create(table=table, on=True, online=True)
    client.force_login(cashier)
    desk = client.get(reverse("billing:desk")).content.decode()
    assert 'id="light-12"' in desk and reverse("lights:badges") in desk
    home = client.get(reverse("home")).content.decode()
    assert 'id="light-12"' in home
    badges = client.get(reverse("lights:badges")).content.decode()
    assert 'id="light-12" class="light-badge light-on" hx-swap-oob="true"' in badges
    # No controller has said it holds the broker: the pages say the lights are not controlled.
    assert "Светом над столами сейчас никто не управляет" in badges


def test_without_mqtt_url_nothing_of_the_lights_shows(settings, client, cashier):
    settings.MQTT_URL = ""
    TableFactory(number=13, light_topic="table13")
    client.force_login(cashier)
    assert "light-13" not in client.get(reverse("billing:desk")).content.decode()
    out = subprocess.run(
        [sys.executable, "manage.py", "lights"],
        cwd=ROOT,
        env=dict(os.environ, MQTT_URL=""),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Lights are off" in out.stdout
