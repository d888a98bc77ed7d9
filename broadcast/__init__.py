"""What leaves the hall: a stream's overlay (OBS "Browser source") of a table or of a
tournament's featured match, the embeds other sites frame (a table's live score, a
tournament's bracket, the leaderboards), and the live scoreboard of a table as plain data
(``scoreboard``), which the overlays, the embeds and the API (``api/``) all show.

Only the overlay and embed pages may be framed by other sites (their views replace the CSP's
``frame-ancestors``); every other page of the site keeps refusing to be framed. Their pushed
streams are the boards' (``live``): the same topics, the same per-fingerprint render cache.
"""
