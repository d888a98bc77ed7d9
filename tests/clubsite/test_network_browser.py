"""The network's page on a 360 px phone and a 1920×1080 screen: nothing wider than the screen,
every club's card, its tables and the games in play (screenshots under
test-artifacts/screenshots/)."""

from pathlib import Path

import pytest

from clubs.current import only_club, using_club
from clubs.models import Club
from tests.factories import PlayerFactory, TableFactory, UserFactory, ev, record, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def test_the_network_page_fits_a_phone_and_a_tv(browser, live_server, settings):
    settings.ALLOWED_HOSTS = ["localhost", ".localhost", "127.0.0.1"]
    home = Club.objects.order_by("pk").first() or only_club()
    home.name, home.hosts, home.city, home.address = (
        "Луза",
        ["localhost"],
        "Москва",
        "ул. Тверская, 1",
    )
    home.save()
    clubs = [
        home,
        Club.objects.create(name="Сокол", slug="sokol", hosts=["sokol.localhost"],
                            time_zone="Europe/Moscow", city="Москва",
                            address="Ленинградский пр-т, 75"),
        Club.objects.create(name="Нева", slug="neva", hosts=["neva.localhost"],
                            time_zone="Europe/Moscow", city="Санкт-Петербург",
                            address="Невский пр-т, 28"),
    ]  # fmt: skip
    marker = UserFactory(username="network-marker")
    for index, club in enumerate(clubs):
        # the people are the network's: one game at a time each, the others guests
        first = [
            PlayerFactory(full_name=f"Константин Преображенский {index}"),
            PlayerFactory(full_name=f"Александра Константинопольская {index}"),
        ]
        with using_club(club):
            tables = [TableFactory(number=n, name=f"Стол у окна {n}") for n in range(1, 6)]
            record(start(tables[0], "pyramid_free", first, marker), marker, ev("pot", count=3))
            start(tables[1], "cork", ["Гость Борис", "Гость Олег", "Гость Пётр"], marker)
            TableFactory(number=6, out_of_service=True)
    for width, height in ((360, 740), (1920, 1080)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
        page = context.new_page()
        page.goto(f"{live_server.url}/network/")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"network-{width}x{height}.png"), full_page=True)
        sizes = page.evaluate(
            """() => ({page: document.scrollingElement.scrollWidth, screen: window.innerWidth,
                       clubs: document.querySelectorAll("article.network-club").length,
                       live: document.querySelectorAll(".network-tables .live-badge").length,
                       cities: [...document.querySelectorAll(".network-city h2")]
                                 .map(h => h.textContent)})"""
        )
        assert sizes["page"] <= sizes["screen"], sizes
        assert sizes["clubs"] == 3 and sizes["live"] == 6
        assert sizes["cities"] == ["Москва", "Санкт-Петербург"]
        context.close()
