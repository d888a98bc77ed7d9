"""The series hand their class norms to the tournament's protocol, where it asks for them
(``tournaments.protocol.register_norms_provider``, another branch's: merged later)."""

import sys
import types

from django.apps import apps

from season import selectors


def test_the_norms_are_registered_with_a_protocol_that_asks_for_them(monkeypatch):
    registered = []
    protocol = types.ModuleType("tournaments.protocol")
    protocol.register_norms_provider = registered.append
    monkeypatch.setitem(sys.modules, "tournaments.protocol", protocol)
    apps.get_app_config("season").ready()
    assert registered == [selectors.norms_for_tournament]


def test_a_protocol_without_the_hook_is_left_alone(monkeypatch):
    monkeypatch.setitem(sys.modules, "tournaments.protocol", types.ModuleType("protocol"))
    apps.get_app_config("season").ready()  # nothing to register, no error
