"""Players' records: the figures of the player page, the leaderboards and the CSV exports.

Every figure is computed by the database from the rows a finished game leaves behind —
``Seat.outcome``, ``Seat.score`` and ``Seat.stats`` (what the game's
``rules.Variant.seat_stats`` wrote) — with one aggregate query per page, never by a Python
loop over the games. Only finished games count; guests (seats without a roster player) have
no records.

A game's figures are declared once, in its presentation (``games.presentation``: its
``record_figures``), and used by the player page, the leaderboard and the CSV export alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.db.models import Count, F, OuterRef, Prefetch, Q, Subquery, Sum
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from clubs.current import current_club
from clubs.scoping import walls_down
from games import rules
from games.models import Game, GameStatus, Outcome, Seat, variant_choices
from games.presentation import Figure, presentation_of
from records import glicko, rating
from toolbox.roles import ADMINS, MARKERS

FINISHED = GameStatus.FINISHED


# --- figures ---------------------------------------------------------------------------------


OUTCOME_FIGURES = (
    Figure("games", _("Games"), Count),
    Figure("wins", _("Wins"), Count, only=Q(outcome=Outcome.WIN)),
    Figure("losses", _("Losses"), Count, only=Q(outcome=Outcome.LOSS), lower_is_better=True),
    Figure("draws", _("Draws"), Count, only=Q(outcome=Outcome.DRAW)),
)


def variant_figures(variant: str, detailed: bool = False) -> tuple[Figure, ...]:
    """The figures of one game (its presentation's); ``detailed``: the player page's."""
    shown = presentation_of(variant)
    return shown.detailed_record_figures() if detailed else shown.record_figures


def format_figure(value, fmt="int"):
    """A figure as the pages show it: one decimal (localised) for "dec", a dash for none."""
    if value is None:
        return "—"
    if fmt == "dec":
        return number_format(value, 1)
    return str(int(value))


def win_percentage(wins, games):
    return round(100.0 * wins / games, 1) if games else None


# --- periods ---------------------------------------------------------------------------------

PERIODS = {"month": _("This month"), "year": _("This year"), "all": _("All time")}


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """The first moment of this month / this year in the club's time zone (None: all time)."""
    local = timezone.localtime(now)
    if period == "month":
        return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if period == "year":
        return local.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


# --- the player page -------------------------------------------------------------------------


def finished_seats():
    return Seat.objects.filter(game__status=FINISHED)


@dataclass
class VariantRecord:
    variant: str
    label: str
    games: int
    wins: int
    losses: int
    draws: int
    figures: list[tuple[Figure, object]]

    @property
    def win_percentage(self):
        return win_percentage(self.wins, self.games)

    @property
    def main(self):
        """(label, formatted value) of the game's own figures."""
        return [
            (f.label, format_figure(v, f.fmt))
            for f, v in self.figures
            if not f.key.startswith("foul_")
        ]

    @property
    def fouls(self):
        """(label, fouls per game) for every kind of foul (cork)."""
        return [
            (f.label, format_figure(v, f.fmt)) for f, v in self.figures if f.key.startswith("foul_")
        ]


def player_records(player) -> list[VariantRecord]:
    """Per game played: games, wins, losses, draws and the game's own figures; one query."""
    # Cached until one of his finished games at the club changes (one indexed aggregate): a
    # game of anyone else, or at another club, leaves it.
    figures = finished_seats().filter(player=player).aggregate(n=Count("id"), ids=Sum("game_id"))
    key = f"records:player:v2:{_club_key()}:{player.pk}:{figures['n']}:{figures['ids']}"
    values = cache.get(key)  # cached until another game finishes (or for an hour)
    if values is None:
        aggregates = {}
        for variant in rules.VARIANTS:
            scope = Q(game__variant=variant)
            for figure in OUTCOME_FIGURES + variant_figures(variant, detailed=True):
                aggregates[f"{variant}_{figure.key}"] = figure.expression(scope)
        values = finished_seats().filter(player=player).aggregate(**aggregates)
        cache.set(key, values, 3600)
    records = []
    for variant, label in variant_choices():
        figures = {f.key: values[f"{variant}_{f.key}"] for f in OUTCOME_FIGURES}
        if not figures["games"]:
            continue
        records.append(
            VariantRecord(
                variant,
                label,
                **figures,
                figures=[(f, values[f"{variant}_{f.key}"]) for f in variant_figures(variant, True)],
            )
        )
    return records


def player_games(player):
    """The player's games, newest first, each with its table and all its seats' players.

    Ordered by a lookup of each of his games' start rather than a join: joined, PostgreSQL
    hashes the club's every game to sort his few hundred (15 ms at 20,000 games, growing
    with the club's history); looked up, his seats alone are read and sorted, and only the
    page's games are fetched."""
    started = Game.objects.filter(pk=OuterRef("game_id")).values("started_at")[:1]
    return (
        Seat.objects.filter(player=player)
        .annotate(started=Subquery(started))
        .order_by("-started", "-game_id")
        .prefetch_related(
            "game__table",
            Prefetch("game__seats", queryset=Seat.objects.select_related("player")),
        )
    )


def player_ratings(player) -> list[dict]:
    """The player's rating in every family he has rated games in: as of now (his deviation
    widened by the time since his last game), provisional or not, with its history's chart
    (cached under his newest point: a heavy player's thousands of points are read once)."""
    ratings, now = [], rating.today()
    skills = {
        family: rating.skills(family, [player.pk]).get(player.pk) for family in rating.families()
    }
    skills = {family: skill for family, skill in skills.items() if skill is not None}
    newest = rating.newest_points(player.pk, skills) if skills else {}
    zone = timezone.get_current_timezone_name()
    for family, skill in skills.items():
        key = f"records:chart:v1:{player.pk}:{family}:{newest.get(family)}"
        key += f":{player.skill_class}:{zone}"
        chart = cache.get(key)
        if chart is None:
            start = glicko.start(player.skill_class)
            chart = rating_chart(rating.history(family, player.pk), start)
            cache.set(key, chart, 24 * 3600)
        skill = skill.at(now)
        ratings.append(
            {
                "family": family,
                "label": rating.family_label(family),
                "rating": round(skill.rating),
                "deviation": round(skill.deviation),
                "provisional": skill.provisional,
                "games": skill.games,
                "chart": chart,
            }
        )
    return ratings


def rating_chart(history, start=None, width=480, height=170, max_points=400):
    """Coordinates for a server-rendered SVG line of a rating over time, in a band of ± its
    deviation.

    ``history``: [(game_id, finished_at timestamp, rating after, deviation after, …), …],
    oldest first. The line starts at ``start`` (a ``glicko.Skill``: where he started) just
    before the first game; x is proportional to time.
    """
    start = start or glicko.start(None)
    left, right, top, bottom = 44, 12, 10, 24  # room for the rating and date labels
    points = [(history[0][1], start.rating, start.deviation)] + [
        (row[1], row[2], row[3]) for row in history
    ]
    if len(points) > max_points:  # keep the shape, bound the size of the page
        step = len(points) / max_points
        points = [points[int(i * step)] for i in range(max_points)] + [points[-1]]
    times = [p[0] for p in points]
    low = min(value - deviation for _ts, value, deviation in points)
    high = max(value + deviation for _ts, value, deviation in points)
    if high - low < 20:
        low, high = low - 10, high + 10
    t0, t1 = times[0], times[-1]
    span = (t1 - t0) or 1.0

    # Coordinates as text: a template would localise floats (a decimal comma breaks the SVG).
    def x(ts):
        return f"{left + (width - left - right) * (ts - t0) / span:.1f}"

    def y(value):
        return f"{top + (height - top - bottom) * (high - value) / (high - low):.1f}"

    upper = [f"{x(ts)},{y(v + d)}" for ts, v, d in points]
    lower = [f"{x(ts)},{y(v - d)}" for ts, v, d in reversed(points)]
    tz = timezone.get_current_timezone()
    return {
        "width": width,
        "height": height,
        "points": " ".join(f"{x(ts)},{y(v)}" for ts, v, _d in points),
        "band": " ".join(upper + lower),
        "high": round(high),
        "low": round(low),
        "high_y": y(high),
        "low_y": y(low),
        "initial_y": y(rating.INITIAL) if low < rating.INITIAL < high else None,
        "left": left,
        "label_x": left - 6,
        "right": width - right,
        "date_y": height - 6,
        "first": datetime.fromtimestamp(t0, tz),
        "last": datetime.fromtimestamp(t1, tz),
        "last_x": x(t1),
        "last_y": y(points[-1][1]),
    }


# --- leaderboards ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    key: str
    label: object
    fmt: str = "int"
    lower_is_better: bool = False


def leaderboard_columns(variant: str) -> list[Column]:
    columns = [Column(f.key, f.label, f.fmt, f.lower_is_better) for f in OUTCOME_FIGURES]
    columns.append(Column("win_percentage", _("Wins, %"), "dec"))
    columns.append(Column("rating", _("Rating")))
    columns += [Column(f.key, f.label, f.fmt, f.lower_is_better) for f in variant_figures(variant)]
    return columns


EVERY_RATING_PAST = 5_000  # a board of more people reads the family's every rating


def leaderboard(
    variant: str,
    period: str = "all",
    min_games: int = 1,
    sort: str = "",
    desc=None,
    rank_provisional: bool | None = None,
    cached: bool = True,
):
    """One row per roster player with at least ``min_games`` finished games of ``variant``
    in ``period``: his outcome counts, win percentage, current rating (with its deviation and
    whether it is provisional) and the game's figures.

    Sorted by ``sort`` (a column key; default: win percentage), best first unless ``desc``
    says otherwise; ties by games played, then name. Each row's ``place``: 1, 2, …; a player
    whose rating is provisional has none and is listed below the ranked players, unless
    ``rank_provisional`` (the club's choice, ``Club.rank_provisional``, when None). One
    aggregate query (plus the cached ratings), kept in the cache unless not ``cached`` (the
    network's board, ``records.network``, keeps its own). Within ``all_clubs()``: a row per
    person of the network, over every club's games.
    """
    if rank_provisional is None:
        rank_provisional = getattr(current_club(), "rank_provisional", False)
    rows = _board_rows(variant, period_start(period), max(1, min_games), cached)
    family, now = rating.family_of(variant), rating.today()
    if len(rows) > EVERY_RATING_PAST:  # the network's board: the family's every rating, read
        skills = rating.current(family).skills  # at once, is half the time of theirs by id
    else:
        skills = rating.skills(family, [row["player_id"] for row in rows])
    for row in rows:
        row["name"] = row["nickname"] or row["full_name"]
        row["win_percentage"] = win_percentage(row["wins"], row["games"])
        skill = skills.get(row["player_id"])
        skill = skill.at(now) if skill else glicko.start(None)
        row["rating"], row["deviation"] = round(skill.rating), round(skill.deviation)
        row["provisional"] = skill.provisional
    columns = {c.key: c for c in leaderboard_columns(variant)}
    column = columns.get(sort) or columns["win_percentage"]
    if desc is None:
        desc = not column.lower_is_better
    rows.sort(key=lambda r: (r["name"].casefold(),))
    rows.sort(key=lambda r: r["games"], reverse=True)
    present = [r for r in rows if r[column.key] is not None]
    missing = [r for r in rows if r[column.key] is None]
    present.sort(key=lambda r: r[column.key], reverse=desc)
    rows = present + missing
    if not rank_provisional:
        rows = [r for r in rows if not r["provisional"]] + [r for r in rows if r["provisional"]]
    place = 0
    for row in rows:
        if rank_provisional or not row["provisional"]:
            place += 1
            row["place"] = place
        else:
            row["place"] = None
    return rows, column.key, desc


BOARD_CACHE_KEY = "records:board:v2:{club}:{variant}:{start}:{min_games}:{stamp}"


def _club_key():
    """Whose figures are cached: the club in scope's, or the network's within ``all_clubs()``
    (``records.network``)."""
    if walls_down():
        return "network"
    club = current_club()
    return club.pk if club else "-"


def board_stamp(variant):
    """The club's newest finished game of ``variant`` as text (the network's within
    ``all_clubs()``): figures cached under it stay valid until another such game finishes
    there."""
    newest = rating.newest_finished_game(games=Game.objects.filter(variant=variant))
    if not newest:
        return "none"
    confirmed = newest[2].timestamp() if newest[2] else ""
    return f"{newest[0]}-{newest[1].timestamp()}-{confirmed}"


def _board_rows(variant, start, min_games, cached=True):
    """The leaderboard's aggregates, cached (unless not ``cached``) until another game
    finishes (or for an hour)."""
    key = None
    if cached:
        key = BOARD_CACHE_KEY.format(
            club=_club_key(),
            variant=variant,
            start=start.isoformat() if start else "all",
            min_games=min_games,
            stamp=board_stamp(variant),
        )
        rows = cache.get(key)
        if rows is not None:
            return rows
    seats = finished_seats().filter(game__variant=variant, player__isnull=False)
    if start is not None:
        seats = seats.filter(game__finished_at__gte=start)
    figures = OUTCOME_FIGURES + variant_figures(variant)
    rows = list(
        seats.values("player_id")
        .annotate(
            full_name=F("player__full_name"),
            nickname=F("player__nickname"),
            **{f.key: f.expression() for f in figures},
        )
        .filter(games__gte=min_games)
        .order_by()
    )
    if key is not None:
        cache.set(key, rows, 3600)
    return rows


# --- the game page ---------------------------------------------------------------------------


def game_with_seats(pk):
    """The game with its table, marker (and his roles) and seats (with players): for the
    game page."""
    return (
        Game.objects.select_related("table", "marker")
        .prefetch_related(
            "marker__club_roles__group",  # his roles at the club (clubs.models.StaffRole)
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
        )
        .get(pk=pk)
    )


def recorded_by(game):
    """Who recorded ``game``, as the public game page says it: a role, never a login name
    ("" when nobody is known)."""
    if game.needs_confirmation:
        return str(_("recorded by the players themselves, without a marker"))
    if game.marker is None:
        return ""
    roles = {role.group.name for role in game.marker.club_roles.all()}
    if MARKERS not in roles and (ADMINS in roles or game.marker.is_superuser):
        return str(_("recorded by an administrator"))
    return str(_("recorded by a marker"))


def state_figures(variant: str, state) -> dict:
    """What the game page shows of a state after each event: per-seat figures and extras,
    as its presentation says; every value as text in the active language."""
    shown = presentation_of(variant)
    seats = [
        {"text": shown.page_seat_text(state, index), "turn": index == state.turn}
        for index in range(len(state.scores))
    ]
    return {"seats": seats, "extras": shown.page_figures(state), "finished": state.finished}


# --- exports ---------------------------------------------------------------------------------


def finished_games(variant: str = "", period: str = "all", player=None):
    """Finished games, oldest first, for the CSV export of the games."""
    games = Game.objects.filter(status=FINISHED).select_related("table")
    if variant:
        games = games.filter(variant=variant)
    start = period_start(period)
    if start is not None:
        games = games.filter(finished_at__gte=start)
    if player is not None:
        games = games.filter(seats__player=player)
    return games.order_by("finished_at", "id")
