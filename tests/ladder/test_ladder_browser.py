"""The ladder on two phones: Лена (5th) sees why the top is out of her reach and challenges
Сокол (2nd); he accepts on his page; they play at a table without a marker, he confirms, and
she has his place."""

import pytest

from games.models import Game, GameStatus
from ladder import selectors, services
from ladder.models import Challenge, ChallengeStatus, Ladder
from tables.models import Table
from tests.conftest import login
from tests.me.test_phones_browser import no_horizontal_scroll, phone, player, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["phone"]  # the fixture


def test_a_challenge_accepted_played_and_confirmed_on_two_phones(phone, live_server):
    ded = player("Владимир Козлов", "Дед", "ded")
    sokol = player("Иван Соколов", "Сокол", "sokol")
    misha = player("Михаил Новиков", "Миша", "misha")
    pasha = player("Павел Морозов", "Паша", "pasha")
    lena = player("Елена Лебедева", "Лена", "lena")
    ladder = Ladder.objects.create(name="Лестница клуба", variant="pyramid_free", reach=3)
    for who in (ded, sokol, misha, pasha, lena):
        services.join(ladder=ladder, player=who)
    Table.objects.create(number=4, name="У окна")
    hers, his = phone(), phone()
    login(hers, live_server, "lena")
    login(his, live_server, "sokol")

    # Her ladder: the top is 4 places above, the rule says so; Сокол is within reach.
    hers.goto(f"{live_server.url}/ladder/{ladder.pk}/")
    top = hers.locator(f'tr[data-player="{ded.pk}"] [data-why-not]')
    assert "3" in top.inner_text() and "4" in top.inner_text()
    no_horizontal_scroll(hers)
    screenshot(hers, "ladder-before")
    hers.click(f'tr[data-player="{sokol.pk}"] [data-challenge]')
    hers.wait_for_url(f"{live_server.url}/ladder/{ladder.pk}/")
    made = Challenge.objects.get()
    assert (made.challenger, made.challenged) == (lena, sokol)
    # A second challenge while hers is open: every other row says why not.
    assert not hers.locator("[data-challenge]").count()

    # His page: the challenge, its deadline, and his answer.
    his.goto(f"{live_server.url}/me/")
    card = his.locator(f'[data-challenge="{made.pk}"]')
    assert "Лена" in card.inner_text()
    no_horizontal_scroll(his)
    screenshot(his, "ladder-challenged")
    card.locator("[data-accept]").click()
    his.wait_for_url(f"{live_server.url}/me/")
    made.refresh_from_db()
    assert made.status == ChallengeStatus.ACCEPTED

    # They play at table 4 without a marker; she scores, he confirms.
    hers.goto(f"{live_server.url}/tables/4/board/")
    hers.click("[data-play-here]")
    hers.wait_for_url(f"{live_server.url}/me/tables/4/play/")
    hers.select_option("select[name=variant]", "pyramid_free")
    hers.fill("input[name=q]", "Сок")
    hers.check("#found input[name=opponent]")
    hers.click("[data-start-own]")
    hers.wait_for_url("**/marker/games/*/")
    hers.click('#console button[data-count="6"]')
    hers.wait_for_selector('#console[data-seq="1"]')
    hers.click('#console button[data-count="2"]')
    hers.wait_for_selector('#console[data-seq="2"]')
    hers.click("[data-finish]")
    hers.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get(table__number=4)
    with his.expect_navigation(url=f"{live_server.url}/me/"):
        his.goto(f"{live_server.url}/me/")
    with his.expect_navigation(url=f"{live_server.url}/me/"):
        his.click(f'.me-confirm[data-confirm="{game.pk}"] [data-confirm-game]')
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED

    made.refresh_from_db()
    assert made.status == ChallengeStatus.PLAYED and made.winner == lena
    assert selectors.order(ladder) == [ded.pk, lena.pk, sokol.pk, misha.pk, pasha.pk]
    hers.goto(f"{live_server.url}/ladder/{ladder.pk}/")
    assert hers.locator("tr.is-me").get_attribute("data-place") == "2"
    screenshot(hers, "ladder-after")
    hers.goto(f"{live_server.url}/me/")
    assert "2" in hers.locator(f'[data-ladder="{ladder.pk}"]').inner_text()
    screenshot(hers, "ladder-me")
