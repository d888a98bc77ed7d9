"""The rules of the four traditional games: a pure, event-sourced engine.

Plain Python: no Django import, no I/O. Views and models call it; it never calls them.
See ``base.py`` for the contract every game module fulfils, and ``../shared/RULES.md``
(the specification) for the rules themselves.
"""
