"""Two records of one person made one by a network admin (issue 32 item 3): every game,
sign-up and membership kept, the merge on record, taken back by a second record — never by
deleting — and nobody but the network's admins may do it."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from clubs.current import using_club
from games.models import Seat
from players.models import Membership, Player
from records import merges
from records.models import PersonMerge
from tests.factories import GameFactory, PlayerFactory, TableFactory, UserFactory
from toolbox.roles import ADMINS, NETWORK_ADMINS

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "sokol.example"


@pytest.fixture
def clubs(home_and_sokol):
    return home_and_sokol


@pytest.fixture
def twice(clubs):
    """Иван Петров, entered once at each club (the second time with a nickname)."""
    home, other = clubs
    with using_club(home):
        ivan = PlayerFactory(full_name="Иван Петров", phone="+7 912 345-67-89")
        GameFactory(table=TableFactory(number=1), seats=[ivan, "Гость"])
    with using_club(other):
        vanya = PlayerFactory(full_name="Иван Петров", nickname="Ваня", phone="8 912 3456789")
        GameFactory(table=TableFactory(number=1), seats=[vanya, "Гость"])
    return ivan, vanya


def network_admin():
    client = Client(HTTP_HOST=HOME)
    client.force_login(UserFactory(username="net", groups=[NETWORK_ADMINS]))
    return client


def clubs_of(player):
    return sorted(Membership.everywhere.filter(player=player).values_list("club__slug", flat=True))


def test_a_merge_keeps_every_game_and_membership_and_is_taken_back(clubs, twice):
    home, other = clubs
    ivan, vanya = twice
    record = merges.merge_people(vanya, ivan)
    assert Seat._base_manager.filter(player=vanya).count() == 0
    assert Seat._base_manager.filter(player=ivan).count() == 2
    assert clubs_of(ivan) == [home.slug, other.slug] and clubs_of(vanya) == []
    vanya.refresh_from_db()
    assert not vanya.is_active and Player.everywhere.filter(pk=vanya.pk).exists()
    assert record.rows == 2  # his seat and his membership at Сокол

    back = merges.undo_merge(record)
    assert back.undoes == record and PersonMerge.objects.count() == 2
    assert Seat._base_manager.filter(player=vanya).count() == 1
    assert Seat._base_manager.filter(player=ivan).count() == 1
    assert clubs_of(ivan) == [home.slug] and clubs_of(vanya) == [other.slug]
    vanya.refresh_from_db()
    assert vanya.is_active
    with pytest.raises(
        ValidationError, match="уже отменено"
    ):  # «This merge has been taken back already.»
        merges.undo_merge(record)
    assert PersonMerge.objects.count() == 2


def test_a_membership_both_have_stays_with_the_merged_record(clubs, twice):
    home, _other = clubs
    ivan, vanya = twice
    Membership.everywhere.create(club=home, player=vanya)
    record = merges.merge_people(vanya, ivan)
    assert list(record.kept) == ["players.membership.player"]
    assert clubs_of(vanya) == [home.slug]  # kept, not deleted
    merges.undo_merge(record)
    assert clubs_of(vanya) == sorted([home.slug, "sokol"])


def test_the_network_admin_merges_from_the_page_seeing_no_phones(clubs, twice):
    ivan, vanya = twice
    client = network_admin()
    page = client.get(reverse("players:merges"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "data-duplicates" in text and f"№ {vanya.pk}" in text  # the same phone
    assert "912" not in text
    preview = client.get(reverse("players:merges"), {"source": vanya.pk, "target": ivan.pk})
    assert "data-merge-preview" in preview.content.decode()
    assert PersonMerge.objects.count() == 0  # a preview writes nothing
    done = client.post(reverse("players:merges"), {"source": vanya.pk, "target": ivan.pk})
    assert done.status_code == 302
    record = PersonMerge.objects.get()
    assert record.merged_by.username == "net" and record.target == ivan
    assert client.post(reverse("players:merge_undo", args=[record.pk])).status_code == 302
    assert PersonMerge.objects.count() == 2


@pytest.mark.parametrize(
    "data", [{"source": 1, "target": 1}, {"source": 999999, "target": 1}, {"source": "x"}]
)
def test_a_wrong_merge_is_refused_with_a_reason_and_changes_nothing(clubs, twice, data):
    response = network_admin().post(reverse("players:merges"), data)
    assert response.status_code == 400
    assert PersonMerge.objects.count() == 0


def test_a_clubs_admin_may_not_merge(clubs, twice):
    home, _other = clubs
    ivan, vanya = twice
    with using_club(home):
        admin = UserFactory(username="club-admin", groups=[ADMINS])
    client = Client(HTTP_HOST=HOME)
    client.force_login(admin)
    assert client.get(reverse("players:merges")).status_code == 403
    response = client.post(reverse("players:merges"), {"source": vanya.pk, "target": ivan.pk})
    assert response.status_code == 403 and PersonMerge.objects.count() == 0
