"""The layers are a test: ``lint-imports`` checks the contracts of ``.importlinter`` (``make
test`` runs it), these tests check that ``docs/architecture.md`` states the same contracts,
and that the apps import each other without a cycle, counting every import."""

import configparser
import re
import subprocess
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".importlinter"
DOC = ROOT / "docs" / "architecture.md"


def contracts():
    parser = configparser.ConfigParser()
    parser.read(CONFIG, encoding="utf-8")
    return {
        section.split(":", 2)[2]: {key: _lines(value) for key, value in parser[section].items()}
        | {"name": parser[section]["name"]}
        for section in parser.sections()
        if section.startswith("importlinter:contract:")
    }, _lines(parser["importlinter"]["root_packages"])


def _lines(value):
    return [line.strip() for line in value.splitlines() if line.strip()]


def doc_table(heading):
    """The rows (lists of cells) of the first Markdown table after ``heading``."""
    text = DOC.read_text(encoding="utf-8").split(heading, 1)[1]
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|"))]
            if not set("".join(cells)) <= set("- "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # the header row aside


def names(cell):
    """The `code` names of a cell, in order."""
    return re.findall(r"`([^`]+)`", cell)


def test_the_layers_table_is_the_layers_contract():
    found, _roots = contracts()
    layers = [" | ".join(names(row[1])) for row in doc_table("### The layers")]
    assert layers == found["layers"]["layers"]


def test_the_rules_table_is_the_other_contracts():
    found, _roots = contracts()
    rows = doc_table("### Beside the layers")
    assert {row[0] for row in rows} == {c["name"] for k, c in found.items() if k != "layers"}
    for title, modules, rule in rows:
        contract = next(c for c in found.values() if c["name"] == title)
        if contract["type"] == ["protected"]:
            assert names(modules) == contract["protected_modules"], title
            assert names(rule) == contract["allowed_importers"], title
            continue
        assert names(modules) == contract["source_modules"], title
        forbidden, _sep, excepted = rule.partition(" except ")
        assert names(forbidden) == contract["forbidden_modules"], title
        assert names(excepted) == contract.get("ignore_imports", []), title


def app_graph():
    """{app: the apps it imports}, every import counted (inside functions too)."""
    _found, roots = contracts()
    graph = grimp.build_graph(*roots, cache_dir=None)
    edges = {app: set() for app in roots}
    for importer in roots:
        for imported in roots:
            if importer != imported and graph.find_matching_direct_imports(
                import_expression=f"{importer}.** -> {imported}.**"
            ):
                edges[importer].add(imported)
    return edges


def test_the_apps_import_each_other_without_a_cycle():
    edges = app_graph()
    print("\n".join(f"{app} -> {', '.join(sorted(to)) or '—'}" for app, to in edges.items()))
    done, path = set(), []

    def visit(app):
        if app in path:
            cycle = [*path[path.index(app) :], app]
            pytest.fail("an import cycle: " + " -> ".join(cycle))
        if app in done:
            return
        path.append(app)
        for other in sorted(edges[app]):
            visit(other)
        path.pop()
        done.add(app)

    for app in edges:
        visit(app)


def test_the_cycle_check_can_fail(monkeypatch):
    """The check above is not vacuous: a graph with a cycle fails it."""
    cyclic = {"games": {"tables"}, "tables": {"games"}}
    monkeypatch.setattr(f"{__name__}.app_graph", lambda: cyclic)
    with pytest.raises(pytest.fail.Exception, match="games -> tables -> games"):
        test_the_apps_import_each_other_without_a_cycle()


def test_the_repository_explains_itself_without_a_virtualenv():
    """Nothing of a developer's machine is tracked: a committed ``.venv`` link (pointing
    outside the repository) breaks ``make`` on every fresh clone."""
    tracked = subprocess.run(
        ["git", "ls-files", ".venv", "venv", "*.mo", "db.sqlite3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert tracked == []
