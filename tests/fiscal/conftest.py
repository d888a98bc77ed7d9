import pytest

from billing.demo import load_demo_tariffs
from fiscal.models import FiscalSettings
from tests.factories import UserFactory
from tests.fiscal.atol import AtolStandIn
from toolbox.roles import ADMINS, CASHIERS


@pytest.fixture
def atol():
    stand_in = AtolStandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture(autouse=True)
def no_background_sending(settings):
    settings.FISCAL_SEND_AT_ONCE = False  # the tests drain themselves (one test turns it on)


@pytest.fixture
def register(db, atol):
    """The club's register: the stand-in, answering within a second."""
    FiscalSettings.objects.create(pk=1, register="atol", atol_url=atol.url, timeout_seconds=1)
    return atol.register


@pytest.fixture
def tariffs(db):
    load_demo_tariffs()


@pytest.fixture
def cashier(db):
    return UserFactory(username="cashier-user", groups=[CASHIERS], first_name="Анна")


@pytest.fixture
def senior(db):
    return UserFactory(username="senior-user", groups=[ADMINS, CASHIERS])


@pytest.fixture
def cashier_client(client, cashier):
    client.force_login(cashier)
    return client
