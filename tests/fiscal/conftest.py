import pytest

from fiscal.models import FiscalSettings

# The desk's tariffs, its table and a cashier signed in, as billing's tests have them.
from tests.billing.conftest import cashier_client, tariffs  # noqa: F401
from tests.billing.test_bills import table  # noqa: F401
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
def cashier(db):  # billing's cashier, with a name for the receipts
    return UserFactory(username="cashier-user", groups=[CASHIERS], first_name="Анна")


@pytest.fixture
def senior(db):
    return UserFactory(username="senior-user", groups=[ADMINS, CASHIERS])
