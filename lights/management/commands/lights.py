"""``manage.py lights``: the process that drives the tables' light relays (lights/).

Started by ``make run`` beside the server and, in production, as a service of its own (the
production recipe in docs/operations.md shows its systemd unit). Without ``MQTT_URL`` it says
so and ends: lights are off. Of several such processes only one drives the relays
(``lights.leader``); the others wait to take over.
"""

import asyncio
import signal

from django.conf import settings
from django.core.management.base import BaseCommand

from lights.controller import Controller
from lights.drivers import driver_from_settings
from lights.leader import Leadership

STANDBY_SECONDS = 2  # a waiting process tries to take over this often


class Command(BaseCommand):
    help = "Drive the tables' light relays as their clocks say (needs MQTT_URL)."

    def handle(self, *args, **options):
        driver = driver_from_settings()
        if driver is None:
            self.stdout.write("Lights are off: MQTT_URL is not set.")
            return
        asyncio.run(self.serve(driver))

    async def serve(self, driver):
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        leadership = Leadership()
        controller = Controller(driver, guard=settings.LIGHT_GUARD)
        try:
            while not stop.is_set():
                if await asyncio.to_thread(leadership.acquire):
                    self.stdout.write(f"Driving the lights as {controller.name}.")
                    await controller.serve(stop)
                else:
                    try:
                        await asyncio.wait_for(stop.wait(), STANDBY_SECONDS)
                    except TimeoutError:
                        pass
        finally:
            leadership.release()
            await asyncio.to_thread(controller.close)
