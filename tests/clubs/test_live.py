"""The live pushes are per club (issue 32): on a site of several clubs each club's screens
follow its own topics and are drawn from its own renders, whatever the process served
before — table 3 of one club is not table 3 of another."""

import time

import pytest

from boards.feeds import table_feed
from clubs.current import club_for_host, forget_clubs, using_club
from clubs.models import Club
from live import hub as hubs
from live import streams
from tests.factories import TableFactory, UserFactory, ev, record, start
from toolbox.roles import MARKERS

pytestmark = pytest.mark.django_db

STREAM = "/tables/3/board/stream/"
SOKOL = "sokol.example"


@pytest.fixture
def two_clubs(first_club, settings):
    settings.ALLOWED_HOSTS = ["*"]
    first_club.hosts = ["testserver"]
    first_club.save()
    second = Club.objects.create(
        name="Сокол", slug="sokol", hosts=[SOKOL], time_zone="Asia/Yekaterinburg"
    )
    club_for_host(SOKOL)  # read as each request reads them: a network of two
    return first_club, second


def next_message(chunks, seconds=2):
    """The next message of a stream that is not a heartbeat, or None within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = next(chunks).decode()
        if "event: hb" not in message:
            return message
    return None


def test_each_clubs_table_has_a_feed_of_its_own(two_clubs):
    first, second = two_clubs
    with using_club(first):
        mine = table_feed(3)
    with using_club(second):
        theirs = table_feed(3)
    assert mine.topic == f"club{first.pk}/table.3" and theirs.topic == f"club{second.pk}/table.3"
    assert mine.key != theirs.key
    # The network back to one club: its table's feed is named as a single club's again.
    second.delete()
    forget_clubs()
    club_for_host("testserver")
    with using_club(first):
        assert table_feed(3).topic == "table.3"


def test_two_clubs_free_tables_at_one_number_each_show_their_club(client, two_clubs):
    first, second = two_clubs
    for club in two_clubs:
        with using_club(club):
            TableFactory(number=3)
    mine = client.get("/tables/3/board/").text
    theirs = client.get("/tables/3/board/", headers={"host": SOKOL}).text
    assert f'<p class="free-club">{first.name}</p>' in mine
    assert '<p class="free-club">Сокол</p>' in theirs  # not the first club's render


def test_a_clubs_stream_shows_its_own_table(client, two_clubs):
    first, second = two_clubs
    with using_club(first):
        marker = UserFactory(groups=[MARKERS])
        game = start(TableFactory(number=3), "cork", ["Аня", "Борис"], marker)
    with using_club(second):
        TableFactory(number=3)
    for host, fp in (("testserver", f"{game.pk}.0.p"), (SOKOL, "free")):
        chunks = iter(client.get(STREAM, {"fp": "x"}, headers={"host": host}).streaming_content)
        assert next(chunks) == b"retry: 1000\n\n"
        assert next(chunks).decode().startswith(f"id: {fp}\n"), host


@pytest.mark.django_db(transaction=True)
def test_a_stroke_wakes_its_own_clubs_screens_only(client, two_clubs, monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.2)
    first, second = two_clubs
    games, markers = {}, {}
    for club in two_clubs:
        with using_club(club):
            markers[club.pk] = UserFactory(username=f"marker-{club.slug}", groups=[MARKERS])
            table = TableFactory(number=3)
            games[club.pk] = start(table, "cork", ["Аня", "Борис"], markers[club.pk])
    hub = hubs.get_hub()
    hub.subscribe(hubs.ThreadSubscription("nothing"))
    deadline = time.monotonic() + 5
    while not hub.connected and time.monotonic() < deadline:
        time.sleep(0.01)
    screens = {}
    for club, host in ((first, "testserver"), (second, SOKOL)):
        fp = f"{games[club.pk].pk}.0.p"  # each screen shows its club's game
        response = client.get(STREAM, {"fp": fp}, headers={"host": host})
        screens[club.pk] = iter(response.streaming_content)
        assert next(screens[club.pk]) == b"retry: 1000\n\n"

    with using_club(second):
        record(games[second.pk], markers[second.pk], ev("foul", fouls=("miss",)))
    message = next_message(screens[second.pk])
    assert message is not None and message.startswith(f"id: {games[second.pk].pk}.1.p\n")
    assert next_message(screens[first.pk], seconds=1) is None  # heartbeats only
