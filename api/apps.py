from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"  # no models: schemas, reads and the routes of /api/v1/
