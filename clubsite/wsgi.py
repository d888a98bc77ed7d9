import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
application = get_wsgi_application()

from clubsite.process import settle_garbage_collector  # noqa: E402 - after Django is set up

settle_garbage_collector()
