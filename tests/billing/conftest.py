import pytest

from billing.demo import load_demo_tariffs
from clubsite.roles import CASHIERS
from tests.factories import UserFactory


@pytest.fixture
def tariffs(db):
    load_demo_tariffs()


@pytest.fixture
def cashier(db):
    return UserFactory(username="cashier-user", groups=[CASHIERS])


@pytest.fixture
def cashier_client(client, cashier):
    client.force_login(cashier)
    return client
