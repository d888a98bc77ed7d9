from django.apps import AppConfig


class BroadcastConfig(AppConfig):
    name = "broadcast"  # no models: reads, views and templates only
