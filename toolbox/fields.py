"""Model fields the apps declare alike."""

from django.conf import settings
from django.db import models


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
