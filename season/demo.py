"""The demo club's series: its tournaments as the stages of a club cup."""

from clubs.scoping import club_in_scope
from season.models import PointsTable, Series, Stage
from tournaments.models import Tournament


def load_demo_series():
    """A club cup of the demo's tournaments (the finished one counts, the evening's is in
    progress); returns the number of series created (0 if the club has some)."""
    if Series.objects.visible().exists():
        return 0
    tournaments = list(Tournament.objects.order_by("date", "pk")[:3])
    if not tournaments:
        return 0
    series = Series(
        name="Кубок сезона",
        season=str(tournaments[0].date.year),
        best_n=2,
        chain=["points", "best_place", "head_to_head", "rating"],
        final_size=4,
        norms=[{"class": "1", "places": [1, 2]}, {"class": "2", "places": [3, 4]}],
        club=club_in_scope(),
    )
    series.save()
    tables = [PointsTable.CHAMPIONSHIP, PointsTable.CLUB, PointsTable.RANKING]
    for number, (tournament, table) in enumerate(zip(tournaments, tables, strict=False), 1):
        Stage.objects.create(
            series=series, tournament=tournament, number=number, table=table, scaled=number == 1
        )
    return 1
