import pytest
from django.core.cache import cache

from records import rating


@pytest.fixture(autouse=True)
def clear_rating_cache():
    rating.forget()
    cache.clear()
    yield
    rating.forget()
    cache.clear()
