"""The demo club's tournaments (issue 11, item 7)."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournaments import selectors
from tournaments.models import Frame, Tournament


@pytest.mark.django_db
def test_demo_has_a_finished_double_elimination_of_16_and_a_round_robin_in_progress(client):
    call_command("load_demo_club", stdout=open("/dev/null", "w"))  # noqa: SIM115
    double = Tournament.objects.get(format="double")
    view = selectors.tournament_view(double)
    assert len(view.entrants) == 16 and view.state.finished and double.status == "finished"
    played = [i.match.pk for i in view.items if i.status == "finished"]
    assert Frame.objects.filter(match_id__in=played).values("match").distinct().count() == len(
        played
    )
    group = Tournament.objects.get(format="round_robin")
    view = selectors.tournament_view(group)
    finished = [i for i in view.items if i.status == "finished"]
    assert group.status == "running" and 0 < len(finished) < len(view.items)
    for tournament in (double, group):
        for name in ("detail", "board", "matches_csv"):
            url = reverse(f"tournaments:{name}", args=[tournament.pk])
            assert client.get(url).status_code == 200
    call_command("load_demo_club", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Tournament.objects.count() == 2
