"""The QR sheet as it comes out of the printer: A4, the codes big enough to scan from a metre,
each card whole on its page with its table's number."""

import math
import re
from pathlib import Path

import pytest

from tests.conftest import PASSWORD, login
from tests.factories import TableFactory, UserFactory
from toolbox.roles import ADMINS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
MM = 96 / 25.4  # CSS px per millimetre
A4_PRINTABLE = {"width": round(186 * MM), "height": round(273 * MM)}  # 210×297 mm, 12 mm margins

# Run in the printed sheet: each card's code, number and box, in CSS px.
CARDS = """() => [...document.querySelectorAll(".qr-card")].map((card) => {
  const code = card.querySelector(".qr-code svg").getBoundingClientRect();
  const number = card.querySelector(".qr-number");
  const box = card.getBoundingClientRect();
  return {table: card.dataset.table, number: number.textContent.trim(),
          numberPx: parseFloat(getComputedStyle(number).fontSize),
          code: [code.width, code.height], card: [box.width, box.height]};
})"""


def test_the_printed_sheet_has_codes_of_7_cm_four_whole_cards_a_page(browser, live_server):
    UserFactory(username="admin-qr", password=PASSWORD, groups=[ADMINS])
    for number in range(1, 8):
        TableFactory(number=number, name=f"Стол у окна {number}")
    context = browser.new_context(viewport=A4_PRINTABLE, locale="ru-RU")
    page = context.new_page()
    login(page, live_server, "admin-qr")
    page.goto(f"{live_server.url}/tables/qr/")
    page.emulate_media(media="print")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "qr-sheet-printed-a4.png"), full_page=True)
    cards = page.evaluate(CARDS)
    assert [card["table"] for card in cards] == [str(n) for n in range(1, 8)]
    assert not page.locator(".site-header").is_visible()  # only the cards are printed
    for card in cards:
        assert card["number"] == f"№ {card['table']}"
        assert card["numberPx"] >= 32, card  # 24 pt and more: the number reads at a glance
        width, height = (size / MM for size in card["code"])
        assert width >= 60 and height >= 60, card  # mm: a phone reads it from a metre
        # two cards across and two down fill a page: no card is cut by a page break
        assert card["card"][0] <= A4_PRINTABLE["width"] / 2
        assert card["card"][1] <= A4_PRINTABLE["height"] / 2
    pdf = page.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    assert pages == math.ceil(len(cards) / 4)
    context.close()
