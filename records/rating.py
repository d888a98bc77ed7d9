"""Elo ratings per variant family, from the stored finished games.

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

The formula (classic Elo, every rating starts at ``INITIAL`` = 1500, ``K`` = 32)
    For players A and B with ratings Ra and Rb, A's expected score is
    ``Ea = 1 / (1 + 10 ** ((Rb - Ra) / 400))`` and his actual score ``Sa`` is 1 for a win,
    ½ for a draw, 0 for a loss; after the game ``Ra += K * (Sa - Ea)``.

Multi-player games (cork, and any game with more than two seats)
    A game of N rated players is read as N·(N−1)/2 pairwise results from the final
    placing: the winner (or the tied winners of a draw) first, then the others by their final
    score (higher is better; in «Кладка шаров кием» fewer adjusted strokes are better);
    equal places are a draw between those two. Every pairwise result is computed from the
    ratings *before* the game, and each player's change is ``K / (N − 1) * Σ (S − E)`` over
    his N − 1 opponents, so one game moves a rating at most as much as one two-player game.

Handicap games
    A handicap is meant to make the game even, so in a game played with one (all «Снимание
    шаров рукой» games, «Кладка шаров кием» with a handicap other than "none", a pyramid game
    with a head start or returned pots) the expected score is ½ for both: the rating rewards
    beating the handicap.

Guests (seats without a roster player) are not rated: the pairs they are part of are left
out. A game with fewer than two rated players changes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import groupby

from django.db import transaction
from django.db.models import Count, F, Max, Q, Subquery, Sum
from django.db.models.fields.json import KT

from games import rules
from games.i18n import render_message
from games.models import Game, GameStatus, Outcome, Seat
from records.models import Rating, RatingLedger, RatingPoint

logger = logging.getLogger(__name__)

INITIAL = 1500.0
K = 32.0

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
class RatedGame:
    """A finished game as the rating sees it: its rated players and their places (0 = best)."""

    game_id: int
    finished_at: datetime
    handicap: bool
    places: tuple[tuple[int, int], ...]  # (player_id, place)


@dataclass
class Ratings:
    """The ratings of one family after ``count`` games, the last being ``cursor``."""

    family: str
    ratings: dict[int, float] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)  # rated games per player
    # player_id -> [(game_id, finished_at timestamp, rating after the game), ...]
    history: dict[int, list[tuple[int, float, float]]] = field(default_factory=dict)
    cursor: tuple[datetime, int] | None = None  # (finished_at, id) of the last game applied
    count: int = 0  # games applied
    id_sum: int = 0  # sum of their ids: with count, tells whether older games changed

    def rating(self, player_id: int) -> float:
        return self.ratings.get(player_id, INITIAL)

    def copy(self) -> Ratings:
        return Ratings(
            self.family,
            dict(self.ratings),
            dict(self.games),
            {pid: list(points) for pid, points in self.history.items()},
            self.cursor,
            self.count,
            self.id_sum,
        )


def expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def rating_changes(
    places: tuple[tuple[int, int], ...], ratings: dict[int, float], handicap: bool = False
) -> dict[int, float]:
    """Each rated player's change for one game (see the module's docstring)."""
    n = len(places)
    if n < 2:
        return {}
    before = {pid: ratings.get(pid, INITIAL) for pid, _place in places}
    changes = {}
    for pid, place in places:
        total = 0.0
        for other, other_place in places:
            if other == pid:
                continue
            score = 1.0 if place < other_place else 0.5 if place == other_place else 0.0
            total += score - (0.5 if handicap else expected(before[pid], before[other]))
        changes[pid] = K * total / (n - 1)
    return changes


def apply_game(state: Ratings, game: RatedGame) -> None:
    """Applies one game to ``state`` in place (games must come in chronological order)."""
    for pid, change in rating_changes(game.places, state.ratings, game.handicap).items():
        rating = state.ratings.get(pid, INITIAL) + change
        state.ratings[pid] = rating
        state.games[pid] = state.games.get(pid, 0) + 1
        state.history.setdefault(pid, []).append(
            (game.game_id, game.finished_at.timestamp(), rating)
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


def load_games(family: str, after: tuple[datetime, int] | None = None) -> list[RatedGame]:
    """The family's finished games after ``after`` (all when None), oldest first.

    Two queries (the games, then their seats): no Python loop over events or settings.
    """
    games = list(
        _finished(family)
        .filter(_after(after))
        .annotate(
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
        "game_id", "player_id", "outcome", "score"
    )
    if after is None:
        seats = seats.filter(game__status=GameStatus.FINISHED, game__variant__in=families()[family])
    else:
        seats = seats.filter(game_id__in=[game[0] for game in games])
    by_game = {
        game_id: [row[1:] for row in rows]
        for game_id, rows in groupby(seats.iterator(chunk_size=10_000), key=lambda row: row[0])
    }
    return [
        RatedGame(
            game_id,
            finished_at,
            _handicapped(variant, handicap, head_start, returned_pots),
            _places(variant, by_game.get(game_id, ())),
        )
        for game_id, finished_at, variant, handicap, head_start, returned_pots in games
    ]


def _handicapped(variant, handicap, head_start, returned_pots):
    """Was the game played with a handicap? Always for some games; «Кладка шаров кием» by its
    kind; the pyramid games by a head start or returned pots (settings read as text)."""
    if rules.get_variant(variant).always_handicap:
        return True
    return handicap not in (None, "", "none") or any(
        value not in (None, "", "0") for value in (head_start, returned_pots)
    )


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


def newest_finished_game():
    """(id, finished_at, newest confirmation) of the newest finished game of any kind: one
    query of two indexed lookups. A game scored by its players counts from its confirmation
    (``games.services.confirm_game``) but keeps its own end, which may be older than the
    newest finished game: its confirmation moment changes the stamps too."""
    confirmed = Game.everywhere.filter(confirmed_at__isnull=False).order_by("-confirmed_at")
    return (
        Game.everywhere.filter(status=GameStatus.FINISHED)
        .order_by("-finished_at", "-id")
        .annotate(confirmed=Subquery(confirmed.values("confirmed_at")[:1]))
        .values_list("id", "finished_at", "confirmed")
        .first()
    )


# --- kept up to date in the database, game by game (records.models) ------------------------


def _stamp(newest=None) -> str:
    """The newest finished game of any kind as text (ratings stored under it are current)."""
    newest = newest_finished_game() if newest is None else newest
    if not newest:
        return ""
    confirmed = f":{newest[2].timestamp()}" if len(newest) > 2 and newest[2] else ""
    return f"{newest[0]}:{newest[1].isoformat()}{confirmed}"  # at most 56 characters


def newest_stamp() -> str:
    """What ``current`` checks its copy against: the newest finished game (one query)."""
    return _stamp()


class _History:
    """A family's rating points, read for one player when asked (the player page)."""

    def __init__(self, family):
        self.family = family

    def get(self, player_id, default=None):
        points = RatingPoint.objects.filter(family=self.family, player_id=player_id)
        rows = points.order_by("finished_at", "game_id").values_list(
            "game_id", "finished_at", "rating"
        )
        return [(game_id, at.timestamp(), value) for game_id, at, value in rows] or default


class StoredRatings:
    """A family's ratings as stored (``Rating`` rows), as of the ledger's last game: what
    ``current`` serves. ``rating``, ``ratings``, ``games`` and ``count`` as ``Ratings``'s;
    ``history.get(player_id)`` reads that player's points."""

    def __init__(self, family, ledger, rows, stamp):
        self.family, self.stamp = family, stamp
        self.ratings = {player_id: value for player_id, value, _games in rows}
        self.games = {player_id: games for player_id, _value, games in rows}
        self.count = ledger.count
        self.cursor = (ledger.last_finished_at, ledger.last_game_id) if ledger.count else None
        self.history = _History(family)

    def rating(self, player_id: int) -> float:
        return self.ratings.get(player_id, INITIAL)


_memo: dict[str, StoredRatings] = {}  # this process's copy of each family's ratings


def current(family: str, stamp: str | None = None) -> StoredRatings:
    """The family's ratings as of the newest finished game.

    Stored in the database and brought up to date as each game finishes (``game_finished``,
    which ``games.services.finish_game`` calls), so a page only reads them: one query to
    check the newest finished game while this process's copy is current, two more when it is
    not. If the stored ratings are behind (games finished while none was applied, a finish
    taken back, games edited by hand), ``catch_up`` applies the newer games or, when older
    ones changed, recomputes them all. So the figures served always equal
    ``recompute(family)`` as of the newest finished game (``stamp``: ``newest_stamp()``'s,
    read once by a page that asks for several families).
    """
    stamp = _stamp() if stamp is None else stamp
    memo = _memo.get(family)
    if memo is not None and memo.stamp == stamp:
        return memo
    ledger = RatingLedger.objects.filter(family=family).first()
    if ledger is None or ledger.stamp != stamp:
        ledger = catch_up(family, stamp)
    rows = Rating.objects.filter(family=family).values_list("player_id", "rating", "games")
    _memo[family] = StoredRatings(family, ledger, list(rows), stamp)
    return _memo[family]


def catch_up(family: str, stamp: str | None = None) -> RatingLedger:
    """Brings the family's stored ratings up to date (its ledger row locked meanwhile):
    applies the games finished after the last one applied, writing only the changed players'
    rows and their new points; recomputes them all when older games changed."""
    stamp = _stamp() if stamp is None else stamp
    with transaction.atomic():
        RatingLedger.objects.get_or_create(family=family)
        ledger = RatingLedger.objects.select_for_update().get(family=family)
        figures = _verify(family)
        state = Ratings(family, count=ledger.count, id_sum=ledger.id_sum)
        if ledger.count:
            state.cursor = (ledger.last_finished_at, ledger.last_game_id)
        if not _matches(state, figures) and state.count < figures[0]:
            for player_id, value, games in Rating.objects.filter(family=family).values_list(
                "player_id", "rating", "games"
            ):
                state.ratings[player_id], state.games[player_id] = value, games
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


def _store(family, state, points):
    """Writes the ratings of the players in ``points`` and those points."""
    Rating.objects.bulk_create(
        [
            Rating(family=family, player_id=pid, rating=state.ratings[pid], games=state.games[pid])
            for pid in points
        ],
        update_conflicts=True,
        unique_fields=["family", "player"],
        update_fields=["rating", "games"],
        batch_size=2_000,
    )
    RatingPoint.objects.bulk_create(
        [
            RatingPoint(
                family=family,
                player_id=pid,
                game_id=game_id,
                finished_at=datetime.fromtimestamp(at, tz=UTC),
                rating=value,
            )
            for pid, rows in points.items()
            for game_id, at, value in rows
        ],
        batch_size=5_000,
    )


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
    as it nearly always is, its players' ratings go back to their points before it; otherwise
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
                    rows.update(rating=before.rating, games=F("games") - 1)
            RatingPoint.objects.filter(family=family, game_id=game.pk).delete()
            last = (
                _finished(family).order_by("-finished_at", "-id").values_list("finished_at", "id")
            ).first()
            ledger.count, ledger.id_sum = ledger.count - 1, ledger.id_sum - game.pk
            ledger.last_finished_at, ledger.last_game_id = last or (None, None)
            ledger.stamp = _stamp()
            ledger.save()
    except Exception:  # noqa: BLE001 - the correction matters more than the rating
        logger.exception("Ratings not taken back for game %s", game.pk)


def forget(stored=True):
    """Drops this process's copy of the ratings and (``stored``) the stored ones: the next
    read recomputes them all (e.g. after editing stored games by hand)."""
    _memo.clear()
    if stored:
        RatingLedger.objects.all().delete()


def ratings_for(variant: str) -> Ratings:
    return current(family_of(variant))
