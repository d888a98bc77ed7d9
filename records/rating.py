"""Elo ratings per variant family, recomputed from the stored finished games.

A rating is never stored as the truth: it is a pure function of the finished games, taken in
chronological order (``finished_at``, then ``id``). ``recompute(family)`` replays them all;
``update(ratings)`` applies only the games finished after the last one it has seen and gives
exactly the same figures; ``current(family)`` serves the ratings from Django's cache and
brings them up to date (incrementally when it can, from scratch when anything older changed).

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

from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum
from django.db.models.fields.json import KT

from games import rules
from games.i18n import render_message
from games.models import Game, GameStatus, Outcome, Seat

INITIAL = 1500.0
K = 32.0

# Variants whose final score is better when lower, and the games always played with a
# handicap, are facts of each game: ``rules.Variant.lower_score_wins`` / ``always_handicap``.

CACHE_KEY = "records:ratings:v1:{family}"


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
    return Game.objects.filter(status=GameStatus.FINISHED, variant__in=families()[family])


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
    seats = Seat.objects.order_by("game_id", "position").values_list(
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
    """(id, finished_at) of the newest finished game of any kind: one indexed query."""
    return (
        Game.objects.filter(status=GameStatus.FINISHED)
        .order_by("-finished_at", "-id")
        .values_list("id", "finished_at")
        .first()
    )


_memo: dict[str, tuple[object, Ratings]] = {}  # this process's copy: no unpickling per request


def current(family: str) -> Ratings:
    """The family's ratings as of the newest finished game, cached.

    The cache (this process's memo, then Django's cache, shared by the workers) is keyed by
    the newest finished game. When it has changed, the games finished since the cached figures
    are applied incrementally and the result is checked against the stored games (their number,
    the sum of their ids, the newest finishing time); if anything else changed (a game with an
    older finishing time appeared, one was removed), everything is recomputed. So the figures
    served always equal ``recompute(family)`` as of the newest finished game.
    """
    stamp = newest_finished_game()
    memo = _memo.get(family)
    if memo is not None and memo[0] == stamp:
        return memo[1]
    key = CACHE_KEY.format(family=family)
    cached = cache.get(key)
    if cached is not None and cached[0] == stamp:
        _memo[family] = cached
        return cached[1]
    state = cached[1] if cached is not None else None
    figures = _verify(family)
    if state is not None and not _matches(state, figures) and state.count < figures[0]:
        state = update(state)
    if state is None or not _matches(state, figures):
        state = recompute(family)
    _memo[family] = (stamp, state)
    cache.set(key, (stamp, state), None)
    return state


def forget():
    """Drops the cached ratings (e.g. after editing stored games by hand)."""
    _memo.clear()
    for family in families():
        cache.delete(CACHE_KEY.format(family=family))


def ratings_for(variant: str) -> Ratings:
    return current(family_of(variant))
