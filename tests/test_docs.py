"""The repository's documents stay complete: every rule id cited resolves in docs/behaviour.md,
nothing cites a document the repository does not contain, the CLI page lists every option, and
the API page documents every public name."""

from __future__ import annotations

import importlib
import importlib.util
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Optional

import pytest

import thinkparse

ROOT = Path(__file__).resolve().parent.parent
BEHAVIOUR = ROOT / "docs" / "behaviour.md"
API = ROOT / "docs" / "api.md"
#: The public modules besides the package face; each declares its public names in ``__all__``.
ADAPTERS = ("arrow", "polars", "duckdb", "hf", "spark", "ray", "openai")
SOURCES = [
    p
    for folder in ("thinkparse", "tests", "benchmarks", "fuzz", "src_ext")
    for p in sorted((ROOT / folder).rglob("*"))
    if p.suffix in (".py", ".pyx", ".h", ".md") and "__pycache__" not in p.parts
] + [ROOT / "README.md", ROOT / "setup.py"]

#: Every rule family and its ids, as the behaviour document numbers them.
RULES = {"A": 4, "R": 8, "T": 10, "S": 7, "P": 18, "X": 5, "B": 2, "D": 5, "H": 3, "C": 6, "W": 5,
         "M": 1, "F": 8}


def _anchors() -> set[str]:
    text = BEHAVIOUR.read_text(encoding="utf-8")
    return set(re.findall(r'<a id="([a-z0-9-]+)"></a>', text))


def test_every_rule_has_an_anchor() -> None:
    anchors = _anchors()
    missing = [f"{k}{i}" for k, n in RULES.items() for i in range(1, n + 1)
               if f"{k.lower()}{i}" not in anchors]
    assert missing == []
    assert {"presets", "cli", "performance", "build"} <= anchors


def test_links_to_the_behaviour_document_resolve() -> None:
    anchors = _anchors()
    bad = []
    for path in SOURCES + sorted((ROOT / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"behaviour\.md#([A-Za-z0-9-]+)", text):
            if m.group(1) not in anchors:
                bad.append(f"{path.relative_to(ROOT)}: #{m.group(1)}")
    assert bad == []


def test_rule_ids_cited_in_tests_exist() -> None:
    # "# T5", "(X2)", "R7, R8": ids of the families above; numbers past a family's last id fail.
    bad = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            comment = line.split("#", 1)[1] if "#" in line else ""
            for fam, num in re.findall(r"\b([ARTSPXBDHCWF])(\d{1,2})\b", comment):
                if int(num) == 0 or int(num) > RULES[fam]:
                    bad.append(f"{path.name}: {fam}{num}")
    assert bad == []


def test_nothing_cites_a_document_outside_the_repository() -> None:
    found = []
    for path in SOURCES + sorted((ROOT / "docs").glob("*.md")):
        if path == Path(__file__):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bSPEC\b|[Ss]pecification|\bseed 00\d", line):
                found.append(f"{path.relative_to(ROOT)}:{i}")
    assert found == []


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def _fence_errors(text: str) -> list[str]:
    """Code fences that do not pair up, with their line numbers.

    A fence opens with three or more backticks (or tildes) and an optional info string, and is
    closed by a bare fence of the same character at least as long.  A fence line with an info
    string inside an open block means the block above was never closed (the text between renders
    as code), and so does a block still open at the end.  Longer fences may hold shorter ones.
    """
    errors = []
    opened: tuple[int, str] | None = None  # (line, fence)
    for i, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if m is None:
            continue
        fence, info = m.group(1), m.group(2).strip()
        if opened is None:
            opened = (i, fence)
        elif fence[0] == opened[1][0] and len(fence) >= len(opened[1]):
            if info:
                errors.append(f"line {i}: a fence opens inside the block opened at line "
                              f"{opened[0]} (not closed)")
                opened = (i, fence)
            else:
                opened = None
    if opened is not None:
        errors.append(f"line {opened[0]}: the block opened here is never closed")
    return errors


def test_code_fences_are_closed() -> None:
    # every code block of the README and the docs pages is closed before the text after it
    bad = [f"{path.relative_to(ROOT)}: {error}"
           for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
           for error in _fence_errors(path.read_text(encoding="utf-8"))]
    assert bad == []


def test_the_fence_check_sees_an_unclosed_block() -> None:
    # the guard itself: a block left open before the next one, or at the end
    assert _fence_errors("```py\nx = 1\n\nText.\n```sh\nls\n```\n") == [
        "line 5: a fence opens inside the block opened at line 1 (not closed)"]
    assert _fence_errors("````md\n```py\nx\n```\n````\n```\nopen\n") == [
        "line 6: the block opened here is never closed"]
    assert _fence_errors("~~~\n```\n~~~\n") == []


def test_cli_page_lists_every_option() -> None:
    out = subprocess.run([sys.executable, "-m", "thinkparse", "--help"], capture_output=True,
                         text=True, check=True).stdout
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", out)) - {"--help"}
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert sorted(o for o in options if o not in page) == []


# --- the API page --------------------------------------------------------------------------------
def _api_entries() -> list[str]:
    """The mkdocstrings entries of docs/api.md (``::: thinkparse.parse``), in order."""
    return re.findall(r"^::: ([\w.]+)[ \t]*$", API.read_text(encoding="utf-8"), re.M)


def _resolve(path: str) -> Any:
    """The object an entry names: the longest importable module, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(path)


def _expected_entries() -> dict[str, list[str]]:
    """Each public name, and the entries of docs/api.md that would document it.

    A name of the package face is documented by ``::: thinkparse.NAME`` or by an entry for the
    same name in a private module (``::: thinkparse._scanner_py.ThinkScanner``); a name of an
    adapter module by ``::: thinkparse.MODULE.NAME`` or by the module's own entry, which renders
    every name of its ``__all__``.
    """
    entries = _api_entries()
    expected: dict[str, list[str]] = {}
    for name in thinkparse.__all__:
        expected[f"thinkparse.{name}"] = [
            e for e in entries
            if e.split(".")[0] == "thinkparse" and e.split(".")[-1] == name
            and all(p.startswith("_") for p in e.split(".")[1:-1])
        ]
    for adapter in ADAPTERS:
        module = importlib.import_module(f"thinkparse.{adapter}")
        names = getattr(module, "__all__", None)
        assert names is not None, f"thinkparse.{adapter} does not declare __all__"
        for name in names:
            path = f"thinkparse.{adapter}.{name}"
            expected[path] = [e for e in entries if e in (path, f"thinkparse.{adapter}")]
    return expected


def test_api_page_documents_every_public_name() -> None:
    # Every name of thinkparse.__all__ and of the adapter modules' __all__ has an entry in
    # docs/api.md, and every entry names an object that exists.
    expected = _expected_entries()
    assert sorted(name for name, found in expected.items() if not found) == []
    for entry in _api_entries():
        _resolve(entry)


def test_the_api_page_check_sees_a_missing_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # the guard itself: a public name without an entry is reported
    monkeypatch.setattr(thinkparse, "__all__", [*thinkparse.__all__, "an_undocumented_name"])
    expected = _expected_entries()
    assert [n for n, found in expected.items() if not found] == [
        "thinkparse.an_undocumented_name"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documentation site, built strictly (a warning fails the build) in a temporary folder."""
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed")
    pytest.importorskip("material", reason="the docs extra is not installed (mkdocs-material)")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(out)],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_api_page_renders_every_public_name(site: Path) -> None:
    # The built page has an anchor for every public name: a member of a module entry shows only
    # with a docstring, and a wrong entry fails the build.
    page = (site / "api" / "index.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="(thinkparse\.[\w.]+)"', page))
    missing = []
    for name, found in _expected_entries().items():
        adapter_member = name.count(".") == 2 and not name.split(".")[1].startswith("_")
        shown = [name] if adapter_member else found
        if not any(a in anchors for a in shown):
            missing.append(name)
    assert missing == []


class _Text(HTMLParser):
    """The text of an HTML fragment, split into what ``<pre>`` blocks hold and the rest."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.pre: list[str] = []
        self.rest: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        if tag == "pre":
            self.depth += 1
            self.pre.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.pre[-1] += data
        else:
            self.rest.append(data)


def _section(page: str, name: str, following: str) -> str:
    """The HTML of one entry of the API page, up to the next entry's anchor."""
    start = page.index(f'id="{name}"')
    return page[start:page.index(f'id="{following}"', start)]


def test_api_page_reads_as_documentation(site: Path) -> None:
    # What a reader of the API page sees: docstrings written for help() and Sphinx rendered as
    # documentation, not as their source.
    page = (site / "api" / "index.html").read_text(encoding="utf-8")
    # no raw Sphinx roles, no internal sentinel names where a default's value belongs
    assert re.findall(r":(?:func|meth|class|data|attr|mod|exc|obj):(?:`|<code>)", page) == []
    assert sorted(set(re.findall(r"DEFAULT_[A-Z_]+_OPT", page))) == []
    # docstring examples are code blocks, one line per prompt and result, nothing in prose
    parse = _section(page, "thinkparse.parse", "thinkparse.split_think")
    text = _Text()
    text.feed(parse)
    examples = [block for block in text.pre if ">>> " in block]
    assert len(examples) == 1, text.pre
    assert (">>> parse(\"<REASONING>ask <REDACTED>Ann, 555-0100</REDACTED></REASONING>Done.\")\n"
            "Parsed(visible='Done.', reasoning='ask [REDACTED]', tokens_est=4, redactions=1)\n"
            in examples[0])
    assert ">>>" not in "".join(text.rest)
    # rule citations are links to the rule; Sphinx roles are links to the entry they name
    assert "behaviour.md#" not in "".join(text.rest)
    assert re.search(r'<a [^>]*href="\.\./behaviour/#r8"[^>]*>R8</a>', parse)
    assert re.search(r'<a [^>]*href="\.\./behaviour/#r2"[^>]*>R2</a>', parse)
    assert re.search(r'<a [^>]*href="#thinkparse\.Parsed"[^>]*><code>Parsed</code></a>', parse)
    # defaults read as their values
    split = _section(page, "thinkparse.split_think", "thinkparse.strip_think")
    text = _Text()
    text.feed(split)
    signature = next(block for block in text.pre if block.startswith("split_think("))
    for option, default in [("tags", "None"), ("delimiters", "()"), ("start_in_reasoning", "False"),
                            ("code_aware", "True"), ("max_tentative", "8192"),
                            ("terminators", "()"), ("answer", "()")]:
        assert re.search(rf"\b{option}: .* = {re.escape(default)},\n", signature), option
    # a long signature is one parameter per line, short enough for the page's column
    assert max(len(line) for line in signature.splitlines()) <= 80, signature


def test_presets_page_is_generated() -> None:
    # F1: docs/presets.md is exactly what docs/gen_presets.py writes from the preset table and
    # tests/scan/peer_vectors.json
    spec = importlib.util.spec_from_file_location("gen_presets", ROOT / "docs" / "gen_presets.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    page = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
    assert page == gen.page()
