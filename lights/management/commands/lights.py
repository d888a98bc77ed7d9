"""``manage.py lights``: the process that drives the tables' light relays (lights/).

Started by ``make run`` beside the server and, in production, as a service of its own (the
production recipe in docs/operations.md shows its systemd unit). Without ``MQTT_URL`` it says
so and ends: lights are off. Of several such processes only one drives the relays
(``lights.leader``); the others wait to take over. On a site of several clubs each club has
its controller: ``manage.py lights --club sokol.example`` (its host name or short name).
"""

import asyncio
import signal

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from clubs.current import club_for_host, only_club, using_club
from clubs.models import Club
from lights.controller import Controller
from lights.drivers import driver_from_settings
from lights.leader import Leadership

STANDBY_SECONDS = 2  # a waiting process tries to take over this often


class Command(BaseCommand):
    help = "Drive the tables' light relays as their clocks say (needs MQTT_URL)."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's host name or short name (several clubs)")

    def handle(self, *args, **options):
        driver = driver_from_settings()
        if driver is None:
            self.stdout.write("Lights are off: MQTT_URL is not set.")
            return
        club = self.club(options["club"])
        with using_club(club):
            asyncio.run(self.serve(driver, club.pk))

    def club(self, name):
        if name:
            club = Club.objects.filter(slug=name).first() or club_for_host(name)
            if club is None:
                raise CommandError(f"No club {name!r} (its host name or short name).")
            return club
        club = only_club()
        if club is None:
            raise CommandError(
                "This site has several clubs: run one controller per club, "
                "manage.py lights --club <host name>."
            )
        return club

    async def serve(self, driver, club_pk=0):
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        leadership = Leadership(club_pk)
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
