"""The package's layout: which part may import which, and no import cycles.

Every import of every module of ``thinkparse/`` is read with ``ast`` -- at module level, inside
functions and under ``if TYPE_CHECKING:`` -- relative imports resolved, plus the compiled
scanner's imports (``src_ext/_scanner_c.pyx``) and the package face's names loaded on first
use (``thinkparse._LAZY``).  The parts, lowest first:

* core: ``_errors _env _types _spec _config _presets _models`` and the scanner kernel
  (``_scanner_py``, ``_scanner_c``) -- imports nothing but core;
* ``scan`` (text markup) -- core only;
* ``providers`` -- scan and core;
* the systems ``replay``, ``store``, ``render``, ``data``, ``clients`` -- providers, scan and
  core; never each other, never the package face;
* the package face (``thinkparse/__init__``) and the public adapters (``arrow``, ``polars``,
  ``duckdb``, ``hf``, ``spark``, ``ray``, ``openai``, ``langchain``, ``litellm``) -- anything
  below them;
* ``cli`` -- the package face and the public adapters only, no private module of the package;
  within it the plumbing (``cli/_*.py``) never imports the commands (``cli/commands/``);
* ``frameworks`` (what the framework adapters ``langchain`` and ``litellm`` share) -- the
  package face only.

And the module graph, every edge counted (type-only ones included), has no cycle.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Optional

import thinkparse

PACKAGE = Path(thinkparse.__file__).resolve().parent
ROOT = PACKAGE.parent
PYX = ROOT / "src_ext" / "_scanner_c.pyx"

CORE = frozenset(
    f"thinkparse.{m}"
    for m in ("_errors", "_env", "_types", "_spec", "_config", "_presets", "_models", "_scanner_py",
              "_scanner_c")
)
SYSTEMS = ("replay", "store", "render", "data", "clients")
ADAPTERS = frozenset(
    f"thinkparse.{m}"
    for m in ("arrow", "polars", "duckdb", "hf", "spark", "ray", "openai", "langchain", "litellm")
)
FACE = "thinkparse"

#: What each part may import (besides itself).
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "scan": frozenset({"core"}),
    "providers": frozenset({"scan", "core"}),
    **{s: frozenset({"providers", "scan", "core"}) for s in SYSTEMS},
    "face": frozenset({"providers", "scan", "core", *SYSTEMS}),
    "adapters": frozenset({"face", "providers", "scan", "core", "frameworks", *SYSTEMS}),
    "main": frozenset({"cli"}),
    "cli": frozenset({"face", "adapters"}),
    "frameworks": frozenset({"face"}),
}


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: dotted name -> (file, is a package)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts.pop()
        found[".".join(parts)] = (path, is_pkg)
    return found


MODULES = _modules()
KNOWN = set(MODULES) | {"thinkparse._scanner_c"}


def part(module: str) -> str:
    """The part of the layout a module belongs to."""
    if module in CORE:
        return "core"
    if module == FACE:
        return "face"
    if module == "thinkparse.__main__":
        return "main"
    if module in ADAPTERS:
        return "adapters"
    first = module.split(".")[1]
    if first in ("scan", "providers", "cli", "frameworks", *SYSTEMS):
        return first
    raise AssertionError(f"{module} belongs to no part of the layout (see tests/test_layout.py)")


def _target(name: str, where: str) -> str:
    """The module an imported dotted name refers to (a module, or a name in one)."""
    if name in KNOWN:
        return name
    owner = name.rpartition(".")[0]
    if owner in KNOWN:
        return owner
    raise AssertionError(f"{where}: imports {name}, which is no module of the package")


def _imports(module: str, path: Path, is_pkg: bool) -> Iterator[tuple[str, int]]:
    """``(imported module, line)`` for every import of the package in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if is_pkg else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "thinkparse":
                    yield _target(alias.name, f"{path}:{node.lineno}"), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            if prefix.split(".")[0] != "thinkparse":
                continue
            for alias in node.names:
                sub = f"{prefix}.{alias.name}"
                name = sub if sub in KNOWN else prefix
                yield _target(name, f"{path}:{node.lineno}"), node.lineno


def _pyx_imports() -> Iterator[tuple[str, int]]:
    if not PYX.exists():  # an installed package without its sources
        return
    for n, line in enumerate(PYX.read_text(encoding="utf-8").splitlines(), 1):
        m = re.match(r"\s*(?:from\s+(thinkparse[\w.]*)\s+c?import|c?import\s+(thinkparse[\w.]*))",
                     line)
        if m:
            yield _target(m.group(1) or m.group(2), f"{PYX}:{n}"), n


def _lazy_imports() -> Iterator[tuple[str, int]]:
    for name, module in thinkparse._LAZY.items():
        yield _target("thinkparse" + module, f"thinkparse._LAZY[{name!r}]"), 0


def _graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line}, every module of the package included."""
    graph: dict[str, dict[str, int]] = {m: {} for m in KNOWN}
    sources = [(m, _imports(m, path, is_pkg)) for m, (path, is_pkg) in MODULES.items()]
    sources += [("thinkparse._scanner_c", _pyx_imports()), (FACE, _lazy_imports())]
    for module, found in sources:
        for target, line in found:
            if target != module:
                graph[module].setdefault(target, line)
    return graph


GRAPH = _graph()


def _where(module: str) -> str:
    if module in MODULES:
        return str(MODULES[module][0].relative_to(ROOT))
    return str(PYX.relative_to(ROOT))


def _strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): the components with more than one module, or a
    module that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1 or v in graph[v]:
                        found.append(sorted(component))
    return found


def _cycle_in(component: list[str], graph: dict[str, dict[str, int]]) -> list[str]:
    """One cycle through the component's first module, as a path that returns to it."""
    members = set(component)
    start = component[0]
    paths: dict[str, Optional[str]] = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while paths[path[-1]] is not None:
                    path.append(paths[path[-1]])  # type: ignore[arg-type]
                return [*reversed(path), start]
            if w in members and w not in paths:
                paths[w] = v
                queue.append(w)
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover


def test_every_module_is_placed_and_every_import_resolves() -> None:
    # _graph() raised already for an import of a module that does not exist (an installed
    # copy of the package elsewhere on the path could otherwise answer it silently).
    assert len(MODULES) > 50
    for module in KNOWN:
        part(module)


def test_every_package_is_built() -> None:
    # pyproject.toml lists the packages the wheel ships: every folder of the layout.
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():  # an installed package
        return
    text = pyproject.read_text(encoding="utf-8")
    listed = re.search(r"^packages = \[(.*?)\]", text, re.S | re.M)
    assert listed is not None
    packages = set(re.findall(r'"([\w.]+)"', listed.group(1)))
    assert packages == {m for m, (_, is_pkg) in MODULES.items() if is_pkg}


def test_imports_go_down_the_layers() -> None:
    bad = []
    for module, targets in sorted(GRAPH.items()):
        mine = part(module)
        for target, line in sorted(targets.items()):
            theirs = part(target)
            if theirs != mine and theirs not in ALLOWED[mine]:
                bad.append(f"{_where(module)}:{line}: {mine} imports {theirs} ({target})")
            elif (
                mine == "cli"
                and not module.startswith("thinkparse.cli.commands")
                and module != "thinkparse.cli"
                and target.startswith("thinkparse.cli.commands")
            ):
                bad.append(f"{_where(module)}:{line}: cli plumbing imports a command ({target})")
    assert bad == [], "\n".join(bad)


def test_no_import_cycles() -> None:
    edges = sum(len(t) for t in GRAPH.values())
    cycles = _strongly_connected(GRAPH)
    print(f"import graph: {len(GRAPH)} modules, {edges} edges, {len(cycles)} cycles")
    shown = [" -> ".join(_cycle_in(c, GRAPH)) + f"  ({len(c)} modules tied)" for c in cycles]
    assert cycles == [], "import cycles:\n" + "\n".join(shown)


def test_the_cycle_search_finds_a_cycle() -> None:
    # the guard itself: a type-only edge back is a cycle like any other
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 1}, "d": {}, "e": {"e": 1}}
    assert _strongly_connected(graph) == [["a", "b", "c"], ["e"]]
    assert _cycle_in(["a", "b", "c"], graph) == ["a", "b", "c", "a"]


def test_import_thinkparse_loads_no_system() -> None:
    # The systems and the command line load on first use of one of their names; what is
    # loaded is the package's own modules (not another copy of the package on the path).
    code = (
        "import sys, thinkparse\n"
        "for m, mod in sorted(sys.modules.items()):\n"
        "    if m.startswith('thinkparse'):\n"
        "        print(m, getattr(mod, '__file__', None) or '-')\n"
        "print('--', *[m for m in ('sqlite3', 'hashlib') if m in sys.modules])\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
        timeout=60,
    )
    *lines, heavy = proc.stdout.splitlines()
    loaded = dict(line.split(" ", 1) for line in lines)
    assert FACE in loaded, proc.stderr
    eager = {"thinkparse.data", "thinkparse.data._transcript"}  # reasoning_from_trace, split_trace
    assert [m for m in loaded if part(m) in ("cli", *SYSTEMS) and m not in eager] == []
    assert heavy == "--"
    outside = [f"{m}: {f}" for m, f in loaded.items()
               if f != "-" and not Path(f).resolve().is_relative_to(PACKAGE)]
    assert outside == []
