"""The ratings per variant family, from the stored finished games: Glicko-2, each a rating
with its deviation (``records.glicko``).

A rating is a pure function of the finished games, taken in chronological order
(``finished_at``, then ``id``). ``recompute(family)`` replays them all; ``update(ratings)``
applies only the games finished after the last one it has seen and gives exactly the same
figures. The site keeps them stored (``records.models``): each finished game is applied as it
finishes (``game_finished``, a hook of ``games.services.finish_game``), and
``current(family)`` serves the stored figures, catching up (incrementally when it can, from
scratch when anything older changed) if they are behind.

Families
    ``families()`` groups the games whose results measure the same skill, as each game's
    ``rules.Variant.rating_family`` says. «Пробка» (cork) is a multi-player game of its own;
    the traditional source's pocketing games (balls clockwise, pocketing with the cue, cue
    against hand) and «Кладка шаров по порядку номеров», the base of the clockwise game, all measure
    potting, so they share one rating (``rules.POCKETING``). The four pyramid games
    (Свободная, Комбинированная, Динамичная, Классическая) are played on the same table with
    the same skills and are what a club's pyramid tournament mixes: one rating
    (``games.rules.pyramid.PYRAMID``).

One game
    Each rated player's skill is updated by Glicko-2 from his results against each of the
    others (``glicko.rate``; the skills before the game on both sides). A newcomer starts from
    his sports class (``glicko.start``: the class he has when his first game is rated).
    Results come from the final placing: the winner (or the tied winners of a draw) first,
    then the others by their final score (higher is better; in «Кладка шаров кием» fewer
    adjusted strokes are better); equal places are a draw between those two. A game of N
    players (cork) is N − 1 results for each.

Handicap games
    A game counts as its handicap made it. A pyramid game's head start ("8–7"; in points a
    ball is the target / 8) and returned pots are a race of balls (``odds.with_handicap``,
    as the odds on the pages read it, ``records.forecast``): the expected score of each player is
    his chance with that handicap, so the weaker player who wins a frame he was given good
    odds in gains less than one who beat an even frame. The traditional games' handicaps
    (every «Снимание шаров рукой», «Кладка шаров кием» with extra strokes) have no such
    model: they are meant to make the game even, and count as an even chance for both.

Guests (seats without a roster player) are not rated: the pairs they are part of are left
out. A game with fewer than two rated players changes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Count, Max, Q, Subquery, Sum
from django.db.models.fields.json import KT
from django.utils import timezone

from games import rules
from games.i18n import render_message
from games.models import Game, GameStatus, Outcome, Seat
from records import glicko, odds
from records.models import Rating, RatingLedger, RatingPoint

logger = logging.getLogger(__name__)

INITIAL = glicko.INITIAL
DAY = 86_400.0

# Variants whose final score is better when lower, and the games always played with a
# handicap, are facts of each game: ``rules.Variant.lower_score_wins`` / ``always_handicap``.


def families() -> dict[str, tuple[str, ...]]:
    """Family key -> the variant keys rated in it, in the engine's order (``Variant.family``)."""
    grouped: dict[str, tuple[str, ...]] = {}
    for variant in rules.VARIANTS.values():
        grouped[variant.family.key] = grouped.get(variant.family.key, ()) + (variant.key,)
    return grouped


def family_of(variant: str) -> str:
    return rules.get_variant(variant).family.key


def family_label(family: str) -> str:
    """The family's name in the active language."""
    variant = next(v for v in rules.VARIANTS.values() if v.family.key == family)
    return render_message(variant.family.name)


@dataclass(frozen=True)
class BallRace:
    """A pyramid game's handicap as a race of balls (points): the weaker seat's player needs
    ``target − head_start``, the stronger ``target + returned``."""

    weaker: int  # player id
    target: int  # balls
    head_start: float  # balls (of points: a ball is the target / 8 points)
    returned: int


@dataclass(frozen=True)
class RatedGame:
    """A finished game as the rating sees it: its rated players and their places (0 = best),
    each player's class (where a newcomer starts), and its handicap: None (an even game),
    ``EVEN`` (a handicap meant to make it even) or a ``BallRace``."""

    game_id: int
    finished_at: datetime
    handicap: object
    places: tuple[tuple[int, int], ...]  # (player_id, place)
    classes: tuple[str | None, ...] = ()  # per place

    @property
    def day(self) -> float:
        return self.finished_at.timestamp() / DAY


EVEN = "even"


@dataclass
class Ratings:
    """The ratings of one family after ``count`` games, the last being ``cursor``."""

    family: str
    ratings: dict[int, float] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)  # rated games per player
    # player_id -> [(game_id, finished_at timestamp, rating, deviation, volatility), ...]
    history: dict[int, list[tuple]] = field(default_factory=dict)
    cursor: tuple[datetime, int] | None = None  # (finished_at, id) of the last game applied
    count: int = 0  # games applied
    id_sum: int = 0  # sum of their ids: with count, tells whether older games changed
    skills: dict[int, glicko.Skill] = field(default_factory=dict)

    def rating(self, player_id: int) -> float:
        return self.ratings.get(player_id, INITIAL)

    def skill(self, player_id: int) -> glicko.Skill | None:
        """His skill after his last game (None: no rated game)."""
        return self.skills.get(player_id)

    def copy(self) -> Ratings:
        return Ratings(
            self.family,
            dict(self.ratings),
            dict(self.games),
            {pid: list(points) for pid, points in self.history.items()},
            self.cursor,
            self.count,
            self.id_sum,
            dict(self.skills),
        )


def _expected(handicap, pid, other, skills):
    """``pid``'s expected score against ``other`` as the game's handicap made it (None: as
    their skills say)."""
    if handicap is None:
        return None
    if handicap == EVEN:
        return 0.5
    if pid == handicap.weaker:
        p = glicko.expected_score(skills[pid], skills[other])
        return odds.with_handicap(p, handicap.target, handicap.head_start, handicap.returned)
    p = glicko.expected_score(skills[other], skills[pid])
    return 1.0 - odds.with_handicap(p, handicap.target, handicap.head_start, handicap.returned)


def skill_changes(game: RatedGame, skills: dict[int, glicko.Skill]) -> dict[int, glicko.Skill]:
    """Each rated player's skill after ``game`` (see the module's docstring)."""
    if len(game.places) < 2:
        return {}
    classes = dict(zip((pid for pid, _place in game.places), game.classes, strict=False))
    day = game.day
    before = {
        pid: (skills.get(pid) or glicko.start(classes.get(pid))).at(day)
        for pid, _place in game.places
    }
    after = {}
    for pid, place in game.places:
        results = [
            glicko.Result(
                before[other],
                1.0 if place < other_place else 0.5 if place == other_place else 0.0,
                _expected(game.handicap, pid, other, before),
            )
            for other, other_place in game.places
            if other != pid
        ]
        after[pid] = glicko.rate(before[pid], results, day)
    return after


def apply_game(state: Ratings, game: RatedGame) -> None:
    """Applies one game to ``state`` in place (games must come in chronological order)."""
    for pid, skill in skill_changes(game, state.skills).items():
        state.skills[pid] = skill
        state.ratings[pid] = skill.rating
        state.games[pid] = skill.games
        state.history.setdefault(pid, []).append(
            (
                game.game_id,
                game.finished_at.timestamp(),
                skill.rating,
                skill.deviation,
                skill.volatility,
            )
        )
    state.cursor = (game.finished_at, game.game_id)
    state.count += 1
    state.id_sum += game.game_id


# --- loading the games --------------------------------------------------------------------


def _finished(family: str):
    # The network's games: a rating is one per person across the clubs he plays at (and one
    # set of stored rows for the site, which a club's games alone would keep recomputing).
    return Game.everywhere.filter(status=GameStatus.FINISHED, variant__in=families()[family])


def _after(cursor, prefix=""):
    if cursor is None:
        return Q()
    finished_at, game_id = cursor
    return Q(**{f"{prefix}finished_at__gt": finished_at}) | Q(
        **{f"{prefix}finished_at": finished_at, f"{prefix}id__gt": game_id}
    )


def load_games(family: str, after: tuple[datetime, int] | None = None, ids=None) -> list[RatedGame]:
    """The family's finished games after ``after`` (all when None), oldest first; only
    those of ``ids`` when given (``records.performance`` reads a person's games so).

    Three queries (the games, their seats with the players' classes, the settings of the
    pyramid games played with a head start): no Python loop over events.
    """
    found = _finished(family).filter(_after(after))
    if ids is not None:
        found = found.filter(id__in=list(ids))
    games = list(
        found.annotate(
            handicap=KT("settings__handicap"),
            head_start=KT("settings__head_start"),
            returned_pots=KT("settings__returned_pots"),
        )
        .order_by("finished_at", "id")
        .values_list("id", "finished_at", "variant", "handicap", "head_start", "returned_pots")
    )
    if not games:
        return []
    seats = Seat.everywhere.order_by("game_id", "position").values_list(
        "game_id", "player_id", "outcome", "score", "player__skill_class"
    )
    if after is None and ids is None:
        seats = seats.filter(game__status=GameStatus.FINISHED, game__variant__in=families()[family])
    else:
        seats = seats.filter(game_id__in=[game[0] for game in games])
    by_game = {
        game_id: [row[1:] for row in rows]
        for game_id, rows in groupby(seats.iterator(chunk_size=10_000), key=lambda row: row[0])
    }
    handicaps = {
        game_id: _handicap_kind(variant, handicap, head_start, returned_pots)
        for game_id, _at, variant, handicap, head_start, returned_pots in games
    }
    races = _ball_races([game_id for game_id, kind in handicaps.items() if kind == RACE], by_game)
    rated = []
    for game_id, finished_at, variant, *_settings in games:
        seats_of = by_game.get(game_id, ())
        places = _places(variant, [seat[:3] for seat in seats_of])
        classes = {seat[0]: seat[3] for seat in seats_of}
        kind = handicaps[game_id]
        handicap = races.get(game_id, EVEN) if kind == RACE else kind
        rated.append(
            RatedGame(
                game_id,
                finished_at,
                handicap,
                places,
                tuple(classes.get(pid) for pid, _place in places),
            )
        )
    return rated


RACE = "race"
HEAD_START_GAMES = (rules.ADVICE_HEAD_START_BALLS, rules.ADVICE_HEAD_START_POINTS)
BALLS_PER_FRAME = 8  # a game of points reads a ball as its target / 8 points


def _handicap_kind(variant, handicap, head_start, returned_pots):
    """None (an even game), ``EVEN`` (a handicap meant to even it: always for some games;
    «Кладка шаров кием» by its kind) or ``RACE`` (a pyramid game's head start or returned
    pots, read as a race of balls). Settings are read as text."""
    game = rules.get_variant(variant)
    if game.always_handicap or handicap not in (None, "", "none"):
        return EVEN
    if any(value not in (None, "", "0") for value in (head_start, returned_pots)):
        return RACE if game.handicap_advice in HEAD_START_GAMES else EVEN
    return None


def _ball_races(game_ids, by_game) -> dict[int, BallRace]:
    """The ball races of the pyramid games played with a head start (their full settings)."""
    races = {}
    settings = Game.everywhere.filter(id__in=game_ids).values_list("id", "variant", "settings")
    for game_id, variant, data in settings.iterator(chunk_size=2_000):
        seats = [seat[0] for seat in by_game.get(game_id, ())]
        try:
            parsed = rules.get_variant(variant).settings_from_dict({"players": 2, **data})
            handicap = parsed.handicap
            weaker = seats[handicap.weaker_seat]
        except (rules.SettingsError, IndexError, AttributeError, KeyError, ValueError, TypeError):
            continue  # unreadable settings: counted as an even handicap
        if weaker is None or len(seats) != 2:
            continue
        target, head_start = parsed.target, handicap.head_start
        if rules.get_variant(variant).handicap_advice != rules.ADVICE_HEAD_START_BALLS:
            target, head_start = BALLS_PER_FRAME, head_start * BALLS_PER_FRAME / target
        races[game_id] = BallRace(weaker, target, head_start, handicap.returned_pots)
    return races


TOP = frozenset({Outcome.WIN, Outcome.DRAW})


def _places(variant, seats):
    """(player_id, place) for the rated seats: winners first, then by final score."""
    if len(seats) == 2:  # the usual two-player game: only the outcomes matter
        (first, first_outcome, _s1), (second, second_outcome, _s2) = seats
        if first is not None and second is not None and first != second:
            return (
                (first, 0 if first_outcome in TOP else 1),
                (second, 0 if second_outcome in TOP else 1),
            )
    sign = 1 if rules.get_variant(variant).lower_score_wins else -1

    def key(seat):
        _pid, outcome, score = seat
        top = outcome in TOP
        return (0 if top else 1, 0 if top or score is None else sign * score, score is None)

    keys = sorted({key(seat) for seat in seats})
    seen = set()
    places = []
    for seat in seats:
        pid = seat[0]
        if pid is None or pid in seen:
            continue
        seen.add(pid)
        places.append((pid, keys.index(key(seat))))
    return tuple(places)


# --- full, incremental, cached --------------------------------------------------------------


def recompute(family: str) -> Ratings:
    """The family's ratings replayed from scratch over every finished game."""
    state = Ratings(family)
    for game in load_games(family):
        apply_game(state, game)
    return state


def update(state: Ratings) -> Ratings:
    """A copy of ``state`` with the games finished after its cursor applied."""
    new = state.copy()
    for game in load_games(state.family, after=state.cursor):
        apply_game(new, game)
    return new


def _verify(family: str) -> tuple[int, int, datetime | None]:
    """(number of finished games, sum of their ids, newest finished_at): one query."""
    figures = _finished(family).aggregate(n=Count("id"), ids=Sum("id"), last=Max("finished_at"))
    return figures["n"], figures["ids"] or 0, figures["last"]


def _matches(state: Ratings, figures) -> bool:
    return (state.count, state.id_sum, state.cursor[0] if state.cursor else None) == figures


def newest_finished_game(family: str | None = None, games=None):
    """(id, finished_at, newest confirmation) of the newest finished game of the family (of
    any kind: None) among ``games`` (the network's): one query of two indexed lookups. A game
    scored by its players counts from its confirmation (``games.services.confirm_game``) but
    keeps its own end, which may be older than the newest finished game: its confirmation
    moment changes the stamps too."""
    games = Game.everywhere.all() if games is None else games
    if family is not None:
        games = games.filter(variant__in=families()[family])
    confirmed = games.filter(confirmed_at__isnull=False).order_by("-confirmed_at")
    return (
        games.filter(status=GameStatus.FINISHED)
        .order_by("-finished_at", "-id")
        .annotate(confirmed=Subquery(confirmed.values("confirmed_at")[:1]))
        .values_list("id", "finished_at", "confirmed")
        .first()
    )


# --- kept up to date in the database, game by game (records.models) ------------------------


def _stamp(family: str | None = None, newest=None) -> str:
    """The family's newest finished game as text (its ratings stored under it are current):
    a game of another family leaves them current."""
    newest = newest_finished_game(family) if newest is None else newest
    if not newest:
        return ""
    confirmed = f":{newest[2].timestamp()}" if len(newest) > 2 and newest[2] else ""
    return f"{newest[0]}:{newest[1].isoformat()}{confirmed}"  # at most 56 characters


class _History:
    """A family's rating points, read for one player when asked (the player page)."""

    def __init__(self, family):
        self.family = family

    def get(self, player_id, default=None):
        points = RatingPoint.objects.filter(family=self.family, player_id=player_id)
        rows = points.order_by("finished_at", "game_id").values_list(
            "game_id", "finished_at", "rating", "deviation", "volatility"
        )
        return [(game_id, at.timestamp(), *figures) for game_id, at, *figures in rows] or default


def newest_points(player_id: int, families) -> dict[str, int]:
    """{family: the id of his newest rating point} (one query): what his own figures are
    cached under. They change only with a game of his own; a recompute of the stored ratings
    writes every point anew, under new ids; a game taken back takes its points away."""
    rows = RatingPoint.objects.filter(player_id=player_id, family__in=list(families))
    return dict(rows.values("family").annotate(newest=Max("pk")).values_list("family", "newest"))


def history(family: str, player_id: int) -> list[tuple]:
    """His points in the family, oldest first: [(game_id, timestamp, rating, deviation,
    volatility), …] (one query)."""
    return _History(family).get(player_id, [])


class StoredRatings:
    """A family's ratings as stored (``Rating`` rows), as of the ledger's last game: what
    ``current`` serves. ``rating``, ``skill``, ``ratings``, ``games`` and ``count`` as
    ``Ratings``'s; ``history.get(player_id)`` reads that player's points."""

    def __init__(self, family, ledger, rows, stamp):
        self.family, self.stamp = family, stamp
        self.skills = {row[0]: _skill(*row[1:]) for row in rows}
        self.ratings = {pid: skill.rating for pid, skill in self.skills.items()}
        self.games = {pid: skill.games for pid, skill in self.skills.items()}
        self.count = ledger.count
        self.cursor = (ledger.last_finished_at, ledger.last_game_id) if ledger.count else None
        self.history = _History(family)

    def rating(self, player_id: int) -> float:
        return self.ratings.get(player_id, INITIAL)

    def skill(self, player_id: int) -> glicko.Skill | None:
        return self.skills.get(player_id)


SKILL_FIELDS = ("player_id", "rating", "deviation", "volatility", "games", "last_played")


def _skill(value, deviation, volatility, games, last_played):
    day = last_played.timestamp() / DAY if last_played else None
    return glicko.Skill(value, deviation, volatility, games, day)


_memo: dict[str, StoredRatings] = {}  # this process's copy of each family's ratings


def current(family: str, stamp: str | None = None) -> StoredRatings:
    """The family's ratings as of the newest finished game, every person's.

    Stored in the database and brought up to date as each game finishes (``game_finished``,
    which ``games.services.finish_game`` calls), so a page only reads them: one query to
    check the newest finished game while this process's copy is current, two more when it is
    not. If the stored ratings are behind (games finished while none was applied, a finish
    taken back, games edited by hand), ``catch_up`` applies the newer games or, when older
    ones changed, recomputes them all. So the figures served always equal
    ``recompute(family)`` as of the family's newest finished game (``stamp``:
    ``_stamp(family)``'s). A page that needs a few people's
    ratings reads only theirs (``skills``): a network's family has tens of thousands.
    """
    stamp = _stamp(family) if stamp is None else stamp
    memo = _memo.get(family)
    if memo is not None and memo.stamp == stamp:
        return memo
    ledger = _up_to_date(family, stamp)
    rows = Rating.objects.filter(family=family).values_list(*SKILL_FIELDS)
    _memo[family] = StoredRatings(family, ledger, list(rows), stamp)
    return _memo[family]


def up_to_date(family: str) -> None:
    """Brings the family's stored ratings and points up to date with its finished games
    (two queries while they are)."""
    _up_to_date(family, _stamp(family))


def _up_to_date(family, stamp) -> RatingLedger:
    ledger = RatingLedger.objects.filter(family=family).first()
    if ledger is None or ledger.stamp != stamp:
        ledger = catch_up(family, stamp)
    return ledger


def skills(family: str, player_ids, stamp: str | None = None) -> dict[int, glicko.Skill]:
    """The stored skills of these people (those with rated games), as of the newest
    finished game: two or three queries however many people the family rates."""
    stamp = _stamp(family) if stamp is None else stamp
    memo = _memo.get(family)
    if memo is not None and memo.stamp == stamp:
        return {pid: memo.skills[pid] for pid in player_ids if pid in memo.skills}
    _up_to_date(family, stamp)
    rows = Rating.objects.filter(family=family, player_id__in=list(player_ids))
    return {row[0]: _skill(*row[1:]) for row in rows.values_list(*SKILL_FIELDS)}


def catch_up(family: str, stamp: str | None = None) -> RatingLedger:
    """Brings the family's stored ratings up to date (its ledger row locked meanwhile):
    applies the games finished after the last one applied, writing only the changed players'
    rows and their new points; recomputes them all when older games changed."""
    stamp = _stamp(family) if stamp is None else stamp
    with transaction.atomic():
        RatingLedger.objects.get_or_create(family=family)
        ledger = RatingLedger.objects.select_for_update().get(family=family)
        figures = _verify(family)
        state = Ratings(family, count=ledger.count, id_sum=ledger.id_sum)
        if ledger.count:
            state.cursor = (ledger.last_finished_at, ledger.last_game_id)
        if not _matches(state, figures) and state.count < figures[0]:
            for row in Rating.objects.filter(family=family).values_list(*SKILL_FIELDS):
                skill = _skill(*row[1:])
                state.skills[row[0]], state.ratings[row[0]] = skill, skill.rating
                state.games[row[0]] = skill.games
            for game in load_games(family, after=state.cursor):
                apply_game(state, game)  # state.history: only the new points
            if _matches(state, figures):
                _store(family, state, state.history)
        if not _matches(state, figures):
            state = recompute(family)
            Rating.objects.filter(family=family).delete()
            RatingPoint.objects.filter(family=family).delete()
            _store(family, state, state.history)
        ledger.count, ledger.id_sum, ledger.stamp = state.count, state.id_sum, stamp
        ledger.last_finished_at, ledger.last_game_id = state.cursor or (None, None)
        ledger.save()
    return ledger


def _at(timestamp):
    return datetime.fromtimestamp(timestamp, tz=UTC)


def _store(family, state, points):
    """Writes the ratings of the players in ``points`` and those points."""
    Rating.objects.bulk_create(
        [
            Rating(
                family=family,
                player_id=pid,
                rating=skill.rating,
                deviation=skill.deviation,
                volatility=skill.volatility,
                games=skill.games,
                last_played=_at(rows[-1][1]),
            )
            for pid, rows in points.items()
            for skill in [state.skills[pid]]
        ],
        update_conflicts=True,
        unique_fields=["family", "player"],
        update_fields=["rating", "deviation", "volatility", "games", "last_played"],
        batch_size=2_000,
    )
    points = (
        (family, pid, game_id, _at(at), value, deviation, volatility)
        for pid, rows in points.items()
        for game_id, at, value, deviation, volatility in rows
    )
    if connection.vendor == "postgresql":  # a rebuild writes millions: COPY, not INSERTs
        _copy(RatingPoint, POINT_FIELDS, points)
        return
    RatingPoint.objects.bulk_create(
        [RatingPoint(**dict(zip(POINT_FIELDS, row, strict=True))) for row in points],
        batch_size=5_000,
    )


POINT_FIELDS = ("family", "player_id", "game_id", "finished_at", "rating", "deviation")
POINT_FIELDS += ("volatility",)


def _copy(model, names, rows):
    """Writes ``rows`` (tuples of the fields ``names``) with PostgreSQL's COPY."""
    fields = {field.attname: field.column for field in model._meta.concrete_fields}
    columns = ", ".join(f'"{fields[name]}"' for name in names)
    with connection.cursor() as cursor:
        sql = f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN'
        with cursor.cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)


def game_finished(game) -> None:
    """``games.services.finish_game``'s hook: the game's family is brought up to date in the
    same transaction. A rating that cannot be written never fails the finish: it is logged,
    and the next page that reads the ratings catches up."""
    try:
        with transaction.atomic():
            catch_up(family_of(game.variant))
    except Exception:  # noqa: BLE001 - the game's result matters more than its rating
        logger.exception("Ratings not brought up to date for game %s", game.pk)


def game_reopened(game) -> None:
    """``games.services.reopen_game``'s hook: a finish taken back (a marker correcting the
    last frame) is taken out of the stored ratings. When it is the family's last game applied,
    as it nearly always is, its players' skills go back to their points before it; otherwise
    the next read finds the figures changed and recomputes them all."""
    family = family_of(game.variant)
    try:
        with transaction.atomic():
            ledger = RatingLedger.objects.select_for_update().filter(family=family).first()
            if ledger is None or ledger.last_game_id != game.pk:
                return
            for point in RatingPoint.objects.filter(family=family, game_id=game.pk):
                before = (
                    RatingPoint.objects.filter(family=family, player_id=point.player_id)
                    .exclude(game_id=game.pk)
                    .order_by("-finished_at", "-game_id")
                    .first()
                )
                rows = Rating.objects.filter(family=family, player_id=point.player_id)
                if before is None:
                    rows.delete()
                else:
                    games = RatingPoint.objects.filter(
                        family=family, player_id=point.player_id
                    ).exclude(game_id=game.pk)
                    rows.update(
                        rating=before.rating,
                        deviation=before.deviation,
                        volatility=before.volatility,
                        games=games.count(),
                        last_played=before.finished_at,
                    )
            RatingPoint.objects.filter(family=family, game_id=game.pk).delete()
            last = (
                _finished(family).order_by("-finished_at", "-id").values_list("finished_at", "id")
            ).first()
            ledger.count, ledger.id_sum = ledger.count - 1, ledger.id_sum - game.pk
            ledger.last_finished_at, ledger.last_game_id = last or (None, None)
            ledger.stamp = _stamp(family)
            ledger.save()
    except Exception:  # noqa: BLE001 - the correction matters more than the rating
        logger.exception("Ratings not taken back for game %s", game.pk)


def forget(stored=True):
    """Drops this process's copy of the ratings and (``stored``) the stored ones: the next
    read recomputes them all (e.g. after editing stored games by hand)."""
    _memo.clear()
    if stored:
        RatingLedger.objects.all().delete()


def ratings_for(variant: str) -> StoredRatings:
    return current(family_of(variant))


def today() -> float:
    """Now, in the days ``glicko.Skill`` counts in."""
    return timezone.now().timestamp() / DAY


def skill_of(family: str, player_id: int | None, skill_class: str | None = None) -> glicko.Skill:
    """A person's skill in ``family`` as of now (his deviation widened by the time since his
    last game); a person without rated games (or a guest: None) starts from his class."""
    skill = skills(family, [player_id]).get(player_id) if player_id is not None else None
    if skill is None:
        return glicko.start(skill_class)
    return skill.at(today())
