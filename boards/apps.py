from django.apps import AppConfig


class BoardsConfig(AppConfig):
    name = "boards"  # no models: views, templates and reads only
