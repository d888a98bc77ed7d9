"""The clubs of the site: a club is a thing of its own (issue 32).

Each request belongs to one club, decided in one place: ``clubs.middleware.ClubMiddleware``
reads it by the request's host name (a site with one club answers any host) and keeps it in
a context variable (``clubs.current``) with the club's time zone active. The apps above read
the club from there; this app imports nothing of the project but the toolbox.
"""
