from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "records"  # no models: views, templates and reads only
