"""The receipt maker billing's services call (``billing.services.receipts``): on while the
club has chosen its register (``FiscalSettings``)."""

from fiscal import services


class ReceiptMaker:
    def enabled(self):
        return services.enabled()

    def payment_recorded(self, payment, buyer=""):
        services.receipt_for_payment(payment, buyer=buyer)

    def bill_settled(self, bill):
        services.receipt_for_settlement(bill)

    def shift_opened(self, shift, user):
        services.shift_opened(shift, user)

    def shift_closing(self, shift, user, reason=""):
        services.shift_closing(shift, user, reason=reason)


MAKER = ReceiptMaker()
