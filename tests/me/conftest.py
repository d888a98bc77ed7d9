"""The players' phones' test world: players with accounts of their own."""

import pytest
from django.contrib.auth.models import Group

from tests.factories import PlayerFactory, UserFactory
from toolbox.roles import PLAYERS, ensure_roles


def account(player, username):
    """``player`` gets his own account (the Players group), as a redeemed link makes it."""
    ensure_roles()
    user = UserFactory(username=username)
    user.groups.add(Group.objects.get(name=PLAYERS))
    player.user = user
    player.save(update_fields=["user"])
    return user


@pytest.fixture
def lena(db):
    player = PlayerFactory(full_name="Елена Лебедева", nickname="Лена", phone="+7 912 345-67-89")
    account(player, "lena")
    return player


@pytest.fixture
def sokol(db):
    player = PlayerFactory(full_name="Иван Соколов", nickname="Сокол", phone="+7 900 111-22-33")
    account(player, "sokol")
    return player


@pytest.fixture
def lena_client(client, lena):
    client.force_login(lena.user)
    return client
