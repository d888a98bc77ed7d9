"""The protocol for a federation: which class norms a tournament's places meet.

Plain Python (no Django, no I/O), listed with the pure engines in ``.importlinter``.

A *norms provider* is a function ``fn(tournament) -> [(first place, last place, class
code), …]`` (class codes are ``players.SkillClass`` values: ``novice``, ``3``, ``2``, ``1``,
``cms``, ``ms``): whoever knows which norms apply to a tournament (a series' regulation: КМС
for places 7–16 of a championship) registers one with ``register_norms_provider``; the
protocol asks every one registered (``norms_for``). With none, the protocol has no norms
column.

A place shared by several (5–8: the losers of the quarter-finals) meets a norm when its
best place lies within the norm's places: 5–8 meets a norm for places 1–6 and not one for
places 7–16 (the entrants sharing it finished ahead of the 9th). Of the norms met, the
protocol names the highest class.

>>> norms = [(1, 6, "cms"), (7, 16, "1")]
>>> norm_met((5, 8), norms), norm_met((7, 8), norms), norm_met((17, 24), norms)
('cms', '1', '')
"""

# The classes from the lowest up (players.SkillClass's values).
CLASS_ORDER = ("novice", "3", "2", "1", "cms", "ms")

_providers = []


def register_norms_provider(fn):
    """Adds ``fn(tournament) -> [(first, last, class code)]`` to the providers the protocol
    asks (once, however often registered); returns it, to be used as a decorator."""
    if fn not in _providers:
        _providers.append(fn)
    return fn


def unregister_norms_provider(fn):
    """Takes a provider back (a test's, an app's that stops providing)."""
    if fn in _providers:
        _providers.remove(fn)


def norms_for(tournament):
    """Every registered provider's norms for ``tournament``: a list of (first place, last
    place, class code) with places 1 ≤ first ≤ last and a known class (others left out)."""
    found = []
    for provider in _providers:
        for first, last, code in provider(tournament) or ():
            if code in CLASS_ORDER and 1 <= int(first) <= int(last):
                found.append((int(first), int(last), code))
    return found


def norm_met(places, norms):
    """The highest class whose norm the place range ``(best, worst)`` meets (its best place
    within the norm's places), or "" when none."""
    best = places[0]
    met = [code for first, last, code in norms if first <= best <= last]
    return max(met, key=CLASS_ORDER.index) if met else ""
