"""The series in the API: ``/api/v1/series/`` and a series' standings."""

from season.models import Series
from tests.season.test_views import demo, series  # noqa: F401 (the module's demo club)


def test_the_api_lists_the_series_and_its_standings(series, client):  # noqa: F811
    listed = client.get("/api/v1/series/").json()
    assert [item["id"] for item in listed["items"]] == [series.pk]
    assert listed["items"][0]["club"]["slug"] and listed["items"][0]["stage_count"] == 2
    detail = client.get(f"/api/v1/series/{series.pk}/").json()
    assert detail["tie_breaks"] == series.chain
    assert detail["stages"][0]["tournament"]["name"] == "Кубок клуба"
    leader = detail["standings"][0]
    assert leader["place"] == 1 and leader["results"][0]["counted"]
    assert leader["points"] == sum(r["points"] for r in leader["results"] if r["counted"])


def test_a_network_series_names_no_club_and_a_missing_one_is_404(series, client):  # noqa: F811
    network = Series.objects.create(name="Кубок сети", season="2026")
    assert client.get(f"/api/v1/series/{network.pk}/").json()["club"] is None
    assert client.get("/api/v1/series/999999/").status_code == 404
    assert client.get("/api/v1/series/0/").status_code == 400
