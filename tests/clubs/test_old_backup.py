"""A club's backup made before the network of clubs (issue 32 item 5): ``backup_club`` of the
demo club by the code of 6 December 2026 (commit 66787e5, ``data/``), restored by today's
``restore_club``, is a site of one club with every row kept: every game replays to its
stored result, every bill's table time re-prices to its line, its staff hold their roles at
the club, and every page answers, to the public and to the admin (whose permissions hold the
marker's and the cashier's)."""

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from billing.models import Bill, BillLine, LineKind
from billing.selectors.sessions import price_of
from clubs.current import forget_clubs
from clubs.models import Club, StaffRole
from games import rules, selectors
from games.models import Game, GameStatus
from tests.clubsite.test_crawl import MAX_REQUESTS, Crawl, games_by_pk
from toolbox.roles import ADMINS, CASHIERS, MARKERS

pytestmark = pytest.mark.django_db(transaction=True)

BACKUP = Path(__file__).parent / "data" / "demo-club-before-the-network.json.gz"


def test_a_backup_from_before_the_network_restores_into_a_network_of_one_club():
    call_command("flush", interactive=False)
    forget_clubs()
    out = StringIO()
    call_command("restore_club", str(BACKUP), stdout=out)
    forget_clubs()
    assert "13 players, 170 games" in out.getvalue()
    club = Club.objects.get()
    assert club.slug == "luza" and Game.objects.filter(club=club).count() == 170
    roles = {(role.user.username, role.group.name) for role in StaffRole.objects.all()}
    assert roles == {("admin", ADMINS), ("marker", MARKERS), ("cashier", CASHIERS)}
    assert not User.objects.filter(groups__name__in=[ADMINS, MARKERS, CASHIERS]).exists()

    for game in Game.objects.all():
        state = rules.replay(
            selectors.variant_of(game), selectors.settings_of(game), selectors.rules_events(game)
        )
        assert state.finished == (game.status == GameStatus.FINISHED) or (
            game.status == GameStatus.ABANDONED
        ), game.pk
    repriced = 0
    for bill in Bill.objects.select_related("session"):
        line = BillLine.objects.filter(bill=bill, kind=LineKind.TIME).first()
        price = price_of(bill.session)
        if line is not None and price is not None and bill.session.stopped_at:
            assert price.rounded == line.unit_price, bill.pk
            repriced += 1
    assert repriced > 100

    # The public, and the admin: the admin holds every permission of the marker and the
    # cashier (tests/toolbox/test_roles.py), so his crawl reaches their pages too.
    for username in (None, "admin"):
        client = Client()
        if username:
            client.force_login(User.objects.get(username=username))
        crawl = Crawl(client, games_by_pk())
        crawl.run()
        assert crawl.requests < MAX_REQUESTS
        assert not crawl.failures, "\n".join(crawl.failures)
