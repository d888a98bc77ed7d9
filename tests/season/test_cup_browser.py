"""A season in a browser (issue 34 item 5): a cup of four stages of 16 players and its final
for the top 8, as the club lives it. The cashier takes the first stage's fees at the desk
and pays its prizes out (a double tap pays once), the standings after each stage are read
off /series/<id>/ against tables written by hand, a player sees on his phone what he needs
before the last stage, the desk flags a slow match.

The matches are played through the services (race to 1: one frame each). The better seed
wins every match, so a stage's places follow its seeding: seed 1 first, 2 second, 3–4,
5–8, 9–16. A ranking stage gives 1st 50, 2nd 40, 3–4 (32 + 32) / 2 = 32, 5–8 25, 9–16 18.
Every result counts; ties: points, then the best place (no rating: lines still tied share
their place).

The regulation of every stage: 500 ₽, 300 ₽ up to a rating of 1400 (the last four players,
rated 1300 for the fees), split 70/20/10 %, the club evening's payouts (≤ 16: 40/25/17.5/
12.5 %, the semi-finalists sharing 3–4), to the kopeck. A stage of 12 × 500 + 4 × 300 =
7 200 ₽ gives 12 × 350 + 4 × 210 = 5 040 ₽ of prizes, 12 × 100 + 4 × 60 = 1 440 ₽ to the
final, 12 × 50 + 4 × 30 = 720 ₽ of costs. At stage 3 Орлов (300 ₽) does not pay: 6 900 ₽,
4 830 ₽ of prizes, 1 380 ₽ to the final, 690 ₽ of costs.

Screenshots go to test-artifacts/cup-*.png (git-ignored): look at them.
"""

import datetime as dt
import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from billing import selectors as billing_selectors
from billing import services as billing_services
from billing.models import Payout
from clubs.scoping import club_in_scope
from players.models import Player
from records import rating
from season import selectors as season_selectors
from season.models import PointsTable, Series, Stage
from tables.models import Table
from tests.conftest import login
from tests.factories import UserFactory
from tests.tournaments.test_funds import Ratings
from tests.tournaments.test_tournament_browser import context_page
from tests.tournaments.test_tournaments import play_match
from toolbox.roles import ADMINS, CASHIERS, PLAYERS
from tournaments import funds, prizes, selectors, services
from tournaments.models import Match, Tournament, TournamentStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SCREEN = {"width": 1366, "height": 900}
PHONE = {"width": 360, "height": 740}
RUB = 100

NAMES = [
    "Аверин",
    "Белов",
    "Волков",
    "Гусев",
    "Дьяков",
    "Егоров",
    "Жуков",
    "Зайцев",
    "Ильин",
    "Карпов",
    "Лебедев",
    "Морозов",
    "Никитин",
    "Орлов",
    "Павлов",
    "Рябов",
]
BAND = NAMES[12:]  # rated 1300: 300 ₽ a stage
BY_HAND = (0, 5, 12, 15)  # whose fees at stage 1 the cashier takes in the browser

# Each stage's seeding (= its finishing order), by the index in NAMES.
ORDERS = [
    list(range(16)),
    [1, 0, 3, 2, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15],
    [4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15],
    [15, 2, 6, 4, 0, 1, 9, 10, 3, 5, 8, 7, 11, 12, 13, 14],
]

# The standings after each stage, by hand: (place, player, points).
AFTER = [
    [
        (1, "Аверин", "50"),
        (2, "Белов", "40"),
        (3, "Волков", "32"),  # 3–4 shared: the same points, the same best place
        (3, "Гусев", "32"),
        (5, "Дьяков", "25"),
        (5, "Егоров", "25"),
        (5, "Жуков", "25"),
        (5, "Зайцев", "25"),
        *[(9, name, "18") for name in NAMES[8:]],
    ],
    [
        (1, "Аверин", "90"),  # 50 + 40
        (1, "Белов", "90"),  # 40 + 50
        (3, "Волков", "64"),
        (3, "Гусев", "64"),
        *[(5, name, "43") for name in NAMES[4:12]],  # 25 + 18 and 18 + 25
        *[(13, name, "36") for name in NAMES[12:]],
    ],
    [
        (1, "Аверин", "115"),  # 90 + 25
        (1, "Белов", "115"),
        (3, "Дьяков", "93"),  # 25 + 18 + 50
        (4, "Волков", "89"),  # 64 + 25
        (4, "Гусев", "89"),
        (6, "Егоров", "83"),  # 25 + 18 + 40
        (7, "Жуков", "75"),  # 25 + 18 + 32
        (7, "Зайцев", "75"),
        (9, "Ильин", "61"),  # 18 + 25 + 18
        (9, "Карпов", "61"),
        (9, "Лебедев", "61"),
        (9, "Морозов", "61"),
        (13, "Никитин", "54"),  # 18 × 3
        (13, "Орлов", "54"),
        (13, "Павлов", "54"),
        (13, "Рябов", "54"),
    ],
    [
        (1, "Аверин", "140"),  # 115 + 25
        (1, "Белов", "140"),
        (3, "Волков", "129"),  # 89 + 40
        (4, "Дьяков", "125"),  # 93 + 32
        (5, "Гусев", "107"),  # 89 + 18, best place 3
        (5, "Жуков", "107"),  # 75 + 32, best place 3
        (7, "Рябов", "104"),  # 54 + 50: the last stage won
        (8, "Егоров", "101"),  # 83 + 18: the last of the final
        (9, "Зайцев", "93"),  # 75 + 18
        (10, "Карпов", "86"),  # 61 + 25
        (10, "Лебедев", "86"),
        (12, "Ильин", "79"),  # 61 + 18
        (12, "Морозов", "79"),
        (14, "Никитин", "72"),
        (14, "Орлов", "72"),
        (14, "Павлов", "72"),
    ],
]
FINALISTS = ["Аверин", "Белов", "Волков", "Дьяков", "Гусев", "Жуков", "Рябов", "Егоров"]
# The final's fund on /series/<id>/ after each stage: 1 440 ₽ a stage, 1 380 ₽ at stage 3.
FUND_AFTER = ["1 440,00 ₽", "2 880,00 ₽", "4 260,00 ₽", "5 700,00 ₽"]


def regulation():
    return prizes.Regulation(
        fee=500 * RUB,
        bands=((1400, 300 * RUB),),
        split=prizes.Split(prizes.PERCENT, 7000, 2000),
        preset="evening",
        unit=1,
    ).to_json()


def text(value):
    return re.sub(r"[\s\xa0\u202f]+", " ", value).strip()


def screenshot(page, name, full_page=True):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"cup-{name}.png"), full_page=full_page)


class Cup:
    def __init__(self, players):
        self.players = players  # by index in NAMES
        self.series = Series.objects.create(
            name="Кубок Лузы",
            season="2026",
            club=club_in_scope(),
            final_size=8,
            chain=["points", "best_place"],
        )
        self.stages = []
        for number in range(1, 5):
            tournament = Tournament.objects.create(
                name=f"Кубок Лузы, этап {number}",
                date=dt.date(2026, number, 10),
                format="single",
                variant="clockwise",
                race_upper=1,
                race_final=1,
                regulation=regulation(),
            )
            for player in players:
                services.add_entrant(tournament=tournament, player=player)
            Stage.objects.create(
                series=self.series, tournament=tournament, number=number, table=PointsTable.RANKING
            )
            self.stages.append(tournament)

    def entrant(self, tournament, index):
        return tournament.entrants.get(player=self.players[index])

    def start(self, tournament, order):
        services.start_tournament(
            tournament=tournament,
            method="manual",
            manual=[self.entrant(tournament, index).pk for index in order],
        )
        tournament.refresh_from_db()


def call(tournament, table):
    """Calls the first ready match to ``table``; returns it and the winner (the better seed)."""
    item = selectors.tournament_view(tournament).queue[0]
    match = services.start_tournament_match(
        tournament=tournament, key=item.spec.key, table=table, marker=None
    )
    return match, "a" if item.seed_a < item.seed_b else "b"


def play_out(tournament, table):
    while selectors.tournament_view(tournament).queue:
        play_match(*call(tournament, table))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def pay_fees(cup, tournament, cashier, receipts, skip=(), only=None):
    for index in range(16):
        if NAMES[index] in skip or (only is not None and index in only):
            continue
        bill = services.take_fee(entrant=cup.entrant(tournament, index), user=cashier)
        billing_services.record_payment(
            bill=bill,
            method="cash",
            amount=billing_selectors.bill_summary(bill).balance,
            user=cashier,
            receipt_number=str(next(receipts)),
        )


def check_standings(page, live_server, cup, stage):
    page.goto(f"{live_server.url}/series/{cup.series.pk}/")
    rows = page.locator(".series-table tbody tr[data-player]")
    expect(rows).to_have_count(16)
    seen = rows.evaluate_all(
        "rows => rows.map(r => [r.cells[0].innerText, r.cells[1].innerText, r.cells[2].innerText])"
    )
    # In the order of the places, lines still tied by name.
    table = [(int(place), text(name), text(points)) for place, name, points in seen]
    assert table == AFTER[stage - 1], f"after stage {stage}"
    expect(page.locator("[data-final-fund]")).to_have_text(
        re.compile(r"Фонд финала на сегодня: " + FUND_AFTER[stage - 1].replace(" ", r"\s"))
    )
    screenshot(page, f"standings-{stage}")


def test_a_four_stage_cup_to_its_final(browser, live_server, monkeypatch):
    cashier = UserFactory(username="cup-cashier", groups=[CASHIERS])
    UserFactory(username="cup-desk", groups=[ADMINS])
    phone_user = UserFactory(username="cup-ryabov", groups=[PLAYERS])
    tables = [Table.objects.create(number=n) for n in (1, 2, 3)]
    players = [Player.objects.create(full_name=name) for name in NAMES]
    Player.objects.filter(pk=players[15].pk).update(user=phone_user)
    weak = {player.pk: 1300 for player in players if player.full_name in BAND}
    monkeypatch.setattr(rating, "ratings_for", lambda variant: Ratings(weak))
    billing_services.open_shift(user=cashier, opening_cash=10_000 * RUB)
    cup = Cup(players)
    receipts = iter(range(100, 1000))
    first = cup.stages[0]
    fees_url = f"{live_server.url}/tournaments/{first.pk}/fees/"

    # Stage 1: the cashier takes the fees at the desk, each a bill paid at the cash desk: four
    # of them in the browser (both bands), the other twelve the same way through the services
    # (about 2.5 s each in a browser on a loaded machine).
    till, page = context_page(browser, SCREEN)
    public, board = context_page(browser, SCREEN)
    try:
        login(page, live_server, "cup-cashier")
        pay_fees(cup, first, cashier, receipts, only=BY_HAND)
        page.goto(fees_url)
        for index in range(16):
            row = page.locator(f"tr[data-entrant='{cup.entrant(first, index).pk}']")
            expect(row.locator("td").nth(1)).to_have_text(
                re.compile(r"300,00" if NAMES[index] in BAND else r"500,00")
            )
            if index not in BY_HAND:
                expect(row.locator("[data-take-fee]")).to_have_count(0)  # billed already
                continue
            row.locator("[data-take-fee]").click()
            page.wait_for_url(re.compile(r"/billing/bills/\d+/$"))
            number = str(next(receipts))
            page.fill("input[name=receipt_number]", number)
            page.get_by_role("button", name="Записать оплату").click()
            expect(page.locator(".payments")).to_contain_text(f"№{number}")
            page.goto(fees_url)
        # The ledger by hand: 12 × 500 + 4 × 300 ₽ in, split 70/20/10 fee by fee.
        ledger = funds.ledger(first)
        assert (ledger.fees_due, ledger.fees_paid) == (720_000, 720_000)
        assert (ledger.fund.prize, ledger.fund.final, ledger.fund.costs) == (
            504_000,
            144_000,
            72_000,
        )
        expect(page.locator("[data-fees-paid]")).to_have_text(re.compile(r"7\s200,00 ₽"))
        expect(page.locator("[data-prize-fund]")).to_have_text(re.compile(r"5\s040,00 ₽"))
        expect(page.locator("[data-final-fund]")).to_have_text(re.compile(r"1\s440,00 ₽"))
        expect(page.locator("[data-costs]")).to_have_text(re.compile(r"720,00 ₽"))

        cup.start(first, ORDERS[0])
        play_out(first, tables[0])
        # The prizes of 5 040 ₽: 1st 40 % = 2 016 + the 5 % left (252) = 2 268 ₽, 2nd 25 % =
        # 1 260 ₽, 3–4 (17.5 + 12.5) / 2 = 15 % = 756 ₽ each.
        page.goto(fees_url)
        winner = cup.entrant(first, 0)
        button = page.locator(f"tr[data-entrant='{winner.pk}'] [data-pay-prize]")
        expect(button).to_have_text(re.compile(r"Выплатить 2\s268,00 ₽"))
        button.dblclick()  # the double tap
        page.wait_for_load_state()
        expect(page.locator(f"tr[data-entrant='{winner.pk}'] [data-pay-prize]")).to_have_count(0)
        paid = Payout.objects.filter(reference=funds.prize_reference(first, winner))
        assert [payout.amount for payout in paid] == [226_800]
        for index, amount in ((1, "1\xa0260,00"), (2, "756,00"), (3, "756,00")):
            row = page.locator(f"tr[data-entrant='{cup.entrant(first, index).pk}']")
            expect(row.locator("[data-pay-prize]")).to_have_text(f"Выплатить {amount} ₽")
            row.locator("[data-pay-prize]").click()
            expect(row.locator("[data-pay-prize]")).to_have_count(0)
        fifth = page.locator(f"tr[data-entrant='{cup.entrant(first, 4).pk}'] td")
        expect(fifth.nth(4)).to_have_text("5–8")
        expect(fifth.nth(5)).to_have_text("")  # no prize: no «0,00 ₽» either
        expect(page.locator("[data-prizes-paid]")).to_have_text(re.compile(r"5\s040,00 ₽"))
        expect(page.locator(".ledger + p")).to_contain_text("до копейки")
        screenshot(page, "fees")
        ledger = funds.ledger(first)
        assert sorted(row.prize_paid for row in ledger.rows if row.prize_paid) == [
            75_600,
            75_600,
            126_000,
            226_800,
        ]
        assert ledger.balanced
        check_standings(board, live_server, cup, 1)

        # Stages 2 and 3: the fees through the services (Орлов does not pay at stage 3).
        for stage in (2, 3):
            tournament = cup.stages[stage - 1]
            pay_fees(cup, tournament, cashier, receipts, skip=("Орлов",) if stage == 3 else ())
            if stage == 2:  # the fees taken before the draw are in the final's fund already
                board.goto(f"{live_server.url}/series/{cup.series.pk}/")
                expect(board.locator("[data-final-fund]")).to_have_text(
                    re.compile(r"Фонд финала на сегодня: 2\s880,00 ₽")
                )
            cup.start(tournament, ORDERS[stage - 1])
            play_out(tournament, tables[0])
            check_standings(board, live_server, cup, stage)
        third = funds.ledger(cup.stages[2])
        assert (third.fees_paid, third.fund.prize, third.fund.final, third.fund.costs) == (
            690_000,
            483_000,
            138_000,
            69_000,
        )
        # 4 830 ₽ to the kopeck: 40 % = 1 932 ₽, 25 % = 1 207,50 ₽, 3–4 724,50 ₽ each,
        # the winner 1 932 + (4 830 − 1 932 − 1 207.50 − 1 449) = 2 173,50 ₽.
        assert {row.entrant.name: row.prize_due for row in third.rows if row.prize_due} == {
            "Дьяков": 217_350,
            "Егоров": 120_750,
            "Жуков": 72_450,
            "Зайцев": 72_450,
        }
    finally:
        till.close()

    # Before the last stage: Рябов (13th–16th with 54) sees on his phone what he needs. The
    # 8th line is 75 (Жуков, Зайцев): he needs more than 21 points, and the 8th place
    # (25) gives them where the 9th–16th (18) do not.
    phone, page = context_page(browser, PHONE, is_mobile=True, has_touch=True)
    try:
        login(page, live_server, "cup-ryabov")
        page.goto(f"{live_server.url}/me/")
        row = page.locator(f"[data-series] [data-series-id='{cup.series.pk}']")
        expect(row).to_contain_text("Место 13, очков: 54.")
        needs = row.locator("[data-outlook='open']")
        expect(needs).to_have_text(
            re.compile(
                r"Для финала нужно набрать ещё больше 21:\s+"
                r"место не ниже 8-го на следующем этапе\."
            )
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        row.scroll_into_view_if_needed()
        screenshot(page, "phone", full_page=False)
    finally:
        phone.close()

    # Stage 4: two matches called to their tables long ago. A race to 1 is one frame: slow
    # past 7 minutes, too slow past 10.
    fourth = cup.stages[3]
    pay_fees(cup, fourth, cashier, receipts)
    cup.start(fourth, ORDERS[3])
    slow, slow_winner = call(fourth, tables[1])
    slower, slower_winner = call(fourth, tables[2])
    now = timezone.now()
    Match.objects.filter(pk=slow.pk).update(started_at=now - dt.timedelta(minutes=8))
    Match.objects.filter(pk=slower.pk).update(started_at=now - dt.timedelta(minutes=12))
    desk, page = context_page(browser, SCREEN)
    try:
        login(page, live_server, "cup-desk")
        page.goto(f"{live_server.url}/tournaments/{fourth.pk}/manage/")
        playing = page.locator(f"[data-key='{slow.bracket_key}'] [data-clock-flag]")
        expect(playing).to_have_text("долго")
        expect(page.locator(f"[data-key='{slower.bracket_key}'] [data-clock-flag]")).to_have_text(
            "слишком долго"
        )
        playing.scroll_into_view_if_needed()
        screenshot(page, "desk-slow", full_page=False)
    finally:
        desk.close()
    play_match(slow, slow_winner)
    play_match(slower, slower_winner)
    play_out(fourth, tables[0])

    try:
        check_standings(board, live_server, cup, 4)
        finalists = board.locator(".series-table tr.finalist td:nth-child(2)")
        expect(finalists).to_have_count(8)
        assert sorted(text(name) for name in finalists.all_inner_texts()) == sorted(FINALISTS)

        # The final: the top 8, a stage that adds no points.
        final = Tournament.objects.create(
            name="Кубок Лузы, финал",
            date=dt.date(2026, 5, 10),
            format="single",
            variant="clockwise",
            race_upper=1,
            race_final=1,
        )
        for name in FINALISTS:
            services.add_entrant(tournament=final, player=players[NAMES.index(name)])
        Stage.objects.create(series=cup.series, tournament=final, number=5, is_final=True)
        services.start_tournament(
            tournament=final,
            method="manual",
            manual=[final.entrants.get(player__full_name=name).pk for name in FINALISTS],
        )
        final.refresh_from_db()
        play_out(final, tables[0])
        board.goto(f"{live_server.url}/series/{cup.series.pk}/")
        expect(board.locator(".series-table thead")).to_contain_text("Финал")
        first_line = board.locator(".series-table tbody tr[data-player]").first
        expect(first_line.locator("td").nth(2)).to_have_text("140")  # the final adds nothing
        # Its places are in its column (the better seed won each match: the final's seeds
        # in the table's order), the quarter-finalists sharing 5–8.
        places = {
            text(row.locator("td").nth(1).inner_text()): row.locator("[data-final-place]")
            for row in board.locator(".series-table tbody tr.finalist").all()
        }
        assert {name: cell.inner_text() for name, cell in places.items()} == dict(
            zip(FINALISTS, ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"], strict=True)
        )
        assert season_selectors.table_of(cup.series).champion.name.endswith(FINALISTS[0])
        screenshot(board, "standings-final")
    finally:
        public.close()

    report = billing_selectors.shift_report(billing_selectors.open_shift())
    # 10 000 ₽ opening + 7 200 × 3 + 6 900 ₽ of fees in cash − 5 040 ₽ of prizes.
    assert report.paid_out == 504_000
    assert report.expected_cash == 1_000_000 + 720_000 * 3 + 690_000 - 504_000
