from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BillingConfig(AppConfig):
    name = "billing"
    verbose_name = _("Billing")

    def ready(self):
        from billing import selectors
        from tables import holds

        # A table whose clock runs, or whose bill is unpaid, stays on the desk: the tables
        # app (its pages and the Django admin) asks these before taking a table out of use.
        holds.register(
            holds.Hold(
                held=selectors.tables_with_running_clock,
                message=_("Table %(number)d's clock is running: stop it first."),
            )
        )
        holds.register(
            holds.Hold(
                held=selectors.tables_with_unpaid_bill,
                message=_("Table %(number)d has an unpaid bill: close it first."),
            )
        )
