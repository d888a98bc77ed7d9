import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import transaction
from django.test import RequestFactory, override_settings
from django.urls import reverse

from games import rules
from games.models import Event, Game, GameStatus
from players.models import Player
from tables.models import Table
from tests.conftest import FAST_HASHERS
from tests.saved_rows import forget_caches
from toolbox.roles import can_manage_roster, can_record_games
from tournaments import selectors as tournament_selectors
from tournaments.models import Frame, Tournament

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def load():
    from io import StringIO

    out = StringIO()
    call_command("load_demo_club", stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def demo(demo_club_rows, django_db_blocker):
    """The demo club as the command left it (what it printed), loaded once for the run
    (tests/conftest.py) and put in place for this module: each test runs in a savepoint of
    that transaction, which is rolled back after the last one."""
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=FAST_HASHERS),  # as every test's (conftest)
        transaction.atomic(),
    ):
        yield demo_club_rows.restore()
        transaction.set_rollback(True)
    forget_caches()  # the content types' ids of the rows rolled back


def counts():
    return (
        Table.objects.count(),
        Player.objects.count(),
        User.objects.count(),
        list(User.objects.order_by("pk").values_list("password", flat=True)),
        list(Player.objects.order_by("pk").values_list("updated_at", flat=True)),
        list(Game.objects.order_by("pk").values_list("status", "last_seq")),
        Event.objects.count(),
    )


def test_demo_club_has_tables_players_and_staff_with_printed_passwords(demo):
    output = demo
    assert Table.objects.count() >= 4
    assert Player.objects.count() >= 10
    assert all(re.search("[А-Яа-яЁё]", p.full_name) for p in Player.objects.all())
    passwords = dict(re.findall(r"Created user '(\w+)' .* password: (\S+)", output))
    assert set(passwords) == {"admin", "marker", "cashier"}
    assert passwords["admin"] != passwords["marker"]
    # Login throttling (axes) wants the request that signs in.
    request = RequestFactory().post("/accounts/login/")
    admin = authenticate(request, username="admin", password=passwords["admin"])
    marker = authenticate(request, username="marker", password=passwords["marker"])
    assert admin is not None and marker is not None
    assert can_manage_roster(admin) and admin.is_staff
    assert can_record_games(marker) and not can_manage_roster(marker)


def test_running_twice_changes_nothing(demo):
    before = counts()
    output = load()
    assert counts() == before
    assert "password:" not in output
    assert "User 'admin' exists" in output and "User 'marker' exists" in output


def test_demo_has_a_finished_double_elimination_of_16_and_a_round_robin_in_progress(demo, client):
    """The demo club's tournaments (issue 11, item 7); running the command again adds none."""
    double = Tournament.objects.get(format="double")
    view = tournament_selectors.tournament_view(double)
    assert len(view.entrants) == 16 and view.state.finished and double.status == "finished"
    played = [i.match.pk for i in view.items if i.status == "finished"]
    assert Frame.objects.filter(match_id__in=played).values("match").distinct().count() == len(
        played
    )
    group = Tournament.objects.get(format="round_robin")
    view = tournament_selectors.tournament_view(group)
    finished = [i for i in view.items if i.status == "finished"]
    assert group.status == "running" and 0 < len(finished) < len(view.items)
    for tournament in (double, group):
        for name in ("detail", "board", "matches_csv"):
            url = reverse(f"tournaments:{name}", args=[tournament.pk])
            assert client.get(url).status_code == 200
    load()
    assert Tournament.objects.count() == 2


def test_passwords_are_random(demo):
    first = re.findall(r"password: (\S+)", demo)
    # Users are kept by the records they made (payments, shifts): rename them away.
    for user in User.objects.all():
        user.username = f"old-{user.username}"
        user.save()
    second = re.findall(r"password: (\S+)", load())
    assert first and second and set(first).isdisjoint(second)


def test_demo_club_has_finished_games_and_a_game_of_each_kind_in_progress(demo):
    output = demo
    finished = Game.objects.filter(status=GameStatus.FINISHED)
    assert {g.variant for g in finished} == set(rules.VARIANTS)
    assert all(g.result["winners"] for g in finished)
    assert all(seat.outcome for g in finished for seat in g.seats.all())
    for game in finished:  # played in the past, stroke after stroke
        times = list(game.events.order_by("seq").values_list("recorded_at", flat=True))
        assert (
            game.started_at < times[0] and times == sorted(times) and times[-1] < game.finished_at
        )
    playing = Game.objects.filter(status=GameStatus.IN_PROGRESS).order_by("table__number")
    assert [(g.table.number, g.variant) for g in playing] == [
        (number, key) for number, key in enumerate(rules.VARIANTS, start=1)
    ]
    assert all(g.last_seq > 0 for g in playing)
    seated = [seat.player_id for g in playing for seat in g.seats.all() if seat.player_id]
    assert len(seated) == len(set(seated))  # nobody plays at two tables at once
    guests = [seat.guest_name for g in playing for seat in g.seats.all() if not seat.player_id]
    assert len(guests) == len(set(guests))  # guests by their names, as a marker types them
    assert not [name for name in guests if re.fullmatch(r"Гость \d+", name)]
    assert Table.objects.exclude(games__status=GameStatus.IN_PROGRESS).count() >= 2
    # The demo tournaments' frames are games too, played after this line is printed.
    assert f"Games: {Game.objects.filter(match_frame=None).count()} created." in output


def test_demo_leaderboards_show_the_regulars_with_the_default_minimum_of_games(demo):
    from records.stats import leaderboard

    for variant in rules.VARIANTS:  # every game's leaderboard has content
        rows, _, _ = leaderboard(variant, "all", min_games=3)
        assert len(rows) >= 6, variant


def test_the_sign_in_links_point_where_make_run_serves(demo, monkeypatch):
    """``make run HOST=…`` serves there and sets ``DEMO_SITE`` to it: the players' printed
    sign-in links open on that address, not always on port 8000."""
    link = r"within 24 h: (\S+)/me/join/\S+/"
    assert re.findall(link, demo) == ["http://127.0.0.1:8000"] * 2  # make run's default HOST
    Player.objects.filter(user__isnull=False).update(user=None)
    for user in User.objects.filter(username__in=["sokol", "lena"]):
        user.username = f"old-{user.username}"
        user.save()
    monkeypatch.setenv("DEMO_SITE", "http://192.168.1.5:9000")
    assert re.findall(link, load()) == ["http://192.168.1.5:9000"] * 2


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_run_gives_the_demo_its_host():
    env = {k: v for k, v in os.environ.items() if k != "DEMO_SITE"}
    recipe = subprocess.run(
        ["make", "-n", "run", "HOST=192.168.1.5:9000"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "DEMO_SITE=http://192.168.1.5:9000 .venv/bin/python manage.py load_demo_club" in recipe
    assert "--host 192.168.1.5 --port 9000" in recipe
    env["DEMO_SITE"] = "http://club.lan"  # a phone's address for it, when HOST is 0.0.0.0
    recipe = subprocess.run(
        ["make", "-n", "run", "HOST=0.0.0.0:8000"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "DEMO_SITE=http://club.lan .venv/bin/python manage.py load_demo_club" in recipe
