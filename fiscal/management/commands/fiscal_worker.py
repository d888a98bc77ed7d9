"""``manage.py fiscal_worker``: the process that sends the receipts to the club's register.

It sends every waiting task in order, asks the register for its state (its shift, the
documents not sent to the OFD, its fiscal storage) every ``--state-every`` seconds, and
sleeps ``--every`` seconds between rounds. Several workers may run: a task is claimed before
it is sent, and a task posted before is asked about before it is posted again, so none is
made twice. While no register is chosen (the Django admin's Fiscal settings) it waits and
looks again. ``--once``: one round, then it ends (cron, tests).
"""

import signal
import threading
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from clubs.current import each_club
from fiscal import services


class Command(BaseCommand):
    help = "Send the waiting receipts to the club's cash register (fiscal/)."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="one round, then end")
        parser.add_argument("--every", type=float, default=2.0, help="seconds between rounds")
        parser.add_argument(
            "--state-every", type=float, default=30.0, help="seconds between state checks"
        )

    def handle(self, *args, once=False, every=2.0, state_every=30.0, **options):
        stop = threading.Event()
        if not once:
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, lambda *_args: stop.set())
        checked = {}  # club pk -> when its register's state was read last
        while True:
            for club in each_club():  # one worker for every club's register
                if not services.enabled():
                    if once:
                        self.stdout.write("Receipts are off: no cash register is chosen.")
                    continue
                if time.monotonic() - checked.get(club.pk, -state_every) >= state_every or once:
                    services.refresh_state()
                    checked[club.pk] = time.monotonic()
                result = services.drain()
                if result.done or once:
                    self.stdout.write(
                        f"made {result.done}, waiting {result.waiting}"
                        + (f" ({result.reason})" if result.reason and result.waiting else "")
                    )
            if once or stop.wait(every):
                return
            close_old_connections()  # between rounds: a connection gone stale is renewed
