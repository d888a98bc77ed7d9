"""Whether a table's light should be on: plain Python, no Django, no I/O.

The light is on while the table's time is being paid for — its clock runs — and for a grace
after the clock is paused or stopped (``delay``), so that a short pause does not leave the
players in the dark; at once off for a clock voided as started by mistake. An admin may light
a table without a clock for a limited time (cleaning, service): ``lit_until``.

>>> from datetime import datetime, timedelta
>>> now = datetime(2026, 12, 4, 21, 0)
>>> wanted_on(running=False, ended_at=now - timedelta(seconds=30), voided=False,
...           lit_until=None, now=now, delay=60)
True
>>> wanted_on(running=False, ended_at=now - timedelta(seconds=61), voided=False,
...           lit_until=None, now=now, delay=60)
False
"""

from datetime import datetime, timedelta


def wanted_on(
    *,
    running: bool,
    ended_at: datetime | None,
    voided: bool,
    lit_until: datetime | None,
    now: datetime,
    delay: float,
) -> bool:
    """``running``: the table's clock runs now; ``ended_at``: when its last stretch ended
    (paused, stopped or moved away); ``voided``: that session was voided."""
    if running or (lit_until is not None and lit_until > now):
        return True
    if ended_at is None or voided:
        return False
    return now < ended_at + timedelta(seconds=delay)
