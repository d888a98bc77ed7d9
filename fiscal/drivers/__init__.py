"""The registers' one small interface. ATOL's driver web server (its JSON tasks over HTTP)
is the first implementation; another register is one more module here with the same
methods.

    driver.submit(request_id, request)  # posts a document (``fiscal.receipts`` request, or
                                        # {"type": "openShift"|"closeShift"|"reportX"}); a
                                        # request id the register already has is not an error
    driver.outcome(request_id)          # -> Outcome: "unknown" (never arrived), "pending",
                                        #    "done" (with its fiscal params) or "error"
    driver.status()                     # -> Status: its shift, the documents not sent to the
                                        #    OFD and the oldest one's date, its storage
    driver.run(request_id, request, timeout)   # submit, then wait for its outcome

Every method raises ``RegisterUnreachable`` when the register does not answer (off, the
network, a timeout): nothing is known then, and the caller asks again later.

A cloud register registered for internet payments may not fiscalize money paid at the
counter (the Ministry of Finance, 2022): such a driver, if one is added, is for money paid
online only.
"""

import time
from dataclasses import dataclass, field
from datetime import datetime

UNKNOWN, PENDING, DONE, ERROR = "unknown", "pending", "done", "error"

# Why a document was refused, as the desk says it (``fiscal.selectors.REASONS``).
OFFLINE = "offline"
PAPER = "paper"
SHIFT_EXPIRED = "shift_expired"
SHIFT_CLOSED = "shift_closed"
SHIFT_OPEN = "shift_open"
STORAGE = "storage"
OFD = "ofd"
REFUSED = "refused"


class RegisterUnreachable(Exception):
    """The register did not answer: nothing is known of the request."""


@dataclass(frozen=True)
class Outcome:
    state: str
    params: dict = field(default_factory=dict)  # fiscalParams when done
    reason: str = ""  # one of the reasons above when refused
    description: str = ""  # the register's own words
    code: int = 0


@dataclass(frozen=True)
class Status:
    shift_open: bool | None = None
    shift_number: int | None = None
    shift_expired: bool = False
    unsent_count: int | None = None
    oldest_unsent_at: datetime | None = None
    storage_warning: str = ""


class Driver:
    name = "?"

    def submit(self, request_id, request):
        raise NotImplementedError

    def outcome(self, request_id):
        raise NotImplementedError

    def status(self):
        raise NotImplementedError

    def run(self, request_id, request, timeout):
        """Posts the request unless the register has it, then waits for it to be done or
        refused; ``Outcome(PENDING)`` when ``timeout`` ran out first."""
        outcome = self.outcome(request_id)
        if outcome.state == UNKNOWN:
            self.submit(request_id, request)
        return self.wait(request_id, timeout)

    def wait(self, request_id, timeout, step=0.01):
        deadline = time.monotonic() + timeout
        while True:
            outcome = self.outcome(request_id)
            if outcome.state in (DONE, ERROR) or time.monotonic() >= deadline:
                return outcome
            time.sleep(min(step, max(deadline - time.monotonic(), 0)))
            step = min(step * 1.5, 0.25)


def driver_for(club):
    """The driver of the club's register (``FiscalSettings``), or None: receipts are off."""
    if not club.enabled:
        return None
    from fiscal.drivers.atol import AtolWebServer

    return AtolWebServer(club.atol_url, timeout=club.timeout_seconds)
