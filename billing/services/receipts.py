"""The club's cash register, as billing sees it: one receipt maker (the ``fiscal`` app
registers itself, ``register_receipt_maker``), called by the payment, bill and shift services
inside their own transactions. Without one, or while it is off, the cashier types each sum
into the register and records its receipt number here (``payments``).

A maker has these methods (each may raise ``ValidationError`` to refuse the write):

    enabled() -> bool                         the site makes the receipts
    payment_recorded(payment, buyer="")       a payment, prepayment or refund was recorded
    bill_settled(bill)                        a bill was marked paid (prepaid time settled)
    shift_opened(shift, user)                 the desk's shift opened
    shift_closing(shift, user, reason="")     the desk's shift closes now (may refuse)
"""

_MAKERS = []


def register_receipt_maker(maker):
    if maker not in _MAKERS:
        _MAKERS.append(maker)


def receipt_maker():
    """The registered maker that is on, or None: receipt numbers are then typed."""
    for maker in _MAKERS:
        if maker.enabled():
            return maker
    return None


def site_makes_receipts():
    return receipt_maker() is not None


def payment_recorded(payment, buyer=""):
    maker = receipt_maker()
    if maker is not None:
        maker.payment_recorded(payment, buyer=buyer)


def bill_settled(bill):
    maker = receipt_maker()
    if maker is not None:
        maker.bill_settled(bill)


def shift_opened(shift, user):
    maker = receipt_maker()
    if maker is not None:
        maker.shift_opened(shift, user)


def shift_closing(shift, user, reason=""):
    maker = receipt_maker()
    if maker is not None:
        maker.shift_closing(shift, user, reason=reason)
