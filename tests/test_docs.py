"""The documentation holds together (issue 31 item 7): the README is a guide a newcomer reads
(at most 300 lines, the two commands, a link to every page of docs/), each page of docs/ is
linked from the README and from docs/architecture.md, every relative link of every page
leads to a file (and heading) that exists, and every setting ``clubsite/settings.py`` reads
from the environment is documented in exactly one row of a settings table — where every
variable documented is one the code reads."""

import ast
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = sorted([README, *DOCS.rglob("*.md")])
AUDIENCE_PAGES = sorted(page for page in DOCS.glob("*.md") if page.name != "architecture.md")

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def text_of(page):
    """The page without its code blocks and inline code (a ``[x](y)`` there is no link)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", page.read_text()))


def links(page):
    return [target for target in LINK.findall(text_of(page)) if "://" not in target]


def slug(heading):
    """The anchor a heading gets where the pages are read (GitHub's rule: lower case, spaces
    to hyphens, punctuation dropped, letters of any script kept)."""
    words = heading.strip().lower().replace(" ", "-")
    return "".join(c for c in words if c in "-_" or unicodedata.category(c)[0] in "LN")


def anchors(page):
    headings = re.findall(r"^#+\s+(.*)$", FENCE.sub("", page.read_text()), re.M)
    return {slug(heading) for heading in headings}


def resolve(page, target):
    path, _, anchor = target.partition("#")
    file = (page.parent / path).resolve() if path else page
    return file, anchor


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page):
    for target in links(page):
        file, anchor = resolve(page, target)
        assert file.exists(), f"{target}: no such file"
        assert ROOT in file.parents or file == ROOT, f"{target}: outside the repository"
        if anchor:
            assert file.suffix == ".md" and anchor in anchors(file), f"{target}: no such heading"


def linked_pages(page):
    found = set()
    for target in links(page):
        file, _ = resolve(page, target)
        found.add(file)
    return found


def test_the_readme_is_a_guide():
    text = README.read_text()
    assert len(text.splitlines()) <= 300
    assert "make run" in text and "make test" in text
    assert "`make test` is the test command" in text
    assert (ROOT / ".ci" / "run").read_text().count("make test") == 1  # what CI calls


def test_every_page_is_linked_from_the_readme_and_the_architecture():
    for source in (README, DOCS / "architecture.md"):
        missing = [str(page.relative_to(ROOT)) for page in AUDIENCE_PAGES]
        missing = [name for name in missing if ROOT / name not in linked_pages(source)]
        assert not missing, f"{source.name} links no {missing}"
    assert DOCS / "architecture.md" in linked_pages(README)
    assert DOCS / "rules" / "README.md" in linked_pages(README)


def environment_reads(path):
    """The environment variables a module reads: ``os.environ.get("X")``,
    ``os.environ["X"]``, ``os.getenv("X")`` and the settings' ``env_flag("X")``."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = ast.unparse(node.func)
            if function in {"os.environ.get", "os.getenv", "env_flag"}:
                names.append(node.args[0].value)
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            if isinstance(node.slice, ast.Constant):
                names.append(node.slice.value)
    return names


def documented_variables():
    """The first cell of each row of every table headed ``| variable |``: name -> pages."""
    rows = {}
    for page in PAGES:
        table = False
        for line in FENCE.sub("", page.read_text()).splitlines():
            if line.startswith("| variable |"):
                table = True
            elif not line.startswith("|"):
                table = False
            elif table and not line.startswith("| ---"):
                name = line.split("|")[1].strip().strip("`")
                rows.setdefault(name, []).append(str(page.relative_to(ROOT)))
    return rows


def test_every_setting_is_documented_once():
    settings = set(environment_reads(ROOT / "clubsite" / "settings.py"))
    assert {"DATABASE_URL", "SECRET_KEY", "DEBUG", "SECURE_COOKIES", "LOG_LEVEL"} <= settings
    documented = documented_variables()
    undocumented = sorted(settings - set(documented))
    assert not undocumented, f"read by clubsite/settings.py, in no settings table: {undocumented}"
    twice = {name: pages for name, pages in documented.items() if len(pages) > 1}
    assert not twice, f"documented in more than one row: {twice}"


def test_every_documented_variable_is_read_by_the_code():
    read = set()
    for module in ROOT.glob("[!.]*/**/*.py"):
        if module.parts[len(ROOT.parts)] not in {"tests", "bench"}:
            read.update(environment_reads(module))
    stale = sorted(set(documented_variables()) - read)
    assert not stale, f"documented, read by no module of the site: {stale}"


def test_the_checks_can_fail(tmp_path):
    """The readers above see what they are meant to: links (not those in code), headings'
    anchors, a new setting."""
    page = tmp_path / "page.md"
    page.write_text("[a](a.md#b) `[not](c.md)` ![img](d.png)\n```\n[nor](e.md)\n```\n")
    assert links(page) == ["a.md#b"]
    assert len(links(README)) > 20
    module = tmp_path / "settings.py"
    module.write_text('import os\nX = os.environ.get("NEW_ONE", "1")\nY = env_flag("FLAG")\n')
    assert environment_reads(module) == ["NEW_ONE", "FLAG"]
    assert slug("Boards (spectators)") == "boards-spectators"
    assert slug("The players' phones") == "the-players-phones"
