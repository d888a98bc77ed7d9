from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FiscalConfig(AppConfig):
    name = "fiscal"
    verbose_name = _("Cash register")

    def ready(self):
        from billing import services as billing_services
        from fiscal.maker import MAKER

        # Billing's payment, bill and shift services call the maker inside their own
        # transactions: a receipt task is written with the payment or not at all.
        billing_services.register_receipt_maker(MAKER)
