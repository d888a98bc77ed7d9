"""Model fields the apps declare alike."""

from django.conf import settings
from django.db import models

from toolbox.forms import RoublesField


def done_by(verbose_name, *, related_name="+"):
    """The user who did something to a row (started it, recorded it): optional, and left
    empty rather than blocking when that user is deleted."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name=related_name,
        verbose_name=verbose_name,
    )


class _Roubles:
    """Kopecks typed and shown in roubles: the form field of every money model field."""

    def formfield(self, **kwargs):
        kwargs.pop("widget", None)  # the admin's number box refuses «3 000,50»
        kwargs["form_class"] = RoublesField
        kwargs.setdefault("max_kopecks", 100_000_000)
        # Field's own defaults (label, required, help text, initial), not IntegerField's
        # min_value and max_value (RoublesField has its limits in kopecks).
        return models.Field.formfield(self, **kwargs)


class MoneyField(_Roubles, models.PositiveIntegerField):
    """An amount of money, never negative: stored as integer kopecks, typed and shown in
    roubles with kopecks («3 000,50», «3000.50»; «1e3» refused) by
    ``toolbox.forms.RoublesField`` in every form made from the model: the pages' model forms
    and the Django admin alike. Name it in roubles (``_("price, ₽")``)."""


class SignedMoneyField(_Roubles, models.IntegerField):
    """An amount of money that may be negative (a refund is money given back), stored and
    typed as ``MoneyField``."""
