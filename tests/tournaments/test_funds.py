"""A tournament's fees and prizes through the cash desk (issue 34, item 2): the fee a counter
bill paid like any bill, the ledger adding up to the kopeck, the prizes paid out of the
shift once and never more."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from billing import selectors as billing_selectors
from billing import services as billing_services
from billing.models import AuditAction, AuditEntry, Bill, LineKind, Payout
from me import selectors as me_selectors
from players.models import Player
from records import rating
from tests.factories import UserFactory
from toolbox.roles import CASHIERS
from tournaments import funds, prizes, selectors, services
from tournaments.models import Tournament, TournamentStatus

RUB = 100


class Ratings:
    def __init__(self, values):
        self.values = values

    def rating(self, player_id):
        return self.values.get(player_id, rating.INITIAL)


def evening_regulation():
    return prizes.Regulation(
        fee=1000 * RUB,
        bands=((1400, 700 * RUB),),
        split=prizes.Split(prizes.PERCENT, 7000, 2000),
        preset="evening",
        unit=100,
    ).to_json()


@pytest.fixture
def cashier(db):
    return UserFactory(username="cashier-user", groups=[CASHIERS])


@pytest.fixture
def evening(db, monkeypatch):
    """10 entrants at 1 000 ₽, three of them (rated 1300) in the band at 700 ₽."""
    tournament = Tournament.objects.create(
        name="Вечер",
        date="2026-12-07",
        variant="clockwise",
        format="single",
        regulation=evening_regulation(),
    )
    players = [Player.objects.create(full_name=f"Игрок {i:02d}") for i in range(1, 11)]
    for player in players:
        services.add_entrant(tournament=tournament, player=player)
    weak = {player.pk: 1300 for player in players[:3]}
    monkeypatch.setattr(rating, "ratings_for", lambda variant: Ratings(weak))
    return tournament


def pay_fees(tournament, cashier):
    for number, entrant in enumerate(tournament.entrants.order_by("pk"), start=1):
        bill = services.take_fee(entrant=entrant, user=cashier)
        summary = billing_selectors.bill_summary(bill)
        billing_services.record_payment(
            bill=bill,
            method="cash",
            amount=summary.balance,
            user=cashier,
            receipt_number=str(number),
        )


def finish(tournament):
    entrants = list(tournament.entrants.order_by("pk"))
    services.start_tournament(
        tournament=tournament, method="manual", manual=[e.pk for e in entrants]
    )
    while True:
        tournament.refresh_from_db()
        queue = selectors.tournament_view(tournament).queue
        if not queue:
            break
        services.record_walkover(tournament=tournament, key=queue[0].spec.key, winner="a")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_an_evening_by_hand(evening, cashier):
    billing_services.open_shift(user=cashier, opening_cash=5000 * RUB)
    pay_fees(evening, cashier)
    ledger = funds.ledger(evening)
    fees = sorted(row.fee for row in ledger.rows)
    assert fees == [700 * RUB] * 3 + [1000 * RUB] * 7
    # 3 × 700 + 7 × 1 000 = 9 100 ₽ in.
    assert ledger.fees_due == ledger.fees_paid == 9100 * RUB
    # Each 1 000 ₽: 700 prizes / 200 final / 100 costs; each 700 ₽: 490 / 140 / 70.
    assert ledger.fund.prize == (7 * 700 + 3 * 490) * RUB == 6370 * RUB
    assert ledger.fund.final == (7 * 200 + 3 * 140) * RUB == 1820 * RUB
    assert ledger.fund.costs == (7 * 100 + 3 * 70) * RUB == 910 * RUB
    assert funds.final_fund_share(evening) == 1820 * RUB
    # Before the end: the ≤ 12 table, 50 / 30 / 15 % of 6 370 ₽.
    assert ledger.table == [(1, 1, 3185 * RUB), (2, 2, 1911 * RUB), (3, 3, 955 * RUB)]

    finish(evening)
    ledger = funds.ledger(evening)
    due = {row.place: row.prize_due for row in ledger.rows if row.prize_due}
    # The semi-finalists share places 3–4: (15 % + 0 %) / 2 = 477.75 ₽, to whole roubles
    # 477 ₽ each; the winner 50 % = 3 185 ₽ plus the rest: 6 370 − 3 185 − 1 911 − 954.
    assert due == {(1, 1): 3505 * RUB, (2, 2): 1911 * RUB, (3, 4): 477 * RUB}
    assert sorted(row.prize_due for row in ledger.rows)[-4:] == [
        477 * RUB,
        477 * RUB,
        1911 * RUB,
        3505 * RUB,
    ]
    assert ledger.prizes_due == 6370 * RUB
    assert ledger.balanced
    assert ledger.fees_paid == ledger.prizes_due + ledger.fund.final + ledger.fund.costs

    winner = next(row for row in ledger.rows if row.place == (1, 1))
    payout = services.pay_prize(entrant=winner.entrant, user=cashier)
    assert payout.amount == 3505 * RUB
    with pytest.raises(ValidationError):  # the double tap
        services.pay_prize(entrant=winner.entrant, user=cashier)
    assert Payout.objects.count() == 1
    nobody = next(row for row in ledger.rows if row.prize_due == 0)
    with pytest.raises(ValidationError):
        services.pay_prize(entrant=nobody.entrant, user=cashier)

    report = billing_selectors.shift_report(billing_selectors.open_shift())
    assert report.paid_out == 3505 * RUB
    assert report.expected_cash == (5000 + 9100 - 3505) * RUB
    assert AuditEntry.objects.filter(action=AuditAction.PAYOUT).count() == 1
    assert AuditEntry.objects.filter(action=AuditAction.BILL_FEE).count() == 10
    assert AuditEntry.objects.filter(action=AuditAction.PAYMENT).count() == 10

    # A wrong payout is reversed (audited), then the prize can be paid again.
    services.reverse_prize(tournament=evening, payout=payout, user=cashier, reason="не тот")
    with pytest.raises(ValidationError):
        services.reverse_prize(tournament=evening, payout=payout, user=cashier, reason="ещё")
    report = billing_selectors.shift_report(billing_selectors.open_shift())
    assert report.paid_out == 0
    services.pay_prize(entrant=winner.entrant, user=cashier)
    assert funds.ledger(evening).prizes_paid == 3505 * RUB
    with pytest.raises(ValueError):
        payout.delete()


def test_fee_bill_once_and_like_any_bill(evening, cashier):
    billing_services.open_shift(user=cashier, opening_cash=0)
    entrant = evening.entrants.first()
    bill = services.take_fee(entrant=entrant, user=cashier)
    assert services.take_fee(entrant=entrant, user=cashier) == bill  # the double tap
    line = bill.lines.get()
    assert line.kind == LineKind.FEE and line.amount == 700 * RUB
    assert bill in billing_selectors.unpaid_bills()
    with pytest.raises(ValidationError):  # more than the fee
        billing_services.record_payment(
            bill=bill, method="cash", amount=701 * RUB, user=cashier, receipt_number="1"
        )
    billing_services.record_payment(
        bill=bill, method="card", amount=700 * RUB, user=cashier, receipt_number="1"
    )
    bill.refresh_from_db()
    assert bill.paid_at is not None
    assert funds.ledger(evening).fees_paid == 700 * RUB


def test_a_fee_billed_stays_as_billed_whatever_the_rating_since(evening, cashier, monkeypatch):
    """Rated 1300 he owes 700 ₽ and pays them; his games take him past 1400: his fee is
    still the 700 ₽ billed, nothing left to pay; the others' follow their ratings."""
    billing_services.open_shift(user=cashier, opening_cash=0)
    weak, other = evening.entrants.order_by("pk")[:2]
    bill = services.take_fee(entrant=weak, user=cashier)
    billing_services.record_payment(
        bill=bill, method="cash", amount=700 * RUB, user=cashier, receipt_number="1"
    )
    monkeypatch.setattr(rating, "ratings_for", lambda variant: Ratings({}))  # all at 1500
    rows = {row.entrant.pk: row for row in funds.ledger(evening).rows}
    assert (rows[weak.pk].fee, rows[weak.pk].fee_left) == (700 * RUB, 0)
    assert rows[other.pk].fee == 1000 * RUB
    assert funds.ledger(evening).fees_due == 700 * RUB + 9 * 1000 * RUB


def test_no_prize_before_the_end_nor_without_a_shift(evening, cashier):
    entrant = evening.entrants.first()
    with pytest.raises(ValidationError):
        services.pay_prize(entrant=entrant, user=cashier)
    with pytest.raises(ValidationError):  # no shift open: nothing paid at the counter
        bill = services.take_fee(entrant=entrant, user=cashier)
        billing_services.record_payment(
            bill=bill, method="cash", amount=700 * RUB, user=cashier, receipt_number="1"
        )


def test_no_fee_without_a_regulation(db, cashier):
    tournament = Tournament.objects.create(
        name="Без взноса", date="2026-12-07", variant="clockwise", format="single"
    )
    entrant = services.add_entrant(tournament=tournament, guest_name="Гость")
    with pytest.raises(ValidationError):
        services.take_fee(entrant=entrant or tournament.entrants.get(), user=cashier)
    assert funds.final_fund_share(tournament) == 0


# --- the pages ------------------------------------------------------------------------


def test_fees_page_takes_a_fee_and_pays_a_prize(client, evening, cashier, admin_user, plain_user):
    url = reverse("tournaments:fees", args=[evening.pk])
    assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(plain_user)
    assert client.get(url).status_code == 403
    client.force_login(admin_user)  # the tournament desk sees the ledger
    page = client.get(url)
    assert page.status_code == 200 and "data-ledger" in page.content.decode()
    manage = client.get(reverse("tournaments:manage", args=[evening.pk])).content.decode()
    assert url in manage

    client.force_login(cashier)
    page = client.get(url).content.decode()
    assert "data-take-fee" not in page  # no shift open: nothing taken
    billing_services.open_shift(user=cashier, opening_cash=0)
    entrant = evening.entrants.order_by("pk").first()
    answer = client.post(
        reverse("tournaments:take_fee", args=[evening.pk]), {"entrant": entrant.pk}
    )
    bill = Bill.objects.get(reference=funds.fee_reference(evening, entrant))
    assert answer.status_code == 302 and answer.url == reverse("billing:bill", args=[bill.pk])
    bill_page = client.get(answer.url)
    assert bill_page.status_code == 200
    assert "Вечер" in bill_page.content.decode()
    paid = client.post(
        reverse("billing:pay", args=[bill.pk]),
        {"method": "cash", "amount": "700", "receipt_number": "17"},
    )
    assert paid.status_code == 302
    assert funds.ledger(evening).fees_paid == 700 * RUB
    # A bad entrant is a translated 400, nothing changed.
    bad = client.post(reverse("tournaments:take_fee", args=[evening.pk]), {"entrant": "x"})
    assert bad.status_code == 400
    assert Bill.objects.count() == 1
    # The shift's report and its CSV of shifts.
    shift_page = client.get(reverse("billing:shift")).content.decode()
    assert "700" in shift_page


def test_prize_paid_once_from_the_page(client, evening, cashier):
    billing_services.open_shift(user=cashier, opening_cash=0)
    pay_fees(evening, cashier)
    finish(evening)
    client.force_login(cashier)
    winner = next(row for row in funds.ledger(evening).rows if row.place == (1, 1))
    url = reverse("tournaments:pay_prize", args=[evening.pk])
    assert client.post(url, {"entrant": winner.entrant.pk}).status_code == 302
    again = client.post(url, {"entrant": winner.entrant.pk})  # the double tap
    assert again.status_code == 400
    assert Payout.objects.count() == 1
    page = client.get(reverse("tournaments:fees", args=[evening.pk])).content.decode()
    assert "data-pay-prize" in page  # the others' prizes are still due
    reverse_url = reverse("tournaments:reverse_payout", args=[evening.pk])
    payout = Payout.objects.get()
    assert client.post(reverse_url, {"payout": payout.pk, "reason": ""}).status_code == 400
    assert client.post(reverse_url, {"payout": payout.pk, "reason": "ошибка"}).status_code == 302
    assert Payout.objects.count() == 2
    # The public page: the fund and the prizes by place, no names of the money.
    public = client.get(reverse("tournaments:detail", args=[evening.pk])).content.decode()
    assert "data-public-payouts" in public
    assert "3\xa0505" in public or "3 505" in public


def test_regulation_in_the_form(admin_client):
    data = {
        "name": "Кубок",
        "date": "2026-12-07",
        "variant": "clockwise",
        "format": "single",
        "groups": 1,
        "advance": 0,
        "race_upper": 3,
        "race_lower": 2,
        "race_final": 4,
        "race_group": 2,
        "break_rule": "alternate",
        "handicap": "none",
        "head_start": 1,
        "op": "save",
        "s_points_per_ball": "one",
        "s_foul_penalty": "fixed",
        "s_foul_penalty_points": 3,
        "reg_fee": "1 000",
        "reg_bands": "1400: 700",
        "reg_split": "percent",
        "reg_prize": "70",
        "reg_final": "20",
        "reg_preset": "",
        "reg_tables": "12: 1=50, 2=30, 3-4=10\n*: 1=100",
        "reg_per_win": "",
        "reg_unit": "100",
    }
    answer = admin_client.post(reverse("tournaments:new"), data)
    assert answer.status_code == 302, answer.context["form"].errors
    tournament = Tournament.objects.get()
    regulation = prizes.Regulation.from_json(tournament.regulation)
    assert regulation.fee == 100_000 and regulation.bands == ((1400, 70_000),)
    assert regulation.split == prizes.Split(prizes.PERCENT, 7000, 2000)
    assert regulation.table_for(10).rows[2] == prizes.Row(3, 4, 1000)
    edit = admin_client.get(reverse("tournaments:edit", args=[tournament.pk])).content.decode()
    assert "1400: 700" in edit
    for field, bad in (
        ("reg_prize", "90"),  # 90 + 20 > 100 %
        ("reg_bands", "много"),
        ("reg_tables", "12: 1=80, 2=30"),
        ("reg_fee", "-5"),
    ):
        answer = admin_client.post(reverse("tournaments:new"), data | {field: bad})
        assert answer.status_code == 400, field
    assert Tournament.objects.count() == 1


def test_an_unpaid_fee_on_the_player_s_phone(evening, cashier):
    entrant = evening.entrants.select_related("player").order_by("pk").first()
    services.take_fee(entrant=entrant, user=cashier)
    [entry] = me_selectors.open_bills(entrant.player)
    assert entry.table is None and entry.share == 700 * RUB
    assert "Вечер" in entry.bill.title
