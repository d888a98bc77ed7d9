import pytest

from players.models import Player
from tables.models import Table


@pytest.fixture
def tables(db):
    return [Table.objects.create(number=n) for n in (1, 2, 3)]


@pytest.fixture
def table(tables):
    return tables[0]


@pytest.fixture
def players(db):
    names = ["Алексей Петров", "Борис Иванов", "Василий Сидоров", "Григорий Орлов"]
    return [Player.objects.create(full_name=name) for name in names]
