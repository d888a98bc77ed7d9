"""Money paid out of the drawer (a tournament's prize) and bills taken at the counter (its
entry fee): append-only payouts, reversed by a row of their own, counted at the shift's
close and in the shifts' CSV; a counter bill paid like any bill."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from billing import selectors, services
from billing.models import AuditAction, AuditEntry, Payout, SplitMode
from tests.billing.test_bills import at, csv_rows


def counter_bill(cashier, amount=500_00, reference="fee:1:1"):
    return services.open_counter_bill(
        reference=reference, title="Взнос", line="Взнос: Осень", amount=amount, user=cashier
    )


def test_a_payout_needs_a_shift_and_never_exceeds_what_is_due(cashier):
    with pytest.raises(ValidationError):
        services.pay_out(reference="prize:1:1", amount=100, due=100, description="x", user=cashier)
    shift = services.open_shift(user=cashier, opening_cash=1000_00, at=at(10))
    payout = services.pay_out(
        reference="prize:1:1", amount=300_00, due=500_00, description="1 место", user=cashier
    )
    with pytest.raises(ValidationError):  # 300 + 300 > 500
        services.pay_out(
            reference="prize:1:1", amount=300_00, due=500_00, description="1 место", user=cashier
        )
    for amount in (0, -5):
        with pytest.raises(ValidationError):
            services.pay_out(
                reference="prize:1:2", amount=amount, due=500_00, description="x", user=cashier
            )
    assert services.paid_out("prize:1:1") == 300_00
    with pytest.raises(ValueError):
        payout.save()
    with pytest.raises(ValueError):
        payout.delete()
    entry = AuditEntry.objects.get(action=AuditAction.PAYOUT)
    assert entry.shift == shift and "300,00" in entry.description.replace("\xa0", " ")


def test_a_reversal_once_with_its_reason_and_the_shift_counts_it(cashier, cashier_client):
    shift = services.open_shift(user=cashier, opening_cash=1000_00, at=at(10))
    payout = services.pay_out(
        reference="prize:1:1", amount=300_00, due=300_00, description="1 место", user=cashier
    )
    with pytest.raises(ValidationError):
        services.reverse_payout(payout=payout, user=cashier, reason=" ")
    reversal = services.reverse_payout(payout=payout, user=cashier, reason="не тому")
    assert reversal.amount == -300_00 and reversal.reverses == payout
    with pytest.raises(ValidationError):
        services.reverse_payout(payout=payout, user=cashier, reason="ещё раз")
    with pytest.raises(ValidationError):
        services.reverse_payout(payout=reversal, user=cashier, reason="обратно")
    assert services.paid_out("prize:1:1") == 0
    services.pay_out(
        reference="prize:1:1", amount=250_00, due=300_00, description="1 место", user=cashier
    )
    report = selectors.shift_report(shift)
    assert report.paid_out == 250_00
    assert report.expected_cash == 750_00
    page = cashier_client.get(reverse("billing:shift")).content.decode()
    assert "Выплачено наличными" in page or "Paid out in cash" in page
    services.close_shift(shift=shift, user=cashier, counted_cash=750_00, at=at(21))
    rows = csv_rows(cashier_client.get(reverse("billing:shifts_csv"), {"shift": shift.pk}))
    assert rows[1][-5:] == ["250.00", "1000.00", "750.00", "750.00", "0.00"]
    assert AuditEntry.objects.filter(action=AuditAction.PAYOUT_REVERSE).count() == 1
    assert Payout.objects.count() == 3


def test_a_counter_bill_once_per_reference_paid_like_any_bill(cashier, cashier_client):
    services.open_shift(user=cashier, opening_cash=0, at=at(10))
    bill = counter_bill(cashier)
    assert counter_bill(cashier) == bill  # the double tap: the same bill
    with pytest.raises(ValidationError):
        counter_bill(cashier, amount=0, reference="fee:1:2")
    with pytest.raises(ValidationError):  # no frames to split by
        services.set_split(bill=bill, mode=SplitMode.LOSER, user=cashier)
    assert [b.pk for b in selectors.open_bills()] == [bill.pk]
    desk = cashier_client.get(reverse("billing:desk")).content.decode()
    assert f"№{bill.pk}" in desk
    page = cashier_client.get(reverse("billing:bill", args=[bill.pk]))
    assert page.status_code == 200 and "Взнос: Осень" in page.content.decode()
    answer = cashier_client.post(
        reverse("billing:pay", args=[bill.pk]),
        {"method": "cash", "amount": "500", "receipt_number": "7"},
    )
    assert answer.status_code == 302
    bill.refresh_from_db()
    assert bill.paid_at is not None
    assert selectors.shift_report(selectors.open_shift()).expected_cash == 500_00
    rows = csv_rows(cashier_client.get(reverse("billing:payments_csv")))
    assert rows[-1][3] == ""  # no table


def test_the_period_report_counts_the_fees_paid_and_the_prizes_paid_out(cashier, cashier_client):
    shift = services.open_shift(user=cashier, opening_cash=0, at=at(10))
    bill = counter_bill(cashier)
    cashier_client.post(
        reverse("billing:pay", args=[bill.pk]),
        {"method": "cash", "amount": "500", "receipt_number": "7"},
    )
    services.pay_out(
        reference="prize:1:1", amount=350_00, due=350_00, description="1 место", user=cashier
    )
    report = selectors.shift_period_report(shift)
    assert (report.fee_revenue, report.prizes_paid) == (500_00, 350_00)
    assert report.revenue == 500_00  # no table time, no bar
    page = cashier_client.get(reverse("billing:reports"), {"shift": shift.pk}).content.decode()
    assert "data-fee-revenue" in page and "data-prizes-paid" in page
    rows = csv_rows(cashier_client.get(reverse("billing:revenue_csv"), {"shift": shift.pk}))
    assert [row[-1] for row in rows[-2:]] == ["500.00", "-350.00"]
