"""Reads for matches and tournaments: a match's score from its frames, its frames, and the
bracket of a tournament computed from its matches."""

import hashlib
import heapq
import statistics
from collections import Counter
from dataclasses import dataclass, field, fields
from datetime import timedelta

from django.core.cache import cache
from django.db import connection
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext

from games import rules
from games import selectors as game_selectors
from games.models import Game, GameStatus
from players.models import Membership, Player, SkillClass
from records import forecast, performance, rating
from tournaments import clock, protocol
from tournaments.models import (
    Entrant,
    EntryStatus,
    Frame,
    Handicap,
    Match,
    MatchStatus,
    ResultKind,
    Tournament,
    TournamentStatus,
)


def match_variants():
    """The games a match can be played in: those two can play that say so
    (``Variant.plays_matches``: «Пробка», played by many at once, does not)."""
    return [
        variant
        for variant in rules.VARIANTS.values()
        if variant.min_seats <= 2 <= variant.max_seats and variant.plays_matches
    ]


def frame_winner(frame):
    """ "a", "b" or None (a draw, or a frame not finished) for a Frame with its game."""
    return side_won(frame.breaker, frame.game.status, frame.game.result)


def side_won(breaker, status, result):
    """The side that won a frame ``breaker`` broke, from its game's status and result."""
    if status != GameStatus.FINISHED or not result or result.get("draw"):
        return None
    winners = result.get("winners") or []
    if len(winners) != 1:
        return None
    breaker_won = winners[0] == 0  # the breaker sits in seat 1
    return breaker if breaker_won else ("b" if breaker == "a" else "a")


def frames_of(match):
    return list(
        Frame.objects.filter(match=match).select_related("game", "game__table").order_by("number")
    )


def match_score(match, frames=None, sides=None):
    """(frames of A, frames of B), head starts included: counted from the finished frames
    (or from ``sides``, the sides that won them)."""
    if match.kind != "played" and match.status == MatchStatus.FINISHED:
        return match.score_a or 0, match.score_b or 0
    if sides is None:
        frames = frames_of(match) if frames is None else frames
        sides = [frame_winner(frame) for frame in frames]
    return (
        match.head_start_a + sides.count("a"),
        match.head_start_b + sides.count("b"),
    )


def decided(match, score):
    """ "a" or "b" once a side has reached the race, else None."""
    if score[0] >= match.race_to:
        return "a"
    if score[1] >= match.race_to:
        return "b"
    return None


def _match_key(game):
    return f"match-of-game:{game.pk}:{game.started_at.timestamp() if game.started_at else ''}"


def remember_match_of_game(game, match_id):
    """Notes, as a game starts, whether it is a match's frame (0: it is not)."""
    cache.set(_match_key(game), match_id or 0, 24 * 3600)


def remember_single_game(game):
    """Every game starts as no match's frame (``games.services.when_started``)."""
    remember_match_of_game(game, 0)


def match_of_game(game):
    """The match a game is a frame of, or None.

    Whether a game is a frame is settled when it starts (its Frame is written in the same
    transaction) and never changes, so the answer "no match" is remembered in the cache,
    keyed by the game and its start: a single game's console costs no query more.
    """
    key = _match_key(game)
    if game.started_at is not None and cache.get(key) == 0:
        return None
    frame = (
        Frame.objects.filter(game_id=game.pk)
        .select_related("match", "match__player_a", "match__player_b", "match__tournament")
        .first()
    )
    if game.started_at is not None:
        remember_match_of_game(game, frame.match_id if frame else 0)
    return frame.match if frame else None


def current_frame(match, frames=None):
    frames = frames_of(match) if frames is None else frames
    return frames[-1] if frames else None


def match_in_progress_on(table):
    return (
        Match.objects.filter(table=table, status=MatchStatus.IN_PROGRESS)
        .select_related("player_a", "player_b", "tournament")
        .first()
    )


def busy_player_ids():
    """Players in a match in progress or seated in a game in progress."""
    in_matches = Match.objects.filter(status=MatchStatus.IN_PROGRESS)
    ids = set(in_matches.values_list("player_a", flat=True))
    ids |= set(in_matches.values_list("player_b", flat=True))
    ids |= set(game_selectors.seats_in_play().values_list("player_id", flat=True))
    ids.discard(None)
    return ids


def match_with_frames(pk):
    """A match with its frames (and their games) for the match page."""
    return (
        Match.objects.select_related("table", "player_a", "player_b", "tournament")
        .prefetch_related(
            Prefetch(
                "frames",
                queryset=Frame.objects.select_related("game").order_by("number"),
            )
        )
        .get(pk=pk)
    )


# --- the odds of a match (records.forecast) --------------------------------------------------


def match_sides(match):
    """A match's two sides as its odds read them: the skills stored as it started
    (``Match.skills``), else — a match started before the odds — its players' skills now."""
    stored = match.skills if isinstance(match.skills, dict) else {}
    sides = []
    for key, name in (("a", match.name_a), ("b", match.name_b)):
        skill = forecast.from_snapshot(stored.get(key))
        if skill is None:
            player = getattr(match, f"player_{key}") if getattr(match, f"player_{key}_id") else None
            skill = forecast.side(match.variant, player, name).skill
        sides.append(forecast.Side(name, skill))
    return sides


def match_odds(match, score=None, frames=None):
    """The odds of a match (``forecast.Odds``, A's): before it, and now from ``score`` (head
    starts included; None: counted from its frames). None for a match decided without play."""
    if match.kind != ResultKind.PLAYED:
        return None
    if score is None:
        score = match_score(match, frames)
    a, b = match_sides(match)
    head_starts = (match.head_start_a, match.head_start_b)
    return forecast.match_odds(
        match.variant, a, b, match.race_to, head_starts, score, match.settings
    )


# --- tournaments ------------------------------------------------------------------------------


def bracket_of(tournament, count=None):
    """The tournament's bracket (the engine's), for its number of seeded entrants."""
    from tournaments import brackets

    if count is None:
        count = tournament.entrants.filter(seed__isnull=False).count()
    return brackets.build(tournament.format, count, tournament.groups, tournament.advance)


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A seeded entrant as the tournament's pages show him: plain values from one query,
    no model instance (the bracket is computed after every result: see bench/tournament.py).
    A write fetches the Entrant itself (``entrants_by_pk``)."""

    pk: int
    seed: int
    player_id: int | None
    guest_name: str
    withdrawn: bool
    name: str
    absent: bool = False


def entrant_rows(tournament_id):
    """The seeded entrants by seed, in one query."""
    columns = ("pk", "seed", "player_id", "guest_name", "withdrawn", "absent")
    rows = Entrant.objects.filter(tournament_id=tournament_id, seed__isnull=False).values_list(
        *columns, "player__nickname", "player__full_name"
    )
    return {
        seed: EntrantRow(
            pk, seed, player, guest, withdrawn, (nick or full) if player else guest, absent
        )
        for pk, seed, player, guest, withdrawn, absent, nick, full in rows
    }


def entrants_by_pk(*rows):
    """The Entrants (with their players) of ``rows``, in that order."""
    found = Entrant.objects.select_related("player").in_bulk([row.pk for row in rows])
    return [found[row.pk] for row in rows]


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A tournament's match as its pages and its bracket need it: plain values, one query."""

    pk: int
    bracket_key: str
    status: str
    kind: str
    winner: str
    score_a: int | None
    score_b: int | None
    head_start_a: int
    head_start_b: int
    table_id: int | None
    table_number: int | None
    started_at: object
    finished_at: object

    def get_kind_display(self):
        return ResultKind(self.kind).label


MATCH_COLUMNS = [f.name for f in fields(MatchRow)][:-3] + [
    "table__number",
    "started_at",
    "finished_at",
]


def tournament_matches(tournament):
    """The tournament's matches that count (not abandoned), by bracket key: one query."""
    rows = (
        Match.objects.filter(tournament_id=tournament.pk)
        .exclude(status=MatchStatus.ABANDONED)
        .values_list(*MATCH_COLUMNS)
    )
    return {row[1]: MatchRow(*row) for row in rows}


def results_of(matches):
    """The engine's results from the finished matches."""
    from tournaments import brackets

    return {
        key: brackets.Result(m.winner, m.score_a or 0, m.score_b or 0, m.kind)
        for key, m in matches.items()
        if m.status == MatchStatus.FINISHED
    }


def live_frame_sides(match_ids):
    """match pk → the sides that won its finished frames, for the matches in play: one
    small query (no game is loaded)."""
    sides = {pk: [] for pk in match_ids}
    frames = Frame.objects.filter(match_id__in=match_ids, game__status=GameStatus.FINISHED)
    for match_id, breaker, result in frames.values_list("match_id", "breaker", "game__result"):
        sides[match_id].append(side_won(breaker, GameStatus.FINISHED, result))
    return sides


@dataclass
class Item:
    """One match of a tournament's bracket as its pages show it."""

    spec: object
    status: str  # waiting | ready | held | in_progress | finished | void
    seed_a: int | None
    seed_b: int | None
    name_a: str
    name_b: str
    score_a: int | None = None
    score_b: int | None = None
    winner: str = ""
    kind: str = ""
    match: object = None
    derived: bool = False
    double: bool = False  # of a double elimination: its upper rounds say so
    final_round: int = 0  # a knockout without a lower bracket: its final's round
    groups: int = 0  # a round robin: how many groups
    busy: list = field(default_factory=list)  # the desk: its players playing elsewhere now
    odds: object = None  # the desk: its odds (records.forecast.Odds), ready or in play
    clock: object = None  # in play: its elapsed time and whether it is slow (MatchClock)

    @property
    def table_number(self):
        return self.match.table_number if self.match is not None else None

    @property
    def winner_name(self):
        return {"a": self.name_a, "b": self.name_b}.get(self.winner, "")

    @property
    def loser_name(self):
        """Who lost it: of a walkover, who did not come; of a withdrawal, who withdrew."""
        return {"a": self.name_b, "b": self.name_a}.get(self.winner, "")

    @property
    def without_play(self):
        """A walkover or a withdrawal: decided without a frame."""
        return self.kind in (ResultKind.WALKOVER, ResultKind.WITHDRAWAL)

    @property
    def shown(self):
        """Whether the bracket and the match list show it: not a grand final's reset that
        will not be played (void), nor one still waiting for the first final to say whether
        it will be."""
        if self.status == "void":
            return False
        return not (self.spec.reset and self.status == "waiting")

    @property
    def has_score(self):
        """A score in frames: played or in play (a walkover or a withdrawal has none)."""
        return self.score_a is not None and self.kind in ("", ResultKind.PLAYED)

    @property
    def stage_label(self):
        """ "Upper bracket, round 2", "Group 1, round 3", "Grand final", … (translated)."""
        spec = self.spec
        if spec.bracket == "final":
            return gettext("Grand final, reset") if spec.reset else gettext("Final")
        if spec.bracket == "group":
            if self.groups == 1:
                return gettext("Round %(round)s") % {"round": spec.round}
            return gettext("Group %(group)s, round %(round)s") % {
                "group": spec.group,
                "round": spec.round,
            }
        if spec.bracket == "lower":
            return gettext("Lower bracket, round %(round)s") % {"round": spec.round}
        if self.double:
            return gettext("Upper bracket, round %(round)s") % {"round": spec.round}
        # A knockout (after the groups too) names its rounds by how far from the final.
        to_final = self.final_round - spec.round
        if to_final == 1:
            return gettext("Semi-final")
        if to_final == 2:
            return gettext("Quarter-final")
        return gettext("1/%(part)s final") % {"part": 2**to_final}


@dataclass
class TournamentView:
    tournament: object
    bracket: object
    state: object
    entrants: dict  # seed → Entrant
    items: list
    by_key: dict = field(default_factory=dict)

    def section(self, bracket):
        """The matches of one bracket (upper, lower, final, group) by round: [(round, items)]."""
        rounds = {}
        for item in self.items:
            if item.spec.bracket == bracket:
                rounds.setdefault(item.spec.round, []).append(item)
        return [(r, sorted(rounds[r], key=lambda i: i.spec.index)) for r in sorted(rounds)]

    @property
    def queue(self):
        return [i for i in self.items if i.status in ("ready", "held")]

    @property
    def in_play(self):
        return [i for i in self.items if i.status == "in_progress"]

    @property
    def places(self):
        """(place label, entrant) from the best, the places decided so far."""
        rows = []
        for seed, (best, worst) in sorted(self.state.places.items(), key=lambda p: (p[1], p[0])):
            label = str(best) if best == worst else f"{best}–{worst}"
            rows.append((label, self.entrants[seed]))
        return rows

    @property
    def standings(self):
        """Per group: rows with the entrant."""
        return [
            (number, [(row, self.entrants[row.seed]) for row in table])
            for number, table in enumerate(self.state.standings, start=1)
        ]


def tournament_view(tournament):
    """Everything the tournament's pages show, computed from its entrants and matches: three
    small queries of plain values (entrants, matches, the frames of the matches in play),
    the cached bracket and ``brackets.compute``."""
    from tournaments import brackets

    entrants = entrant_rows(tournament.pk)
    bracket = bracket_of(tournament, len(entrants))
    matches = tournament_matches(tournament)
    withdrawn = {seed for seed, e in entrants.items() if e.withdrawn}
    absent = {seed for seed, e in entrants.items() if e.absent and not e.withdrawn}
    state = brackets.compute(bracket, results_of(matches), withdrawn, absent)
    held = set(tournament.held)
    # The frames won in every match in play, in one query (their live scores).
    in_play = [m.pk for m in matches.values() if m.status == MatchStatus.IN_PROGRESS]
    live = live_frame_sides(in_play) if in_play else {}
    double = bracket.format == brackets.DOUBLE
    final_round = max((m.round for m in bracket.matches if m.bracket == brackets.FINAL), default=0)
    items = []
    for spec in bracket.matches:
        ms = state.matches[spec.key]
        match = matches.get(spec.key)
        status = ms.status
        if match is not None and match.status == MatchStatus.IN_PROGRESS:
            status = "in_progress"
        elif status == brackets.READY and spec.key in held:
            status = "held"
        item = Item(
            spec=spec,
            status=status,
            seed_a=ms.a,
            seed_b=ms.b,
            name_a=entrants[ms.a].name if ms.a else "",
            name_b=entrants[ms.b].name if ms.b else "",
            match=match,
            derived=ms.derived,
            double=double,
            final_round=final_round,
            groups=len(bracket.groups),
        )
        if ms.result is not None:
            item.score_a, item.score_b = ms.result.score_a, ms.result.score_b
            item.winner, item.kind = ms.result.winner, ms.result.kind
        elif status == "in_progress":
            item.score_a, item.score_b = match_score(match, sides=live[match.pk])
        items.append(item)
    view = TournamentView(tournament, bracket, state, entrants, items)
    view.by_key = {item.spec.key: item for item in items}
    return view


# What the tournament's board shows changes only with these: its status and held matches,
# its matches (how many, in play, finished, the last finish), the frames finished in the
# matches in play and the withdrawals. One statement of small indexed counts, in plain SQL
# like the table boards' (boards.polls), since it answers every board's poll.
_T, _M = Tournament._meta.db_table, Match._meta.db_table
_F, _G, _E = Frame._meta.db_table, Game._meta.db_table, Entrant._meta.db_table
BOARD_FINGERPRINT_SQL = (
    f"SELECT t.status, t.held, t.name,"
    f" (SELECT COUNT(*) FROM {_M} m WHERE m.tournament_id = t.id),"
    f" (SELECT COUNT(*) FROM {_M} m WHERE m.tournament_id = t.id AND m.status = %s),"
    f" (SELECT COUNT(*) FROM {_M} m WHERE m.tournament_id = t.id AND m.status = %s),"
    f" (SELECT MAX(m.finished_at) FROM {_M} m WHERE m.tournament_id = t.id),"
    f" (SELECT COUNT(*) FROM {_F} f JOIN {_M} m ON m.id = f.match_id"
    f"  JOIN {_G} g ON g.id = f.game_id"
    f"  WHERE m.tournament_id = t.id AND m.status = %s AND g.status = %s),"
    f" (SELECT MAX(g.finished_at) FROM {_F} f JOIN {_M} m ON m.id = f.match_id"
    f"  JOIN {_G} g ON g.id = f.game_id WHERE m.tournament_id = t.id AND m.status = %s),"
    f" (SELECT COUNT(*) FROM {_E} e WHERE e.tournament_id = t.id AND e.withdrawn = %s)"
    f" FROM {_T} t WHERE t.id = %s"
)
MAX_ID = 2**31 - 1


def board_fingerprint(tournament_id):
    """A short text that changes whenever the tournament's board would show something else
    (a result, a frame won in a match in play, a match called to a table, a hold, a
    withdrawal); None when there is no such tournament. One small query: the board's poll
    compares it with what the TV shows (``boards.polls.answer_poll``)."""
    if not 0 < tournament_id <= MAX_ID:
        return None
    playing, finished = MatchStatus.IN_PROGRESS, MatchStatus.FINISHED
    params = [playing, finished, playing, GameStatus.FINISHED, playing, True, tournament_id]
    with connection.cursor() as cursor:
        cursor.execute(BOARD_FINGERPRINT_SQL, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return hashlib.blake2b(repr(row).encode(), digest_size=8).hexdigest()


def mark_busy(view):
    """Marks each ready match of the queue with the names of those of its players who are
    playing now (``Item.busy``: another match of the tournament, or any game or match in the
    club): the desk offers a free table the next match whose players are both free."""
    busy_players = busy_player_ids()
    playing = {seed for item in view.in_play for seed in (item.seed_a, item.seed_b)}
    for item in view.queue:
        item.busy = [
            name
            for seed, name in ((item.seed_a, item.name_a), (item.seed_b, item.name_b))
            if seed in playing or view.entrants[seed].player_id in busy_players
        ]


def mark_odds(view, terms):
    """Gives the desk's matches their odds (``Item.odds``): a ready one's as it would start,
    with what the tournament's handicap makes of it (``terms``: ``services.
    handicap_terms``); one in play its odds before and now, from its frame score."""
    tournament = view.tournament
    queued = [item for item in view.queue if item.seed_a and item.seed_b]
    entrants = [view.entrants[seed] for item in queued for seed in (item.seed_a, item.seed_b)]
    people = Player.everywhere.in_bulk([e.player_id for e in entrants if e.player_id])
    for item in queued:
        a, b = view.entrants[item.seed_a], view.entrants[item.seed_b]
        race_to = tournament.race_for(item.spec.bracket)
        found = terms(tournament, a, b, race_to)
        sides = [
            forecast.side(
                tournament.variant, people.get(e.player_id) if e.player_id else e.name, e.name
            )
            for e in (a, b)
        ]
        heads = (found["head_start_a"], found["head_start_b"])
        item.odds = forecast.match_odds(
            tournament.variant, *sides, race_to, heads, settings=found["settings"]
        )
    mark_odds_in_play(view)


def mark_odds_in_play(view):
    """Gives each match in play of ``view`` its odds (``Item.odds``): before it and now, from
    its frame score (the desk, the tournament's page and its TV board). One query."""
    playing = {item.match.pk: item for item in view.in_play if item.match is not None}
    if not playing:
        return
    matches = Match.objects.select_related("player_a", "player_b").in_bulk(list(playing))
    for pk, item in playing.items():
        if pk in matches:
            item.odds = match_odds(matches[pk], score=(item.score_a, item.score_b))


def offers(free_tables, queue):
    """(table, match): each free table is offered the next match of the queue whose players
    are free (not held, nobody at another table, nobody offered another table already)."""
    found, offered = [], set()
    for item in queue:
        if len(found) == len(free_tables):
            break
        seeds = {item.seed_a, item.seed_b}
        if item.status == "ready" and not item.busy and not seeds & offered:
            found.append((free_tables[len(found)], item))
            offered |= seeds
    return found


def no_offer_reason(free_tables, queue):
    """Why the desk offers no free table a match (when it offers none): "no_table",
    "no_match" (none is ready), "held" (every ready match is on hold), "busy" (the players
    of every ready match are at other tables) or "held_or_busy" (some of each)."""
    if not free_tables:
        return "no_table"
    if not queue:
        return "no_match"
    held = [item for item in queue if item.status == "held"]
    if len(held) == len(queue):
        return "held"
    return "held_or_busy" if held else "busy"


def free_tables_for_matches():
    """Tables a match can be called to: active, in service, no game or match in progress."""
    busy_matches = Match.objects.filter(status=MatchStatus.IN_PROGRESS).values("table")
    return game_selectors.free_tables().exclude(pk__in=busy_matches).order_by("number")


def player_tournaments(player):
    """(tournament, place label or "", his performance in it or None) for every tournament
    the player entered."""
    entries = list(
        Entrant.objects.filter(player=player, seed__isnull=False)
        .select_related("tournament")
        .order_by("-tournament__date")
    )
    performances = player_tournament_performances(player, [e.tournament for e in entries])
    rows = []
    for entrant in entries:
        view = tournament_view(entrant.tournament)
        place = view.state.places.get(entrant.seed)
        label = (
            ""
            if place is None
            else (str(place[0]) if place[0] == place[1] else f"{place[0]}–{place[1]}")
        )
        rows.append((entrant.tournament, label, performances.get(entrant.tournament_id)))
    return rows


# --- performance in a tournament, form before one (records.performance) -----------------------


def _frame_games(tournament_ids, player=None):
    """(tournament id, game id, finished at) of the finished frames of these tournaments'
    matches (those ``player`` played, when given), in order."""
    frames = Frame.objects.filter(
        match__tournament_id__in=tournament_ids, game__status=GameStatus.FINISHED
    )
    if player is not None:
        frames = frames.filter(game__seats__player=player)
    rows = frames.values_list("match__tournament_id", "game_id", "game__finished_at")
    return list(rows.distinct().order_by("match__tournament_id", "game_id"))


def _frames_key(prefix, frames):
    """A cache key that changes with the finished frames: a frame finished, reopened, or
    finished again (its moment). The ratings before each frame, which a performance reads,
    do not change with later games; a recompute of them all leaves them as they were."""
    digest = hashlib.blake2b(repr(frames).encode(), digest_size=12).hexdigest()
    return f"tournaments:performance:v2:{prefix}:{digest}"


def player_tournament_performances(player, tournaments):
    """tournament id -> the player's performance over his frames in it (rated games).
    Cached until a frame of his finishes (or is reopened)."""
    families = {tournament.pk: rating.family_of(tournament.variant) for tournament in tournaments}
    frames = _frame_games(list(families), player) if families else []
    if not frames:
        return {}
    key = _frames_key(f"player:{player.pk}", frames)
    found = cache.get(key)
    if found is None:
        found = {}
        by_family = {}
        for tournament_id, game_id, _at in frames:
            groups = by_family.setdefault(families[tournament_id], {})
            groups.setdefault(tournament_id, []).append(game_id)
        for family, groups in by_family.items():
            found |= performance.grouped(family, player.pk, groups)
        cache.set(key, found, 3600)
    return found


def tournament_performances(tournament, entrants=None):
    """seed -> the entrant's performance over his frames of the tournament (a guest, or an
    entrant without a finished frame, has none). Cached until a frame finishes (or is
    reopened)."""
    entrants = entrant_rows(tournament.pk) if entrants is None else entrants
    frames = _frame_games([tournament.pk])
    if not frames:
        return {}
    key = _frames_key(f"tournament:{tournament.pk}", frames)
    by_player = cache.get(key)
    if by_player is None:
        players = [e.player_id for e in entrants.values() if e.player_id is not None]
        family = rating.family_of(tournament.variant)
        by_player = performance.of_games(family, [frame[1] for frame in frames], players)
        cache.set(key, by_player, 3600)
    return {
        seed: by_player[entrant.player_id]
        for seed, entrant in entrants.items()
        if entrant.player_id in by_player
    }


def places_with_performance(view):
    """(place label, entrant, his performance or None): the final places as the public page
    shows them."""
    found = tournament_performances(view.tournament, view.entrants) if view.places else {}
    return [(label, entrant, found.get(entrant.seed)) for label, entrant in view.places]


@dataclass(frozen=True)
class FormWarning:
    """An entrant whose last games were played far above his rating (``performance.forms``)."""

    entrant: object
    reading: object

    @property
    def performance(self):
        """ "1905 ± 90": the last games' performance ± its standard error (kept on one line)."""
        form = self.reading.form
        return f"{form.performance:.0f}\u00a0±\u00a0{form.error:.0f}"

    @property
    def rating(self):
        """ "1640 ± 60": the rating today ± its deviation."""
        form = self.reading.form
        return f"{form.rating:.0f}\u00a0±\u00a0{form.deviation:.0f}"


def form_warnings(tournament, entrants=None):
    """Before a handicapped tournament starts: the entrants whose form is flagged (their
    last rated games of the tournament's family played above their rating by more than its
    uncertainty allows), with the numbers; nobody for an even tournament or once it runs."""
    if tournament.handicap == Handicap.NONE or tournament.status != TournamentStatus.DRAFT:
        return []
    if entrants is None:
        entrants = list(tournament.entrants.select_related("player"))
    entrants = [e for e in entrants if e.player_id and e.status != EntryStatus.DROPPED]
    readings = performance.forms(
        rating.family_of(tournament.variant), [e.player_id for e in entrants]
    )
    return [
        FormWarning(entrant, readings[entrant.player_id])
        for entrant in entrants
        if entrant.player_id in readings and readings[entrant.player_id].flagged
    ]


# --- when a match will start: the queue ahead and the club's frame durations -----------------

DEFAULT_FRAME_MINUTES = 20.0  # no frame of that game recorded yet
FRAME_HISTORY = 200  # the newest frames the median is taken over
MIN_FRAME_MINUTES = 1  # shorter: recorded after the fact (a result typed in), not timed


def frame_minutes(variant, race_to):
    """(minutes, frames counted): the median duration (``finished_at - started_at``) of the
    club's finished frames of matches of ``variant`` raced to ``race_to`` (a frame under a
    minute was not timed: left out); else of any race of that game; else
    ``DEFAULT_FRAME_MINUTES`` (with 0 frames counted)."""

    def durations(**race):
        rows = (
            Frame.objects.filter(game__status=GameStatus.FINISHED, match__variant=variant, **race)
            .order_by("-game__finished_at")
            .values_list("game__started_at", "game__finished_at")[:FRAME_HISTORY]
        )
        minutes = [(end - start).total_seconds() / 60 for start, end in rows if end and start]
        return [m for m in minutes if m >= MIN_FRAME_MINUTES]

    found = durations(match__race_to=race_to) or durations()
    return (statistics.median(found), len(found)) if found else (DEFAULT_FRAME_MINUTES, 0)


def expected_frames(race_to):
    """Frames a race to N lasts, between N and 2N − 1: their middle."""
    return (race_to + 2 * race_to - 1) / 2


def frames_left(race_to, played):
    """Frames a match of a race to N is still expected to last once ``played`` are done: at
    least half of one (the frame in play)."""
    return max(expected_frames(race_to) - played, 0.5)


def expected_free(player_ids, now=None):
    """``{player pk: moment}``: when each of these roster players who is playing now (a
    match in progress — a tournament's, or one on its own — or a game) should be free again:
    a match after the frames it has left, a game after one frame, at the club's median frame
    duration for that game (``frame_minutes``). Those not playing are left out."""
    now = now or timezone.now()
    ids = set(player_ids) - {None}
    if not ids:
        return {}
    per_frame = {}

    def minutes(variant, race):
        if (variant, race) not in per_frame:
            per_frame[variant, race] = frame_minutes(variant, race)[0]
        return per_frame[variant, race]

    found = {}

    def busy(pk, until):
        if pk in ids:
            found[pk] = max(found.get(pk, until), until)

    playing = Match.objects.filter(status=MatchStatus.IN_PROGRESS)
    playing = list(playing.filter(Q(player_a__in=ids) | Q(player_b__in=ids)))
    sides = live_frame_sides([match.pk for match in playing]) if playing else {}
    in_matches = set()
    for match in playing:
        a, b = match_score(match, sides=sides[match.pk])
        played = a + b - match.head_start_a - match.head_start_b
        left = frames_left(match.race_to, played)
        until = now + timedelta(minutes=minutes(match.variant, match.race_to) * left)
        for pk in (match.player_a_id, match.player_b_id):
            busy(pk, until)
            in_matches.add(pk)
    for seat in game_selectors.seats_in_play(ids - in_matches):
        busy(seat.player_id, now + timedelta(minutes=minutes(seat.game.variant, 1)))
    return found


def _tables_and_players(view, free_table_count, now):
    """What the predictions of a running tournament start from: ``minutes(race)``, the
    club's median frame duration for its game and that race (``frame_minutes``, asked once a
    race); when each table it plays on is free (the free ones now, those with one of its
    matches once that match's frames left are played); when each seed is free (after his
    match in play here, or what he plays elsewhere in the club: ``expected_free``)."""
    tournament = view.tournament
    per_frame = {}

    def minutes(race):
        if race not in per_frame:
            per_frame[race] = frame_minutes(tournament.variant, race)[0]
        return per_frame[race]

    elsewhere = expected_free([entrant.player_id for entrant in view.entrants.values()], now)
    free_at = {
        seed: elsewhere[entrant.player_id]
        for seed, entrant in view.entrants.items()
        if entrant.player_id in elsewhere
    }
    slots = [now] * free_table_count
    for playing in view.in_play:
        race = tournament.race_for(playing.spec.bracket)
        played = (playing.score_a or 0) + (playing.score_b or 0)
        played -= playing.match.head_start_a + playing.match.head_start_b if playing.match else 0
        ends = now + timedelta(minutes=minutes(race) * frames_left(race, played))
        slots.append(ends)
        for seed in (playing.seed_a, playing.seed_b):
            free_at[seed] = ends
    return minutes, slots or [now], free_at


def predicted_start(view, key, free_table_count, now=None):
    """When match ``key`` of a running tournament should start: ``(moment, ahead,
    minutes per frame)``. The tables the tournament plays on (free now, or with one of its
    matches) take the ready matches of the desk's queue in order (held ones wait), as the
    desk offers them: a table that comes free takes the first match whose players are both
    free then (a player in another match of the tournament, or playing elsewhere in the
    club, is free once that match or game is expected to end: ``expected_free``). Each match
    lasts its race's expected frames at the club's median frame duration for that game and
    race (``frame_minutes``); a match in play ends after the frames it has left. A match
    still waiting for its players comes after the whole queue, and not before its known
    player is free. ``ahead``: the matches that start before it. None when the match is
    not to be played (over, or in play)."""
    now = now or timezone.now()
    item = view.by_key.get(key)
    if item is None or item.status not in ("ready", "held", "waiting"):
        return None
    tournament = view.tournament
    minutes, slots, free_at = _tables_and_players(view, free_table_count, now)

    def duration(queued):
        race = tournament.race_for(queued.spec.bracket)
        return timedelta(minutes=minutes(race) * expected_frames(race))

    heapq.heapify(slots)

    def ready_at(queued):
        return max(free_at.get(seed, now) for seed in (queued.seed_a, queued.seed_b))

    pending = [q for q in view.queue if q.status == "ready" or q.spec.key == key]
    started = 0
    while pending:
        table_free = heapq.heappop(slots)
        match = next((q for q in pending if ready_at(q) <= table_free), None)
        if match is None:  # the table waits for the first match whose players come free
            match = min(pending, key=ready_at)
        start = max(table_free, ready_at(match))
        if match.spec.key == key:
            return start, started, minutes(tournament.race_for(item.spec.bracket))
        ends = start + duration(match)
        for seed in (match.seed_a, match.seed_b):
            free_at[seed] = ends
        heapq.heappush(slots, ends)
        pending.remove(match)
        started += 1
    start = max(heapq.heappop(slots), ready_at(item))  # waiting: after the whole queue
    return start, started, minutes(tournament.race_for(item.spec.bracket))


def _waits_for(spec, bracket):
    """The keys of the matches whose result ``spec`` takes its players from (a group's
    place: every match of that group)."""
    found = []
    for source in (spec.a, spec.b):
        if source.kind in ("winner", "loser"):
            found.append(source.ref)
        elif source.kind == "rank":
            group = source.ref[0]
            found += [m.key for m in bracket.matches if m.bracket == "group" and m.group == group]
    return tuple(found)


def predicted_end(view, free_table_count, now=None):
    """When the evening should end (``tournaments.clock.predicted_end``): the matches left
    (the ready and held ones in the desk's order, then those still waiting for their
    players, each after the matches it takes them from) laid on the tables the tournament
    plays on, each lasting its race's expected frames at the club's median frame duration
    (``frame_minutes``); a match in play ends after its frames left; a player busy elsewhere
    starts once free (``expected_free``). None once the tournament is over."""
    if view.state.finished:
        return None
    now = now or timezone.now()
    tournament = view.tournament
    minutes, tables, free_at = _tables_and_players(view, free_table_count, now)
    jobs = []
    for item in view.items:
        if item.status not in ("ready", "held", "waiting") or not item.shown:
            continue
        race = tournament.race_for(item.spec.bracket)
        jobs.append(
            clock.Job(
                item.spec.key,
                minutes(race) * expected_frames(race),
                after=_waits_for(item.spec, view.bracket),
                people=tuple(seed for seed in (item.seed_a, item.seed_b) if seed),
            )
        )
    return clock.predicted_end(now, tables, jobs, free_at)


@dataclass(frozen=True)
class MatchClock:
    """A match in play's clock: since when (``started``, seconds since the epoch: the
    browser counts on from it, ``static/js/match-clock.js``), how long at the render, and
    whether it is slow (``tournaments.clock.level``) with its two thresholds in seconds."""

    started: int
    elapsed: int
    warn: int
    alarm: int
    level: str

    @property
    def text(self):
        """ "0:42:05": hours, minutes and seconds in play (as the browser counts on)."""
        minutes, seconds = divmod(self.elapsed, 60)
        return f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}"


def match_clock(started_at, race_to, head_start_a=0, head_start_b=0, now=None, tournament=None):
    """The clock of a match in play since ``started_at`` (None without a start), slow past
    its ``tournament``'s minutes per frame (the clock's defaults without one)."""
    if started_at is None:
        return None
    now = now or timezone.now()
    elapsed = max(int((now - started_at).total_seconds()), 0)
    per_frame = {}
    if tournament is not None:
        per_frame = {"warn": tournament.slow_minutes, "alarm": tournament.too_slow_minutes}
    warn, alarm = clock.thresholds(race_to, head_start_a, head_start_b, **per_frame)
    return MatchClock(
        started=int(started_at.timestamp()),
        elapsed=elapsed,
        warn=warn * 60,
        alarm=alarm * 60,
        level=clock.level(elapsed, race_to, head_start_a, head_start_b, **per_frame),
    )


def mark_clocks(view, now=None):
    """Gives each match in play of ``view`` its clock (``Item.clock``)."""
    now = now or timezone.now()
    for item in view.in_play:
        if item.match is not None:
            item.clock = match_clock(
                item.match.started_at,
                view.tournament.race_for(item.spec.bracket),
                item.match.head_start_a,
                item.match.head_start_b,
                now,
                tournament=view.tournament,
            )


def no_show_candidates(view, minutes, now=None):
    """The keys of the matches in play that were called ``minutes`` ago or more and whose
    first frame has not had a stroke: their players may not have come (one query)."""
    in_play = [item for item in view.in_play if item.match is not None]
    if not in_play:
        return set()
    cutoff = (now or timezone.now()) - timedelta(minutes=minutes)
    quiet = set(
        Frame.objects.filter(
            match_id__in=[item.match.pk for item in in_play], number=1, game__last_seq=0
        ).values_list("match_id", flat=True)
    )
    return {
        item.spec.key
        for item in in_play
        if item.match.pk in quiet and item.match.started_at <= cutoff
    }


# --- the protocol for a federation (tournaments.protocol) --------------------------------------


@dataclass
class ProtocolRow:
    """An entrant's line of a finished tournament's protocol."""

    place: str  # "1", "5–8"
    best: int
    worst: int
    name: str
    skill_class: str = ""  # players.SkillClass's value; a guest has none
    clubs: str = ""  # the clubs (and their cities) whose roster he is on
    won: int = 0  # matches, walkovers and withdrawals included
    lost: int = 0
    frames_for: int = 0  # frames of played matches (head starts included)
    frames_against: int = 0
    norm: str = ""  # the highest class norm his place meets (tournaments.protocol)

    @property
    def skill_class_label(self):
        return SkillClass(self.skill_class).label if self.skill_class else ""

    @property
    def norm_label(self):
        return SkillClass(self.norm).label if self.norm else ""


def protocol_rows(view):
    """The protocol's lines, best place first: every entrant with a place, his class and
    clubs, his matches and frames, and the class norm his place meets (``protocol``). Two
    queries more than the view (the players, their clubs); norms only as providers say."""
    norms = protocol.norms_for(view.tournament)
    rows = {}
    for seed, (best, worst) in view.state.places.items():
        entrant = view.entrants[seed]
        rows[seed] = ProtocolRow(
            place=str(best) if best == worst else f"{best}–{worst}",
            best=best,
            worst=worst,
            name=entrant.name,
            norm=protocol.norm_met((best, worst), norms),
        )
    for item in view.items:
        if item.status != "finished" or item.winner not in ("a", "b"):
            continue
        sides = {"a": (item.seed_a, item.score_a), "b": (item.seed_b, item.score_b)}
        for side, (seed, frames) in sides.items():
            row = rows.get(seed)
            if row is None:
                continue
            other = sides["b" if side == "a" else "a"][1]
            if side == item.winner:
                row.won += 1
            else:
                row.lost += 1
            if item.has_score:
                row.frames_for += frames or 0
                row.frames_against += other or 0
    players = {e.player_id: seed for seed, e in view.entrants.items() if e.player_id}
    people = Player.everywhere.filter(pk__in=list(players)).values_list(
        "pk", "skill_class", "full_name"
    )
    for pk, skill_class, full_name in people:
        if players[pk] in rows:  # a federation's protocol names the person in full
            rows[players[pk]].skill_class = skill_class
            rows[players[pk]].name = full_name
    clubs = {}
    members = Membership.everywhere.filter(player_id__in=list(players), is_guest=False)
    for pk, name, city in members.values_list("player_id", "club__name", "club__city"):
        clubs.setdefault(pk, []).append(f"{name} ({city})" if city else name)
    for pk, names in clubs.items():
        if players[pk] in rows:
            rows[players[pk]].clubs = ", ".join(sorted(names))
    return sorted(rows.values(), key=lambda row: (row.best, row.worst, row.name))


def protocol_desk_user(tournament):
    """Who ran the desk: the user who called most of its matches (their ``marker``), as his
    full name or user name; "" when unknown."""
    markers = Counter(
        Match.objects.filter(tournament=tournament, marker__isnull=False).values_list(
            "marker", flat=True
        )
    )
    if not markers:
        return ""
    marker_id = markers.most_common(1)[0][0]
    user = Match.objects.filter(tournament=tournament, marker_id=marker_id).first().marker
    return user.get_full_name() or user.get_username()
