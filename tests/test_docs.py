"""The repository's documents stay complete: every rule id cited resolves in docs/behaviour.md,
nothing cites a document the repository does not contain, and the CLI page lists every option."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEHAVIOUR = ROOT / "docs" / "behaviour.md"
SOURCES = [
    p
    for folder in ("thinkparse", "tests", "benchmarks", "fuzz", "src_ext")
    for p in sorted((ROOT / folder).rglob("*"))
    if p.suffix in (".py", ".pyx", ".h", ".md") and "__pycache__" not in p.parts
] + [ROOT / "README.md", ROOT / "setup.py"]

#: Every rule family and its ids, as the behaviour document numbers them.
RULES = {"A": 4, "R": 8, "T": 10, "S": 7, "P": 13, "X": 5, "B": 2, "D": 5, "H": 3, "C": 6, "W": 4,
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
    for path in sorted((ROOT / "tests").glob("test_*.py")):
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


def test_presets_page_is_generated() -> None:
    # F1: docs/presets.md is exactly what docs/gen_presets.py writes from the preset table and
    # tests/data/peer_vectors.json
    spec = importlib.util.spec_from_file_location("gen_presets", ROOT / "docs" / "gen_presets.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    page = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
    assert page == gen.page()
