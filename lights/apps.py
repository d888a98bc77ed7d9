from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LightsConfig(AppConfig):
    name = "lights"
    verbose_name = _("Table lights")
