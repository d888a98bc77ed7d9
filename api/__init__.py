"""The read-only public JSON API, version 1 (``/api/v1/``, django-ninja): tables and their
live games, games with their events and the state after each, players' public records and
ratings, tournaments with their matches and standings — of the club at the address asked,
each naming it —, the network's clubs with their counts of tables and live games; a table's
live feed as Server-Sent Events in JSON. Its OpenAPI schema is served
(``/api/v1/openapi.json``) and browsable (``/api/v1/docs``).

Only what the site's public pages show: the schemas (``api.schemas``) are the allow-list —
no phone, e-mail, note, bill, staff member or user is reachable (a test walks the schema).
GET only, CORS open to any site (no cookies), a rate limit per client address kept in the
site's cache (a Redis that is down lets every request through, never fails one).
"""
