"""The ladder's test world: a club ladder of pyramid games and five players on it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from ladder import services
from ladder.models import Ladder
from tests.factories import PlayerFactory

# The ladder began ten days ago (the pages settle it at the real time: nobody idle yet).
START = timezone.now().replace(hour=19, minute=0, second=0, microsecond=0) - timedelta(days=10)
NAMES = ["Анна Первая", "Борис Второй", "Вера Третья", "Глеб Четвёртый", "Дарья Пятая"]


@pytest.fixture
def ladder(db):
    return Ladder.objects.create(
        name="Лестница: свободная пирамида",
        variant="pyramid_free",
        reach=2,
        accept_days=3,
        play_days=7,
        max_open=1,
        rematch_days=14,
        inactive_days=30,
    )


@pytest.fixture
def five(ladder):
    """Five players joined in order: Анна first."""
    people = [PlayerFactory(full_name=name, nickname="") for name in NAMES]
    for person in people:
        services.join(ladder=ladder, player=person, now=START)
    return people
