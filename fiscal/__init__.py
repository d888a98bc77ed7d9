"""The club's cash register (54-FZ): every payment the desk takes, and every refund, becomes
a fiscal receipt made by the club's register through an outbox (``FiscalTask``), sent by
``manage.py fiscal_worker`` (and tried once right after the payment commits). Off unless an
admin chooses a register in *Fiscal settings*. See docs/fiscal.md.
"""
