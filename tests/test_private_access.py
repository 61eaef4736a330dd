"""No module reads another's private state: the scanners' public properties are the contract.

Every ``obj._name`` in the package is checked: it is allowed on ``self``/``cls`` and for names the
same module defines itself (its own classes' private attributes and slots); anything else -- a
scanner's state read from ``_think.py``, an emitter's field written from another module -- fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "thinkparse"


def _own_private_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            value = node.value
            if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)  # a dataclass field declared in this module
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == "__slots__":
                    for elt in ast.walk(node.value):
                        if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                            names.add(elt.value)
    return names


def _violations(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    own = _own_private_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        attr = node.attr
        if not attr.startswith("_") or attr.startswith("__"):
            continue
        value = node.value
        if isinstance(value, ast.Name) and value.id in ("self", "cls"):
            continue
        if attr in own:
            continue
        found.append(f"{path.relative_to(root)}:{node.lineno}: .{attr}")
    return found


def test_no_private_attribute_read_across_modules() -> None:
    # docs/behaviour.md#a1: other modules use the scanners' documented properties only
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 10
    found = [v for path in files for v in _violations(path)]
    assert found == []


def test_the_check_catches_a_cross_module_read(tmp_path: Path) -> None:
    # the guard itself: another object's private state is reported, own state is not
    path = tmp_path / "mod.py"
    path.write_text(
        "class Mine:\n"
        "    def __init__(self):\n"
        "        self._count = 0\n"
        "def peek(other, scanner):\n"
        "    return other._count, scanner._had_block, scanner.__class__\n"
    )
    assert _violations(path, tmp_path) == ["mod.py:5: ._had_block"]
