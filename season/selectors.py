"""The series' reads: their stages' places, read within each tournament's club (a network
series groups several clubs' tournaments, on purpose), added up by ``season.standings``."""

from dataclasses import dataclass, field

from django.db.models import Q

from clubs.current import using_club
from clubs.scoping import all_clubs, club_in_scope
from players.models import Player
from records import rating
from season import standings
from season.models import Series, Stage
from toolbox import roles
from tournaments import funds
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament, TournamentStatus


def visible_series():
    """The series shown at the club in scope: its own and the network's."""
    return Series.objects.visible()


def series_at_club(pk):
    """A series shown here, or None."""
    return visible_series().filter(pk=pk).first()


def club_tournaments(series):
    """The tournaments an admin may add as stages: the club's own (a club's series), or every
    club's (the network's series), not already a stage."""
    taken = series.stages.values_list("tournament_id", flat=True)
    with all_clubs():
        tournaments = Tournament.everywhere.exclude(pk__in=list(taken))
        if series.club_id is not None:
            tournaments = tournaments.filter(club_id=series.club_id)
        return list(tournaments.select_related("club").order_by("-date", "-pk")[:200])


@dataclass
class StageInfo:
    """A stage as the table shows it: its tournament, whether it is over, its value and its
    places by player (players only: a guest scores nothing for the series)."""

    stage: Stage
    tournament: Tournament
    finished: bool
    value: float = 1.0
    places: dict = field(default_factory=dict)  # player id → (best, worst)
    names: dict = field(default_factory=dict)  # player id → name
    max_points: float = 0.0
    final_fund: int = 0  # kopecks of its fees paid so far for the series final's fund

    @property
    def month(self):
        return self.tournament.date.strftime("%Y-%m")


def _stage_info(stage):
    tournament = Tournament.everywhere.select_related("club").get(pk=stage.tournament_id)
    info = StageInfo(stage, tournament, tournament.status == TournamentStatus.FINISHED)
    table = stage.points()
    with using_club(tournament.club):
        # Fees taken before the draw count too: the money is in.
        info.final_fund = funds.final_fund_share(tournament)
    if tournament.status == TournamentStatus.DRAFT:
        info.max_points = float(table[0]) if table else 0.0
        return info
    with using_club(tournament.club):
        view = tournament_selectors.tournament_view(tournament)
    for seed, entrant in view.entrants.items():
        if entrant.player_id is not None:
            info.names[entrant.player_id] = entrant.name
            if info.finished and seed in view.state.places:
                info.places[entrant.player_id] = view.state.places[seed]
    if stage.scaled:
        skills = rating.skills(rating.family_of(tournament.variant), list(info.names))
        race = max(tournament.race_final, tournament.race_upper, tournament.race_group)
        info.value = standings.event_value([s.rating for s in skills.values()], race)
    info.max_points = round(standings.position_points(table, 1) * info.value, 2)
    return info


@dataclass
class Line:
    """A line of the public table."""

    place: int
    player_id: int
    name: str
    total: float
    cells: list  # per stage: (points, counted) or None
    finalist: bool = False
    wildcard: bool = False
    index: int = 0  # its position from 1 (the final's line is drawn after the K-th)
    final_place: tuple = ()  # (best, worst) reached in the series' final, once it is over

    @property
    def played(self):
        return sum(1 for cell in self.cells if cell is not None)


@dataclass
class Table:
    series: Series
    stages: list
    lines: list
    final_size: int
    wildcards: list  # names
    rows: list  # the engine's rows
    stages_left: int
    max_points: float
    next_table: tuple
    months_left: list = field(default_factory=list)  # the stages left's months, in order

    @property
    def final_fund(self):
        """Kopecks the stages' fees have put in the final's fund so far."""
        return sum(info.final_fund for info in self.stages)

    @property
    def final_over(self):
        return any(info.stage.is_final and info.finished for info in self.stages)

    @property
    def podium(self):
        """The series' first three: the final's, once it is over; else the table's."""
        if self.final_over:
            placed = [line for line in self.lines if line.final_place]
            return sorted(placed, key=lambda line: (line.final_place, line.index))[:3]
        return self.lines[:3]

    @property
    def champion(self):
        return self.podium[0] if self.podium else None


def _ratings(infos, player_ids):
    """The players' ratings in the series' game (its first stage's family)."""
    if not infos or not player_ids:
        return {}
    family = rating.family_of(infos[0].tournament.variant)
    return {pid: skill.rating for pid, skill in rating.skills(family, player_ids).items()}


def table_of(series):
    """The series' standings: its stages, a line per player with his points at each."""
    stages = list(series.stages.order_by("number"))
    infos = [_stage_info(stage) for stage in stages]
    results, names = [], {}
    for info in infos:
        names.update(info.names)
        if not info.finished or info.stage.is_final:
            continue
        points = info.stage.points()
        for player_id, (best, worst) in info.places.items():
            results.append(
                standings.Result(
                    player_id,
                    info.stage.number,
                    standings.place_points(points, best, worst, info.value),
                    (best, worst),
                    info.month,
                )
            )
    chain = [c for c in series.chain if c in standings.CRITERIA] or standings.DEFAULT_CHAIN
    rows = standings.rank(
        results,
        chain=chain,
        ratings=_ratings(infos, list(names)),
        best_n=None if series.per_month else series.best_n,
        per_month=series.per_month,
        best_months=series.best_months,
    )
    # Lines still tied are listed by name (the engine lists them by the player's id).
    rows.sort(key=lambda row: (row.place, names.get(row.player, "")))
    wildcards = list(Player.everywhere.filter(pk__in=series.wildcards.all()))
    finalists = set(standings.finalists(rows, series.final_size, [w.pk for w in wildcards]))
    wildcard_ids = {w.pk for w in wildcards}
    lines = []
    for index, row in enumerate(rows, start=1):
        cells, final_place = [], ()
        for info in infos:
            if info.stage.is_final:  # the final's place, not points
                final_place = info.places.get(row.player, ()) if info.finished else ()
                label = "–".join(dict.fromkeys(str(p) for p in final_place))
                cells.append((label, "final") if final_place else None)
                continue
            found = row.result_at(info.stage.number)
            cells.append(None if found is None else (found[0].points, found[1]))
        lines.append(
            Line(
                row.place,
                row.player,
                names.get(row.player, ""),
                row.total,
                cells,
                finalist=row.player in finalists,
                wildcard=row.player in wildcard_ids and index > series.final_size,
                index=index,
                final_place=final_place,
            )
        )
    left = [i for i in infos if not i.finished and not i.stage.is_final]
    return Table(
        series=series,
        stages=infos,
        lines=lines,
        final_size=series.final_size,
        wildcards=[w.nickname or w.full_name for w in wildcards],
        rows=rows,
        stages_left=len(left),
        max_points=max((i.max_points for i in left), default=0.0),
        next_table=left[0].stage.points() if left else (),
        months_left=[info.month for info in left],
    )


def outlook_of(table, player_id):
    """What the player needs to reach the series' final (``standings.Outlook``)."""
    return standings.outlook(
        player_id,
        table.rows,
        k=table.final_size,
        stages_left=table.stages_left,
        max_points=table.max_points,
        next_table=table.next_table,
        best_n=None if table.series.per_month else table.series.best_n,
        per_month=table.series.per_month,
        best_months=table.series.best_months if table.series.per_month else None,
        months_left=table.months_left,
    )


def _tables_with(player, series_list):
    """(series, its table, his line) of each of ``series_list`` he has a line in."""
    found = []
    for series in series_list:
        if not series.stages.exists():
            continue
        table = table_of(series)
        line = next((line for line in table.lines if line.player_id == player.pk), None)
        if line is not None:
            found.append((series, table, line))
    return found


def player_series(player):
    """(series, his line, his outlook) of every series shown here he has results in."""
    running = visible_series().filter(finished=False)
    return [
        (series, line, outlook_of(table, player.pk))
        for series, table, line in _tables_with(player, running)
    ]


def player_standings(player):
    """(series, his line) of every series shown here he has a line in, the running ones
    first, then the finished (his public page)."""
    ordered = visible_series().order_by("finished", "-season", "name", "pk")
    return [(series, line) for series, _table, line in _tables_with(player, ordered)]


def honours():
    """Every finished series shown here with its top three lines."""
    return [(series, table_of(series).podium) for series in visible_series().filter(finished=True)]


def norms_for_tournament(tournament) -> list[tuple[int, int, str]]:
    """(first place, last place, class code) the series a tournament is a stage of give its
    places (e.g. КМС for places 7–16): for the federation's protocol."""
    norms = []
    stages = Stage.objects.filter(tournament_id=tournament.pk).select_related("series")
    for stage in stages.filter(
        Q(series__club__isnull=True) | Q(series__club_id=tournament.club_id)
    ):
        for norm in stage.series.norms or []:
            places = norm.get("places") or []
            if len(places) == 2 and norm.get("class"):
                norms.append((int(places[0]), int(places[1]), str(norm["class"])))
    return sorted(set(norms))


def can_edit(user, series):
    """A club's series: its club's admins (at that club); the network's: its admins."""
    if series.club_id is None:
        return roles.can_merge_people(user)
    return series.club_id == club_in_scope().pk and roles.can_manage_tournaments(user)
