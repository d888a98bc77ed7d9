"""The tournament clock: when a match in play is slow, and when the evening should end.

Plain Python (no Django, no I/O), listed with the pure engines in ``.importlinter``.

A race to N lasts at most 2N − 1 frames (fewer with head starts: the frames both still had to
win, less one). A match is *slow* (a warning) past ``WARN_MINUTES`` per frame it can last,
and *too slow* (an alarm) past ``ALARM_MINUTES``: a race to 3 warns after 7 × 5 = 35 minutes
and alarms after 10 × 5 = 50.

>>> thresholds(3)
(35, 50)
>>> level(36 * 60, 3), level(51 * 60, 3), level(10 * 60, 3)
('warn', 'alarm', '')

The evening's end is predicted by laying the matches left on the tables, in the desk's
order, each table taking the first match it can (its players free, the matches it waits for
over), each match lasting its expected minutes (``predicted_end``).

>>> from datetime import datetime, timedelta
>>> now = datetime(2026, 12, 4, 19, 0)
>>> jobs = [Job("a", 30), Job("b", 30), Job("final", 40, after=("a", "b"))]
>>> predicted_end(now, [now, now], jobs) - now == timedelta(minutes=70)
True
"""

import heapq
from dataclasses import dataclass
from datetime import datetime, timedelta

# The defaults, minutes per frame a race can last (the one place they are set).
WARN_MINUTES = 7
ALARM_MINUTES = 10

WARN, ALARM = "warn", "alarm"


def max_frames(race_to, head_start_a=0, head_start_b=0):
    """The most frames a race to N can last: 2N − 1, less the head starts (at least 1)."""
    return max((race_to - head_start_a) + (race_to - head_start_b) - 1, 1)


def thresholds(race_to, head_start_a=0, head_start_b=0, warn=WARN_MINUTES, alarm=ALARM_MINUTES):
    """(warning, alarm) in minutes for a race to ``race_to``: ``warn`` and ``alarm`` minutes
    per frame the race can last."""
    frames = max_frames(race_to, head_start_a, head_start_b)
    return warn * frames, alarm * frames


def level(elapsed_seconds, race_to, head_start_a=0, head_start_b=0, **per_frame):
    """ "" (on time), ``WARN`` (slow) or ``ALARM`` (too slow) for a match in play for
    ``elapsed_seconds``: past a threshold, not at it."""
    warn, alarm = thresholds(race_to, head_start_a, head_start_b, **per_frame)
    if elapsed_seconds > alarm * 60:
        return ALARM
    if elapsed_seconds > warn * 60:
        return WARN
    return ""


@dataclass(frozen=True)
class Job:
    """A match still to play: its expected ``minutes``, the keys of the matches it waits for
    (``after``: whose winners or losers it takes; one not among the jobs is over already),
    its players (``people``: a player plays one match at a time) and the moment it can start
    at the earliest (``ready_at``: its players busy elsewhere)."""

    key: str
    minutes: float
    after: tuple = ()
    people: tuple = ()
    ready_at: datetime | None = None


def schedule(now, tables, jobs, busy=None):
    """``{key: (start, end)}``: the jobs laid on the tables. ``tables``: when each table the
    tournament plays on is free (now, or when its match in play should end); ``busy``: when
    each player in play now is free. A table that comes free takes the first job, in order,
    that can start then (what it waits for over, its players free); else the table waits for
    the job that can start soonest."""
    jobs = list(jobs)
    keys = {job.key for job in jobs}
    free_at = dict(busy or {})
    ends = {}
    slots = list(tables) or [now]
    heapq.heapify(slots)
    found = {}

    def ready(job):
        if any(dep in keys and dep not in ends for dep in job.after):
            return None  # still waits for a match not laid yet
        moments = [now, job.ready_at or now]
        moments += [ends[dep] for dep in job.after if dep in ends]
        moments += [free_at[person] for person in job.people if person in free_at]
        return max(moments)

    while jobs:
        table_free = heapq.heappop(slots)
        starts = [(job, ready(job)) for job in jobs]
        starts = [(job, at) for job, at in starts if at is not None]
        if not starts:  # waits for itself (no such bracket): left out
            break
        job, at = next(
            ((job, at) for job, at in starts if at <= table_free),
            min(starts, key=lambda pair: pair[1]),
        )
        start = max(table_free, at)
        end = start + timedelta(minutes=job.minutes)
        found[job.key] = (start, end)
        ends[job.key] = end
        for person in job.people:
            free_at[person] = end
        heapq.heappush(slots, end)
        jobs.remove(job)
    return found


def predicted_end(now, tables, jobs, busy=None):
    """When the last match should end (``schedule``): the latest of the tables' and the
    jobs' ends; ``now`` when nothing is left."""
    laid = schedule(now, tables, jobs, busy)
    return max([now, *tables, *(end for _start, end in laid.values())])
