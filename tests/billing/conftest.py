import pytest

from billing.demo import load_demo_tariffs
from tests.factories import UserFactory
from toolbox.roles import CASHIERS


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
