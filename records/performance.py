"""Performance ratings and form, read from the stored games and rating points (reads only).

A performance rating is the rating that would have predicted a run of results: the R for
which the expected scores against the opponents add up to the score made
(``odds.performance``, with its standard error). Here a run is a person's rated games of one
family: a month of them (``monthly``: months in the club's time zone), a tournament's frames
(``of_games``, handed the game ids by ``tournaments.selectors``: records imports nothing of
tournaments), or his last ``FORM_GAMES`` (``forms``).

Each game counts as the rating counted it (``records.rating``)
    His result against each other rated player of the game (a cork game of N players is
    N − 1 results), from the final places; each opponent at the rating he had **before**
    that game (his rating point before it, ``RatingPoint``; a newcomer where his class
    starts him). A handicap game counts as its handicap made it: against an opponent moved
    to where the expected score the handicap left says — a pyramid head start read as a race
    of balls (``odds.with_handicap``), a handicap meant to make the game even as an opponent
    of his own rating. So a run of handicap games won beyond what the handicaps allowed reads
    as strength, as the rating reads it.

"The rating he had then" (``Performance.before``) is his rating and deviation going into the
run: before its first game, the deviation widened to that day.

Form (``forms``): his last ``FORM_GAMES`` rated games of the family against his rating ± its
deviation today (``odds.form``): flagged when the run's performance is more than
``odds.FORM_Z`` standard deviations above the rating, counting the run's standard error and
the rating's deviation. Fewer than ``FORM_MIN_GAMES`` games are never flagged: a short lucky
run says too little to question anyone's handicap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.core.cache import cache
from django.db.models import F, OuterRef, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from records import glicko, odds, rating
from records.models import RatingPoint

FORM_GAMES = 15  # the last N rated games of a family his form is read from
FORM_MIN_GAMES = 10  # fewer are never flagged
MONTHS = 6  # the player page's months of performance per family
MAX_GAMES = 2_000  # at most this many of his newest games are read for the months


@dataclass(frozen=True)
class Performance:
    """A run of rated games: its performance rating and standard error, how many games and
    results (a cork game is several), the score made, and his rating and deviation going in."""

    rating: float
    error: float
    games: int
    results: int
    score: float
    before: float
    deviation: float
    first: datetime
    last: datetime

    @property
    def score_text(self) -> str:
        """The score as a club writes it: 3½, ½, 4."""
        whole, half = divmod(round(self.score * 2), 2)
        return f"{whole or ''}½" if half else str(whole)


@dataclass(frozen=True)
class _Game:
    """One rated game of one player: when, his skill before it, and his results in it as
    (the opponent as the game's handicap made him, score)."""

    game_id: int
    finished_at: datetime
    before: glicko.Skill
    results: tuple[tuple[float, float], ...]


def _as_played(mine: float, theirs: float, handicap, pid: int, other: int) -> float:
    """The opponent's rating as the game's handicap made him: the rating that gives ``pid``
    the expected score the handicap left (``rating._expected``'s reading, on the Elo curve)."""
    if handicap is None:
        return theirs
    if handicap == rating.EVEN:
        return mine
    p = odds.elo_expected(mine, theirs)
    race = (handicap.target, handicap.head_start, handicap.returned)
    if pid == handicap.weaker:
        expected = odds.with_handicap(p, *race)
    elif other == handicap.weaker:
        expected = 1.0 - odds.with_handicap(1.0 - p, *race)
    else:
        return theirs
    expected = min(max(expected, 1e-6), 1 - 1e-6)
    return mine - math.log(expected / (1.0 - expected)) / odds.ELO


def _skills_before(family: str, games) -> dict[tuple[int, int], glicko.Skill]:
    """(player, game) -> his skill before that game, for every rated player of ``games``
    (``RatedGame``s) who had a rated game before it (two queries).

    His point before a game is the newest with (finished_at, game_id) below the game's:
    written as "finished_at ≤ the game's, but not a later one of the same moment", which an
    index scan backwards from the game's moment answers at once (an "earlier moment, or the
    same and a lower id" makes PostgreSQL walk back from his newest point)."""
    if not games:
        return {}
    earlier = (
        RatingPoint.objects.filter(family=family, player_id=OuterRef("player_id"))
        .filter(finished_at__lte=OuterRef("finished_at"))
        .exclude(finished_at=OuterRef("finished_at"), game_id__gte=OuterRef("game_id"))
        .order_by("-finished_at", "-game_id")
        .values("pk")[:1]
    )
    players = {pid for game in games for pid, _place in game.places}
    rows = list(
        RatingPoint.objects.filter(
            family=family,
            player_id__in=list(players),
            # the games' span: an index range per player, not the family's every point
            finished_at__range=(
                games[0].finished_at - timedelta(seconds=1),
                games[-1].finished_at + timedelta(seconds=1),
            ),
            game_id__in=[game.game_id for game in games],
        )
        .annotate(previous=Subquery(earlier))
        .values_list("player_id", "game_id", "previous")
    )
    points = RatingPoint.objects.filter(pk__in=[row[2] for row in rows if row[2] is not None])
    found = {
        pk: glicko.Skill(value, deviation, volatility, 0, at.timestamp() / rating.DAY)
        for pk, value, deviation, volatility, at in points.values_list(
            "pk", "rating", "deviation", "volatility", "finished_at"
        )
    }
    return {(pid, game_id): found[prev] for pid, game_id, prev in rows if prev in found}


def _games_of(family: str, game_ids, player_ids) -> dict[int, list[_Game]]:
    """player -> his rated games among ``game_ids``, oldest first (five or six queries)."""
    game_ids = list(game_ids)
    if not game_ids:
        return {}
    rating.up_to_date(family)  # the stored points up to date with the games
    games = rating.load_games(family, ids=game_ids)
    before = _skills_before(family, games)
    wanted = set(player_ids)
    found: dict[int, list[_Game]] = {}
    for game in games:
        if len(game.places) < 2:
            continue
        classes = dict(zip((pid for pid, _place in game.places), game.classes, strict=False))
        day = game.day
        skills = {
            pid: (before.get((pid, game.game_id)) or glicko.start(classes.get(pid))).at(day)
            for pid, _place in game.places
        }
        for pid, place in game.places:
            if pid not in wanted:
                continue
            mine = skills[pid].rating
            results = tuple(
                (
                    _as_played(mine, skills[other].rating, game.handicap, pid, other),
                    1.0 if place < other_place else 0.5 if place == other_place else 0.0,
                )
                for other, other_place in game.places
                if other != pid
            )
            found.setdefault(pid, []).append(
                _Game(game.game_id, game.finished_at, skills[pid], results)
            )
    return found


def _performance(games: list[_Game]) -> Performance | None:
    results = [result for game in games for result in game.results]
    if not results:
        return None
    value, error = odds.performance(results)
    first = games[0]
    return Performance(
        rating=value,
        error=error,
        games=len(games),
        results=len(results),
        score=sum(score for _opponent, score in results),
        before=first.before.rating,
        deviation=first.before.deviation,
        first=first.finished_at,
        last=games[-1].finished_at,
    )


def of_games(family: str, game_ids, player_ids) -> dict[int, Performance]:
    """Each of ``player_ids``'s performance over those of ``game_ids`` he played (rated
    games of ``family``): a tournament's frames. Players with none are left out."""
    found = _games_of(family, game_ids, player_ids)
    return {pid: perf for pid, games in found.items() if (perf := _performance(games)) is not None}


def grouped(family: str, player_id: int, groups: dict) -> dict:
    """``{key: game ids}`` -> ``{key: his Performance over them}`` (one read for all the
    groups: e.g. his tournaments)."""
    ids = {game_id for game_ids in groups.values() for game_id in game_ids}
    games = _games_of(family, ids, [player_id]).get(player_id, [])
    found = {}
    for key, game_ids in groups.items():
        wanted = set(game_ids)
        perf = _performance([game for game in games if game.game_id in wanted])
        if perf is not None:
            found[key] = perf
    return found


def month_of(moment: datetime) -> date:
    """The first day of ``moment``'s month in the club's time zone (the active one)."""
    return timezone.localtime(moment).date().replace(day=1)


def monthly(family: str, player_id: int, months: int = MONTHS) -> list[tuple[date, Performance]]:
    """His performance in each of the last ``months`` months in which he played rated games
    of ``family`` (months in the club's time zone), newest first."""
    rating.up_to_date(family)  # the stored points up to date with the games
    newest = RatingPoint.objects.filter(family=family, player_id=player_id).order_by(
        "-finished_at", "-game_id"
    )
    by_month: dict[date, list[int]] = {}
    rows = list(newest.values_list("game_id", "finished_at")[: MAX_GAMES + 1])
    for game_id, finished_at in rows[:MAX_GAMES]:
        month = month_of(finished_at)
        if month not in by_month and len(by_month) == months:
            break
        by_month.setdefault(month, []).append(game_id)
    else:
        if len(rows) > MAX_GAMES and len(by_month) > 1:
            by_month.popitem()  # the oldest month read may go on beyond: not shown in part
    found = grouped(family, player_id, by_month)
    return [(month, found[month]) for month in by_month if month in found]


def player_performances(player, months: int = MONTHS) -> list[dict]:
    """The player page's performance per family he has rated games in: ``{"family",
    "label", "months": [(first day of the month, Performance)]}``.

    Cached under his newest rating point of each family (``rating.newest_points``): another's
    game leaves his past games and their opponents' ratings before them as they were."""
    families = [f for f in rating.families() if rating.skills(f, [player.pk])]
    if not families:
        return []
    newest = rating.newest_points(player.pk, families)
    zone = timezone.get_current_timezone_name()
    points = ",".join(f"{family}={newest.get(family)}" for family in families)
    key = f"records:performance:v2:{player.pk}:{months}:{zone}:{points}"
    found = cache.get(key)
    if found is None:
        found = {family: monthly(family, player.pk, months) for family in families}
        cache.set(key, found, 24 * 3600)
    return [
        {"family": family, "label": rating.family_label(family), "months": rows}
        for family, rows in found.items()
        if rows
    ]


@dataclass(frozen=True)
class FormReading:
    """His last games against his rating today (``odds.Form``) and how many they are."""

    form: odds.Form
    games: int
    limit = odds.FORM_Z  # flagged beyond this many standard deviations above the rating

    @property
    def flagged(self) -> bool:
        return self.games >= FORM_MIN_GAMES and self.form.flagged


def last_games(family: str, player_ids, last: int = FORM_GAMES) -> dict[int, list[int]]:
    """player -> the ids of his last ``last`` rated games of ``family`` (one query)."""
    rating.up_to_date(family)  # the stored points up to date with the games
    newest = Window(
        RowNumber(),
        partition_by=[F("player_id")],
        order_by=[F("finished_at").desc(), F("game_id").desc()],
    )
    rows = (
        RatingPoint.objects.filter(family=family, player_id__in=list(player_ids))
        .annotate(newest=newest)
        .filter(newest__lte=last)
        .values_list("player_id", "game_id")
    )
    found: dict[int, list[int]] = {}
    for pid, game_id in rows:
        found.setdefault(pid, []).append(game_id)
    return found


def forms(family: str, player_ids, last: int = FORM_GAMES) -> dict[int, FormReading]:
    """Each player's form in ``family``: his last ``last`` rated games against his rating ±
    its deviation today. Players without rated games are left out."""
    player_ids = [pid for pid in player_ids if pid is not None]
    if not player_ids:
        return {}
    ids = last_games(family, player_ids, last)
    games = _games_of(family, {g for found in ids.values() for g in found}, player_ids)
    skills, now = rating.skills(family, player_ids), rating.today()
    found = {}
    for pid, played in games.items():
        own = set(ids.get(pid, ()))
        run = [game for game in played if game.game_id in own]  # not the others' last games
        skill = skills.get(pid)
        results = [result for game in run for result in game.results]
        if skill is None or not results:
            continue
        skill = skill.at(now)
        found[pid] = FormReading(odds.form(results, skill.rating, skill.deviation), len(run))
    return found
