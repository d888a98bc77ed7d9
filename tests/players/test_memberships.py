"""One person, many rosters (issue 32 item 3): a player is a person of the network with a
membership at each club he plays at. A club reads and edits its members only; another club
sees a member's name, class and public records, never his phone, e-mail or notes; a club's
roster form and CSV import link the network's person they name rather than make him again."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubs.current import using_club
from players.models import Membership, Player
from tests.factories import PlayerFactory, UserFactory
from toolbox.roles import ADMINS

pytestmark = pytest.mark.django_db

HOME, OTHER = "testserver", "sokol.example"
HEADER = "full_name,nickname,phone,email,skill_class,active,notes\n"


@pytest.fixture
def clubs(home_and_sokol):
    return home_and_sokol


def admin_at(club, host):
    with using_club(club):
        user = UserFactory(username=f"admin-{club.slug}", groups=[ADMINS])
    client = Client(HTTP_HOST=host)
    client.force_login(user)
    return client


@pytest.fixture
def ivan(clubs):
    home, _other = clubs
    with using_club(home):
        return PlayerFactory(
            full_name="Иван Петров",
            phone="+7 912 345-67-89",
            email="ivan@example.ru",
            notes="должен за кий",
            skill_class="cms",
        )


def clubs_of(player):
    return sorted(Membership.everywhere.filter(player=player).values_list("club__slug", flat=True))


def test_a_player_added_at_a_club_is_on_its_roster_only(clubs, ivan):
    home, other = clubs
    assert clubs_of(ivan) == [home.slug]
    at_home, at_other = admin_at(home, HOME), admin_at(other, OTHER)
    assert "Иван Петров" in at_home.get(reverse("players:list")).content.decode()
    assert "Иван Петров" not in at_other.get(reverse("players:list")).content.decode()
    assert "Иван Петров" not in at_other.get(reverse("players:export")).content.decode("utf-8-sig")
    assert at_other.get(reverse("players:edit", args=[ivan.pk])).status_code == 404
    assert at_other.post(reverse("players:deactivate", args=[ivan.pk])).status_code == 404
    with using_club(other):
        assert not Player.objects.filter(pk=ivan.pk).exists()


def test_another_club_sees_his_name_class_and_records_not_his_contacts(clubs, ivan):
    _home, other = clubs
    page = admin_at(other, OTHER).get(reverse("players:detail", args=[ivan.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Иван Петров" in text and "Кандидат в мастера спорта" in text
    for private in ("912", "ivan@example.ru", "должен за кий"):
        assert private not in text


def test_the_roster_form_offers_the_networks_person_instead_of_a_second_one(clubs, ivan):
    _home, other = clubs
    at_other = admin_at(other, OTHER)
    form = at_other.post(reverse("players:create"), {"full_name": "Иван  Петров"})
    assert form.status_code == 200
    text = form.content.decode()
    assert "already plays at another club" in text or "уже играет в другом клубе" in text
    assert "data-network-person" in text and "912" not in text
    assert Player.everywhere.filter(full_name="Иван Петров").count() == 1

    joined = at_other.post(reverse("players:join"), {"full_name": "Иван Петров", "nickname": ""})
    assert joined.status_code == 302
    assert clubs_of(ivan) == ["luza", "sokol"]
    # One person: his details are the same at both clubs now that both hold him.
    assert "912" in at_other.get(reverse("players:edit", args=[ivan.pk])).content.decode()


def test_joining_needs_the_persons_exact_name(clubs, ivan):
    _home, other = clubs
    at_other = admin_at(other, OTHER)
    missing = at_other.post(reverse("players:join"), {"full_name": "Иван", "nickname": ""})
    assert missing.status_code == 404 and clubs_of(ivan) == ["luza"]


def upload(client, text):
    file = SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
    return client.post(reverse("players:import"), {"file": file})


def test_a_roster_csv_links_the_networks_people_by_name_and_by_phone(clubs, ivan):
    home, other = clubs
    with using_club(home):
        olga = PlayerFactory(full_name="Ольга Смирнова", phone="8 (900) 111-22-33")
    at_other = admin_at(other, OTHER)
    text = (
        HEADER
        + "Иван Петров,,+7 999 000-00-00,new@example.ru,novice,1,\n"  # his name: linked as he is
        + "Ольга Смирнова-Ким,,+7 900 111-22-33,,,1,\n"  # her phone: the same person
        + "Пётр Новиков,,,,,1,\n"  # nobody's: a new player
    )
    preview = upload(at_other, text)
    assert preview.status_code == 200
    page = preview.content.decode()
    assert page.count("data-linked>") == 2
    assert home.name in page  # the club that holds them, not their contacts
    assert "912" not in page and "ivan@example.ru" not in page

    confirmed = at_other.post(reverse("players:import_confirm"), {"csv_text": text})
    assert confirmed.status_code == 302
    assert clubs_of(ivan) == ["luza", "sokol"] and clubs_of(olga) == ["luza", "sokol"]
    ivan.refresh_from_db()
    assert ivan.phone == "+7 912 345-67-89" and ivan.skill_class == "cms"  # the file's not his
    olga.refresh_from_db()
    assert olga.full_name == "Ольга Смирнова"
    novikov = Player.everywhere.get(full_name="Пётр Новиков")
    assert clubs_of(novikov) == ["sokol"]
    assert Player.everywhere.count() == 3


def test_a_club_deleting_a_person_of_another_club_takes_him_off_its_roster_only(clubs, ivan):
    home, other = clubs
    Membership.everywhere.create(club=other, player=ivan)
    at_other = admin_at(other, OTHER)
    assert at_other.post(reverse("players:delete", args=[ivan.pk])).status_code == 302
    assert Player.everywhere.filter(pk=ivan.pk).exists() and clubs_of(ivan) == [home.slug]
