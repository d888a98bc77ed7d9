import pytest
from django.core.cache import cache

from tables.models import Table


@pytest.fixture(autouse=True)
def fresh_board_cache():
    """Rendered boards are cached per fingerprint; tests reuse game ids, so start clean."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table(db):
    return Table.objects.create(number=3, name="Центральный")
