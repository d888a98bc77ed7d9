"""The backups' format: Django's JSON serialization, with times to the microsecond.

Django's JSON encoder cuts times to the millisecond (ECMA-262 style); a backup keeps them
exactly, so that a restored club is the club that was backed up. The files are plain Django
JSON otherwise, loaded by ``loaddata``'s standard JSON deserializer (it reads microseconds).
Registered as the serialization format ``club-json`` (``SERIALIZATION_MODULES``).
"""

import datetime

from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder


class ExactJSONEncoder(DjangoJSONEncoder):
    def default(self, o):
        if isinstance(o, datetime.datetime):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        if isinstance(o, datetime.time) and o.utcoffset() is None:
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    def _init_options(self):
        super()._init_options()
        self.json_kwargs["cls"] = ExactJSONEncoder


Deserializer = django_json.Deserializer
