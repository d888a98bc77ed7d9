"""The examples in the rules engine's docstrings run (``replay()`` with an undo, …)."""

import doctest
import importlib
import pkgutil

import games.rules


def test_the_rules_engine_examples_run():
    attempted = 0
    for module in [games.rules] + [
        importlib.import_module(f"games.rules.{info.name}")
        for info in pkgutil.iter_modules(games.rules.__path__)
    ]:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, module.__name__
        attempted += result.attempted
    assert attempted >= 3  # at least the package's replay-with-undo example
