"""Chooses the active ``ThinkScanner`` and declares what every scanner offers (S5, build rules).

``THINKPARSE_NO_EXTENSIONS=1`` (read here, at import, through :mod:`thinkparse._env`) or a
non-CPython interpreter selects the pure-Python scanner; otherwise the compiled one is used when
it can be imported.  When it cannot, the build record that ``setup.py`` writes into every copy it
builds (``thinkparse/_build.json``, see docs/behaviour.md#build) tells why:

* the build chose pure Python (``THINKPARSE_NO_EXTENSIONS=1`` at install, or an interpreter that
  compiles nothing): the pure-Python scanner is used without a word, at every import and in
  every command-line run;
* the build tried to compile and fell back: it warned then, once, with what is missing and how
  to build; imports stay silent, ``thinkparse --version`` names the pure-Python scanner and
  :data:`FALLBACK` holds the reason;
* no record -- a source tree that was never built, typically a clone run in place -- or a record
  that says the scanner was compiled (the module went missing or does not load): one
  ``RuntimeWarning`` at import says how to build it, so the slower scanner is never used
  unknowingly.  ``THINKPARSE_NO_EXTENSIONS=1`` chooses pure Python and silences it.

Type checkers always read the pure-Python signatures.

:class:`ScannerProtocol` is the one declaration of a scanner's public interface: code outside
the two scanner modules uses only these methods and properties, never private state.
"""

from __future__ import annotations

import json
import platform
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Protocol

from .._env import NO_EXTENSIONS, flag
from .._types import Delta

if TYPE_CHECKING:
    from .._scanner_py import ThinkScanner as PyThinkScanner
    from .._scanner_py import scanner_for as scanner_for


class ScannerProtocol(Protocol):
    """What both ``ThinkScanner`` implementations offer (docs/behaviour.md#s5).

    ``feed``/``close`` release text (S1-S4); the read-only properties describe the state after
    the last call: :attr:`in_reasoning` (W4), :attr:`had_block` (T9), :attr:`tag_consumed`
    (T8), :attr:`orphan_at` (T4, T10) and :attr:`reasoning_closed` (F7).
    """

    def feed(self, chunk: str, /) -> Delta:
        """Scan the next piece of text; return what it released."""
        ...

    def close(self) -> Delta:
        """End of text: release everything still held."""
        ...

    @property
    def in_reasoning(self) -> bool:
        """The next character fed would be reasoning (inside a definite or implicit block)."""
        ...

    @property
    def had_block(self) -> bool:
        """A block has become reasoning, so the joined reasoning is not ``None`` (T9)."""
        ...

    @property
    def tag_consumed(self) -> bool:
        """Some tag or delimiter has been consumed."""
        ...

    @property
    def orphan_at(self) -> Optional[int]:
        """Offset of the first consumed tag when it was an orphan closer, else ``None``."""
        ...

    @property
    def reasoning_closed(self) -> Optional[bool]:
        """Whether the last block was closed rather than cut off; ``None`` without one (F7)."""
        ...


#: Why the pure-Python scanner is active although nobody asked for it, else ``None``.
FALLBACK: Optional[str] = None

#: The build record's path (written by setup.py; absent from a source tree nobody built).
BUILD_RECORD = Path(__file__).resolve().parent.parent / "_build.json"


def _build_record() -> Optional[dict[str, object]]:
    """The build record of this copy of the package, or ``None`` when there is none."""
    try:
        record = json.loads(BUILD_RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _fallback(exc: ImportError) -> Optional[str]:
    """Why the pure-Python scanner is active; warn when no build said so (module docstring)."""
    record = _build_record()
    if record is not None and record.get("scanner") == "python":
        if record.get("chosen"):
            return None
        return f"the compiled scanner could not be built at install ({record.get('reason')})"
    if record is None:
        how = (
            "Build it in place with 'python setup.py build_ext --inplace' (needs a C compiler "
            "and Cython 3), or install the package ('pip install .') and run from outside "
            "the source tree"
        )
    else:
        how = "Rebuild or reinstall this copy of thinkparse"
    message = (
        f"thinkparse is using the pure-Python scanner: the compiled one is not available "
        f"({exc}). It behaves identically but is slower. {how}; set "
        "THINKPARSE_NO_EXTENSIONS=1 to choose pure Python and silence this"
    )
    warnings.warn(message, RuntimeWarning, stacklevel=3)
    return message


IMPLEMENTATION: str
if TYPE_CHECKING:
    ThinkScanner = PyThinkScanner
elif flag(NO_EXTENSIONS) or platform.python_implementation() != "CPython":
    from .._scanner_py import ThinkScanner as ThinkScanner
    from .._scanner_py import scanner_for as scanner_for

    IMPLEMENTATION = "python"
else:
    # The pure-Python module is imported only when it is the one used.
    try:
        from .._scanner_c import ThinkScanner, scanner_for
    except ImportError as exc:
        from .._scanner_py import ThinkScanner as ThinkScanner
        from .._scanner_py import scanner_for as scanner_for

        IMPLEMENTATION = "python"
        FALLBACK = _fallback(exc)
    else:
        IMPLEMENTATION = "cython"
