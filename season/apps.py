import importlib

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonConfig(AppConfig):
    name = "season"
    verbose_name = _("Series and cups")

    def ready(self):
        from season import selectors

        # The federation's protocol of a tournament (``tournaments.protocol``, written on
        # another branch) lists the class norms each place meets; the series say which
        # apply. Registered only where that module offers ``register_norms_provider``: the
        # two branches are merged later, and until then the protocol may not be there.
        try:
            protocol = importlib.import_module("tournaments.protocol")
        except ModuleNotFoundError:
            return
        register = getattr(protocol, "register_norms_provider", None)
        if register is not None:
            register(selectors.norms_for_tournament)
