"""The lights' tests talk to a real MQTT broker (Mosquitto: the machine's on 1883, or one of
their own) through the controller, with relays that behave as Tasmota does."""

import asyncio
import shutil
import socket
import subprocess
import threading
import time

import pytest
from django.db import connection, connections

from lights.controller import Controller
from lights.drivers.mqtt import TasmotaMqtt
from tests.helpers import reachable
from tests.lights.tasmota import TasmotaRelay

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


needs_broker = pytest.mark.skipif(not reachable(1883), reason="no MQTT broker on 1883")
# The controller reads the clocks from a thread of its own while the test writes them:
# SQLite's in-memory test database locks its tables then; PostgreSQL (CI) does not.
needs_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the controller's thread needs PostgreSQL"
)


class Running:
    """A Controller serving in a thread (with its own event loop), as ``manage.py lights``."""

    def __init__(self, controller):
        self.controller = controller
        self.loop = asyncio.new_event_loop()
        self.stop = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        asyncio.set_event_loop(self.loop)

        async def main():
            self.stop = asyncio.Event()
            await self.controller.serve(self.stop)

        try:
            self.loop.run_until_complete(main())
        finally:
            self.controller.close()
            connections.close_all()

    def start(self):
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.controller.connected and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def close(self):
        if self.stop is not None:
            self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(15)


@pytest.fixture
def lights_on(settings, transactional_db):
    settings.MQTT_URL = "mqtt://127.0.0.1:1883"
    settings.LIGHT_OFF_DELAY_SECONDS = 0
    settings.LIGHT_GUARD = "warn"
    return settings


@pytest.fixture
def controller_on():
    """Starts controllers on a broker port; stops them after the test."""
    running = []

    def start(port=1883, guard="warn"):
        controller = Controller(TasmotaMqtt(f"mqtt://127.0.0.1:{port}"), guard=guard)
        running.append(Running(controller).start())
        return running[-1].controller

    yield start
    for each in running:
        each.close()


@pytest.fixture
def relays():
    made = []

    def make(**kwargs):
        made.append(TasmotaRelay(**kwargs).start())
        return made[-1]

    yield make
    for relay in made:
        relay.stop()


@pytest.fixture
def private_broker():
    """A Mosquitto of the test's own on a free port, to stop and start again."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    broker = {"port": port, "process": None}

    def start():
        broker["process"] = subprocess.Popen(
            [MOSQUITTO, "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 5
        while not reachable(port) and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop():
        broker["process"].terminate()
        broker["process"].wait(5)

    broker["start"], broker["stop"] = start, stop
    start()
    yield broker
    if broker["process"].poll() is None:
        stop()
