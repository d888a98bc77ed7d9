import pytest

from players.models import Player
from tables.models import Table


@pytest.fixture
def table(db):
    return Table.objects.create(number=1, name="У окна")


@pytest.fixture
def other_table(db):
    return Table.objects.create(number=2)


@pytest.fixture
def players(db):
    """Six active roster players, in the seed's order «1» … «6»."""
    names = [
        "Алексей Петров",
        "Борис Иванов",
        "Василий Сидоров",
        "Григорий Орлов",
        "Дмитрий Козлов",
        "Евгений Волков",
    ]
    return [Player.objects.create(full_name=name) for name in names]
