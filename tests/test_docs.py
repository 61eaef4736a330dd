"""The repository's documents stay complete: every rule id cited resolves in docs/behaviour.md,
nothing cites a document the repository does not contain, the CLI page lists every option, and
the API page documents every public name."""

from __future__ import annotations

import importlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

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
RULES = {"A": 4, "R": 8, "T": 10, "S": 7, "P": 14, "X": 5, "B": 2, "D": 5, "H": 3, "C": 6, "W": 5,
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


def test_api_page_renders_every_public_name(tmp_path: Path) -> None:
    # The built page has an anchor for every public name: a member of a module entry shows only
    # with a docstring, and a wrong entry fails the build.
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(tmp_path)],
        check=True, capture_output=True, timeout=600,
    )
    page = (tmp_path / "api" / "index.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="(thinkparse\.[\w.]+)"', page))
    missing = []
    for name, found in _expected_entries().items():
        adapter_member = name.count(".") == 2 and not name.split(".")[1].startswith("_")
        shown = [name] if adapter_member else found
        if not any(a in anchors for a in shown):
            missing.append(name)
    assert missing == []

def test_presets_page_is_generated() -> None:
    # F1: docs/presets.md is exactly what docs/gen_presets.py writes from the preset table and
    # tests/scan/peer_vectors.json
    spec = importlib.util.spec_from_file_location("gen_presets", ROOT / "docs" / "gen_presets.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    page = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
    assert page == gen.page()
