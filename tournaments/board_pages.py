"""The tournament's TV board in pages that fit a 1920×1080 screen, read from across the hall.

A small tournament (up to 16 boxes down the tallest column, seven columns across) is one
page: its whole bracket, drawn big. A bigger one is shown a page at a time, the board turning
them by itself (``static/js/board.js``; ``?page=N`` keeps a TV on one page):

- a group stage of one or two groups of up to three matches a round: their tables beside
  their matches, a round to a row; else the tables four groups a page (two when the groups are
  of more than five), then the matches like a bracket;
- each elimination bracket (upper, lower) on pages of its own when they do not fit one: a
  bracket of more than seven columns, or too tall for a page, shows five rounds from its first
  round still to be finished (the rounds played before it are on the tournament's page), and
  the next five on pages of their own while a match there is ready; what is still too tall is
  cut into slices, top to bottom (slice 1/4 is the top quarter of every round shown), so
  that each box keeps its readable size;
- the final's column beside a bracket's page whose last round feeds it (on a page of its own
  while that round is not shown, once a player has reached it);
- a page nobody has reached yet (the lower bracket's at the start, the knockout during the
  groups) is left out.

>>> class Box:
...     def __init__(self, status):
...         self.status, self.name_b = status, ""
...         self.name_a = "Сокол" if status == "ready" else ""
>>> def bracket(name, *sizes):
...     rounds = [(n + 1, [Box("waiting") for _ in range(size)]) for n, size in enumerate(sizes)]
...     return {"name": name, "title": name, "rounds": rounds}
>>> [p["label"] for p in paginate([bracket("upper", 8, 4, 2, 1)], [])]
['']
>>> upper = bracket("upper", 64, 32, 16, 8, 4, 2, 1)  # 128 players: only round 1 can play
>>> upper["rounds"][0] = (1, [Box("ready") for _ in range(64)])
>>> pages = paginate([upper], [])
>>> [(p["label"], p["rows"], p["columns"]) for p in pages]
[('1/4', 16, 5), ('2/4', 16, 5), ('3/4', 16, 5), ('4/4', 16, 5)]
"""

from math import ceil

from tournaments.brackets import FINAL, FINISHED, GROUP, READY, VOID

ROWS = 16  # boxes down a page's tallest column (a box then ~47 px high at 1080 lines)
COLUMNS = 7  # columns across a page, the final's included
WINDOW = 5  # rounds of a bracket a page shows when the whole bracket does not fit
GROUPS, GROUP_ROWS = 4, 5  # group tables a page (two when a group has more than five players)
BESIDE_ROUNDS, BESIDE_MATCHES = 9, 3  # a group stage's matches beside its tables, as rows
DONE = (FINISHED, VOID)
PLAYABLE = (READY, "held", "in_progress")  # (held, in progress: as the tournament view says)


def _tallest(rounds):
    return max((len(items) for _round, items in rounds), default=0)


def _section(section, rounds, label=""):
    return {**section, "rounds": rounds, "tallest": _tallest(rounds), "label": label}


def _page(sections, standings=(), final=None, label=""):
    stacked = list(sections)
    shown = stacked + ([final] if final else [])
    rounds = max((len(s["rounds"]) for s in stacked), default=0)
    return {
        "sections": shown,
        "standings": list(standings),
        "rows": sum(s["tallest"] for s in stacked) or 1,
        "stacked": len(stacked) or 1,
        "columns": max(rounds + bool(final), 1),
        "has_final": bool(final),
        "label": label,
    }


def _entered(section):
    """Whether anyone has reached this part of the bracket yet."""
    return any(i.name_a or i.name_b for _r, items in section["rounds"] for i in items)


def _windows(rounds):
    """The runs of rounds the pages show of a bracket too big for one: five, from the first
    round with a match still to be finished (or fewer before it, down to the last five, while
    they stay no taller than a page), and five more while a later round has a match to play
    (one half of a bracket may run ahead of the other)."""
    if len(rounds) + 1 <= COLUMNS and _tallest(rounds) <= ROWS:
        return [rounds]
    unfinished = [
        n for n, (_r, items) in enumerate(rounds) if any(i.status not in DONE for i in items)
    ]
    playable = [
        n for n, (_r, items) in enumerate(rounds) if any(i.status in PLAYABLE for i in items)
    ]
    current = unfinished[0] if unfinished else len(rounds)
    start = max(min(current, len(rounds) - WINDOW), 0)
    while start < current and _tallest(rounds[start : start + WINDOW]) > ROWS:
        start += 1
    last = max(playable, default=start)
    runs = [rounds[start : start + WINDOW]]
    while start + WINDOW <= last:
        start += WINDOW
        runs.append(rounds[start : start + WINDOW])
    return runs


def _slice(items, part, parts):
    """Slice ``part`` of ``parts`` of a round, top to bottom; a round of fewer matches than
    slices shows each match on the slice level with it."""
    if len(items) >= parts:
        return items[part * len(items) // parts : (part + 1) * len(items) // parts]
    return [item for n, item in enumerate(items) if int((n + 0.5) * parts / len(items)) == part]


def _bracket_pages(section, final):
    found = []
    for rounds in _windows(section["rounds"]):
        ends = rounds[-1] is section["rounds"][-1]
        parts = max(ceil(_tallest(rounds) / ROWS), 1)
        for part in range(parts):
            sliced = [(r, _slice(items, part, parts)) for r, items in rounds]
            if not _entered({"rounds": sliced}):
                continue  # nobody there yet (a lower bracket at the start)
            label = f"{part + 1}/{parts}" if parts > 1 else ""
            final_here = final if ends else None
            found.append(_page([_section(section, sliced, label)], final=final_here, label=label))
    return found


def _knockout_pages(stacked, final):
    """The elimination brackets' pages: one if they fit, else each bracket's pages and the
    final's; none while nobody has reached them (the knockout after the groups)."""
    if not any(_entered(s) for s in stacked + ([final] if final else [])):
        return []
    whole = _page([_section(s, s["rounds"]) for s in stacked], final=final)
    if whole["rows"] <= ROWS and whole["columns"] <= COLUMNS:
        return [whole]
    pages = [page for section in stacked for page in _bracket_pages(section, final)]
    if final and not any(page["has_final"] for page in pages) and _entered(final):
        pages.append(_page([], final=final))
    return pages


def _group_pages(group, standings):
    """The group stage: its tables beside its matches (a round to a row) when there are one or
    two groups of a few rounds; else the tables four a page, then the matches like a bracket."""
    if group is None or (
        len(standings) <= 2
        and len(group["rounds"]) <= BESIDE_ROUNDS
        and _tallest(group["rounds"]) <= BESIDE_MATCHES
    ):
        return [_page([_section(group, group["rounds"])] if group else [], standings)]
    per_page = GROUPS if max(len(rows) for _n, rows in standings) <= GROUP_ROWS else 2
    pages = [_page([], standings[n : n + per_page]) for n in range(0, len(standings), per_page)]
    return pages + _bracket_pages(group, None)


def paginate(sections, standings):
    """The board's pages: each a dict of its ``sections`` (the bracket's parts as
    ``fragments.sections`` gives them, sliced), ``standings`` (the group tables it shows),
    ``rows`` and ``columns`` (what sizes its boxes), ``has_final`` and its ``label``."""
    final = next((s for s in sections if s["name"] == FINAL), None)
    group = next((s for s in sections if s["name"] == GROUP), None)
    knockout = [s for s in sections if s["name"] not in (FINAL, GROUP)]
    pages = _group_pages(group, standings) if standings else []
    pages += _knockout_pages(knockout, final)
    if not pages:  # (a bracket drawn always has players in its first round)
        pages = [_page([_section(s, s["rounds"]) for s in knockout], final=final)]
    count = len(pages)
    for number, page in enumerate(pages, start=1):
        page["number"], page["count"] = number, count
    return pages
