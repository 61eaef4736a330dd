"""Griffe extension for the API reference: docstrings written for ``help()`` read as documentation.

The docstrings stay as they are -- plain text that ``help()`` and doctest read, with Sphinx roles
and doctest blocks -- and this extension rewrites what mkdocstrings renders from them, when the
``thinkparse`` package has been loaded (static analysis; nothing is imported):

* **Sphinx roles** (``:func:`split_think```, ``:class:`~thinkparse.Delta```, ``:meth:`feed```)
  become code that links to the entry it names: the name is resolved in the docstring's own
  scope, as Python would, and rendered as an optional cross-reference (a link when the API page
  documents the object, plain code otherwise -- never a broken link or a build warning).
* **Doctest blocks** outside an ``Examples:`` section (``>>>`` lines at the docstring's left
  margin, up to the next blank line) become ``Examples:`` sections, which render as ``pycon``
  code (``# doctest:`` directives removed); an RST ``::`` before an indented block reads ``:``.
* **Option defaults**: the public signatures default their options to sentinels of
  ``thinkparse/_spec.py`` (``DEFAULT_TAGS_OPT = _Default(None)``), so that an option passed
  explicitly can be told from one left out; at run time they print as their value, but static
  analysis sees the sentinel's name.  Each such default is shown as the value the sentinel
  wraps (``None``, ``()``, ``False``, ``8192``).  The runtime signatures are unchanged.

Rule citations (``docs/behaviour.md#r8``, ``#r2``, ``T5``) become links in the rendered HTML, on
every page: see ``links.py`` beside this file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Optional

from griffe import Alias, Expr, ExprCall, ExprName, Extension, Function, Module, Object

#: ``:role:`target```, ``:role:`~dotted.target```, ``:role:`title <target>```.
_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|data|attr|mod|exc|obj|const):`([^`]+)`")
_TITLED = re.compile(r"^(.*?)\s*<([^<>]+)>$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def _walk(obj: Object) -> Iterator[Object]:
    """``obj`` and every object defined under it (aliases -- imports -- are not followed)."""
    yield obj
    for member in obj.members.values():
        if not isinstance(member, Alias):
            yield from _walk(member)


def _canonical(scope: Object, target: str) -> Optional[str]:
    """The canonical path of what ``target`` names in ``scope``, or ``None``."""
    first, _, rest = target.partition(".")
    if first == scope.package.name:
        path = target
    else:
        try:
            path = scope.resolve(first) + (f".{rest}" if rest else "")
        except Exception:  # griffe's NameResolutionError, or an unresolvable import
            return None
    try:
        found = scope.modules_collection[path]
        return str(found.canonical_path)
    except Exception:  # a KeyError or an AliasResolutionError: not a documented object
        return None


def _role(scope: Object, match: re.Match[str]) -> str:
    body = match.group(1).strip()
    titled = _TITLED.match(body)
    title, target = (titled.group(1), titled.group(2)) if titled else (None, body)
    short = target.startswith("~")
    target = target.lstrip("~.")
    shown = title or (target.rsplit(".", 1)[-1] if short else target)
    code = f"<code>{shown}</code>"
    path = _canonical(scope, target)
    if path is None:
        return code
    return f'<autoref identifier="{path}" optional>{code}</autoref>'


def _doctests(text: str) -> str:
    """Top-level doctest blocks as ``Examples:`` sections; an RST ``::`` ending a line reads ``:``.

    A doctest block at the docstring's left margin (``>>>`` up to the next blank line) is not
    part of any Google section, so it would render as one paragraph; as an ``Examples:``
    section it renders as code, under a heading.  Blocks already inside a section are left to
    the parser, and so is everything inside a fenced code block.
    """
    out: list[str] = []
    lines = text.split("\n")
    fence: Optional[str] = None
    in_doctest = False
    for i, line in enumerate(lines):
        if fence is None and not in_doctest and line.startswith(">>>"):
            if out and out[-1].strip():
                out.append("")
            out.append("Examples:")
            in_doctest = True
        if in_doctest:
            if line.strip():
                out.append(f"    {line}")
                continue
            in_doctest = False
        opened = _FENCE.match(line)
        if opened:
            if fence is None:
                fence = opened.group(1)
            elif opened.group(1).startswith(fence):
                fence = None
        elif (fence is None and line.endswith("::") and not line.endswith(":::")
              and i + 1 < len(lines) and not lines[i + 1].strip()):
            line = line[:-1]
        out.append(line)
    return "\n".join(out)


def _sentinels(package: Module) -> dict[str, str]:
    """``{sentinel name: the source of the value it wraps}`` from ``thinkparse/_spec.py``."""
    try:
        spec = package["_spec"]
    except KeyError:
        return {}
    found = {}
    for name, member in spec.members.items():
        if isinstance(member, Alias):  # an import
            continue
        value = getattr(member, "value", None)
        if not (isinstance(value, ExprCall) and str(value.function) == "_Default"
                and len(value.arguments) == 1):
            continue
        wrapped = value.arguments[0]
        named = spec.members.get(wrapped.name) if isinstance(wrapped, ExprName) else None
        if named is not None and not isinstance(named, Alias):
            wrapped = getattr(named, "value", wrapped)
        found[name] = str(wrapped)
    return found


def _defaults(func: Function, sentinels: dict[str, str]) -> None:
    for parameter in func.parameters:
        default: Any = parameter.default
        if isinstance(default, (str, Expr)):
            name = str(default).rsplit(".", 1)[-1]
            if name in sentinels:
                parameter.default = sentinels[name]


class ThinkparseDocs(Extension):
    """Rewrites the rendered docstrings and defaults of the ``thinkparse`` package."""

    def on_package(self, *, pkg: Module, **kwargs: Any) -> None:
        if pkg.name != "thinkparse":
            return
        sentinels = _sentinels(pkg)
        for obj in _walk(pkg):
            if isinstance(obj, Function):
                _defaults(obj, sentinels)
            if obj.docstring is not None:
                text = _ROLE.sub(lambda m, scope=obj: _role(scope, m), obj.docstring.value)
                obj.docstring.value = _doctests(text)
