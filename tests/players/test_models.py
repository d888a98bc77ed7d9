import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from games.models import Game, Seat
from players import services
from players.models import Player, SkillClass
from players.selectors import ACTIVE, ALL, INACTIVE, search_players
from tests.factories import PlayerFactory, TableFactory

pytestmark = pytest.mark.django_db


def seat(player):
    game = Game.objects.create(table=TableFactory(), variant="cork")
    return Seat.objects.create(game=game, position=0, player=player)


@pytest.mark.parametrize(
    "phone", ["+7 912 345-67-89", "8 (912) 345-67-89", "+79123456789", "2-34-56-78"]
)
def test_good_phone_numbers_pass(phone):
    PlayerFactory.build(full_name="Иван Петров", phone=phone).full_clean()


@pytest.mark.parametrize(
    "phone", ["12-34", "+7 912 abc 67 89", "7+9123456789", "1234567890123456", "-------1"]
)
def test_bad_phone_numbers_are_refused(phone):
    with pytest.raises(ValidationError) as error:
        PlayerFactory.build(full_name="Иван Петров", phone=phone).full_clean()
    assert "phone" in error.value.message_dict


def test_bad_email_is_refused():
    with pytest.raises(ValidationError) as error:
        PlayerFactory.build(full_name="Иван Петров", email="ivan@").full_clean()
    assert "email" in error.value.message_dict


def test_skill_classes_run_from_novice_to_master():
    assert SkillClass.values == ["novice", "3", "2", "1", "cms", "ms"]
    assert Player().skill_class == SkillClass.NOVICE


def test_names_are_trimmed_and_spaces_collapsed_on_clean():
    player = PlayerFactory.build(full_name="  Иван   Петров ", nickname=" Ваня ")
    player.full_clean()
    assert (player.full_name, player.nickname) == ("Иван Петров", "Ваня")


def test_a_name_of_spaces_only_is_refused():
    with pytest.raises(ValidationError) as error:
        PlayerFactory.build(full_name="   ").full_clean()
    assert "full_name" in error.value.message_dict


def test_two_active_players_cannot_share_full_name_and_nickname():
    PlayerFactory(full_name="Иван Петров", nickname="Ваня")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(full_name="Иван Петров", nickname="Ваня")


@pytest.mark.parametrize(
    ("full_name", "nickname"),
    [("иван петров", "ВАНЯ"), ("Иван  Петров", "ваня"), ("ИВАН ПЕТРОВ", "Ваня")],
)
def test_names_differing_only_in_case_or_spacing_are_the_same_player(full_name, nickname):
    PlayerFactory(full_name="Иван Петров", nickname="Ваня")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(full_name=full_name, nickname=nickname)
    with pytest.raises(ValidationError):
        Player(full_name=full_name, nickname=nickname).full_clean()


def test_yo_and_ye_are_the_same_letter_in_a_name():
    PlayerFactory(full_name="Алёна Фёдорова")
    with pytest.raises(ValidationError):
        Player(full_name="Алена Федорова").full_clean()


def test_the_name_key_follows_a_renaming_even_with_update_fields():
    player = PlayerFactory(full_name="Иван Петров")
    player.full_name = "Пётр Иванов"
    player.save(update_fields=["full_name"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(full_name="пётр иванов")
    Player.objects.create(full_name="Иван Петров")  # the old name is free again


def test_constraint_is_reported_by_validation_too():
    PlayerFactory(full_name="Иван Петров")
    with pytest.raises(ValidationError):
        Player(full_name="Иван Петров").full_clean()


def test_same_name_is_allowed_with_another_nickname_or_when_inactive():
    PlayerFactory(full_name="Иван Петров", nickname="")
    PlayerFactory(full_name="Иван Петров", nickname="Старший")
    PlayerFactory(full_name="Иван Петров", nickname="", is_active=False)
    PlayerFactory(full_name="Иван Петров", nickname="", is_active=False)
    assert Player.objects.filter(full_name="Иван Петров").count() == 4


def test_boards_show_the_nickname_when_set():
    assert PlayerFactory.build(full_name="Иван Петров", nickname="Ваня").display_name == "Ваня"
    assert PlayerFactory.build(full_name="Иван Петров").display_name == "Иван Петров"


def test_search_is_case_insensitive_for_cyrillic_and_treats_yo_as_ye():
    fyodor = PlayerFactory(full_name="Фёдор Ёлкин", nickname="Ёж", phone="+7 900 111-22-33")
    PlayerFactory(full_name="Пётр Иванов")
    assert list(search_players("фЕдор")) == [fyodor]
    assert list(search_players("елкин еж")) == [fyodor]
    assert list(search_players("111-22")) == [fyodor]
    assert list(search_players("Фёдор Иванов")) == []


def test_search_text_follows_updates_even_with_update_fields():
    player = PlayerFactory(full_name="Иван Петров")
    player.nickname = "Ваня"
    player.save(update_fields=["nickname"])
    assert list(search_players("ваня")) == [player]


def test_search_filters_by_status():
    active = PlayerFactory(full_name="Анна Активная")
    gone = PlayerFactory(full_name="Анна Ушедшая", is_active=False)
    assert list(search_players("анна", ACTIVE)) == [active]
    assert list(search_players("анна", INACTIVE)) == [gone]
    assert set(search_players("анна", ALL)) == {active, gone}


def test_a_player_who_has_played_cannot_be_deleted():
    player = PlayerFactory()
    seat(player)
    with pytest.raises(ProtectedError):
        player.delete()
    with pytest.raises(ValidationError):
        services.delete_player(player)
    assert Player.objects.filter(pk=player.pk).exists()


def test_a_player_who_never_played_can_be_deleted():
    player = PlayerFactory()
    services.delete_player(player)
    assert not Player.objects.filter(pk=player.pk).exists()


def test_deactivate_and_reactivate():
    player = PlayerFactory()
    services.set_player_active(player, False)
    player.refresh_from_db()
    assert not player.is_active
    services.set_player_active(player, True)
    player.refresh_from_db()
    assert player.is_active


def test_reactivating_refuses_a_name_taken_by_an_active_player():
    old = PlayerFactory(full_name="Иван Петров", is_active=False)
    PlayerFactory(full_name="Иван Петров")
    with pytest.raises(ValidationError):
        services.set_player_active(old, True)
    old.refresh_from_db()
    assert not old.is_active


def test_notes_are_limited_to_2000_characters_in_model_validation():
    Player(full_name="Иван", notes="x" * 2000).full_clean()
    with pytest.raises(ValidationError) as error:
        Player(full_name="Иван", notes="x" * 2001).full_clean()
    assert "notes" in error.value.message_dict
