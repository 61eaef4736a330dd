"""Chooses the active ``ThinkScanner`` and declares what every scanner offers (S5, build rules).

``THINKPARSE_NO_EXTENSIONS=1`` (read here, at import, through :mod:`thinkparse._env`) or a
non-CPython interpreter selects the pure-Python scanner; otherwise the compiled one is used when
it was built.  When the compiled scanner was not asked away but cannot be imported (typically:
running from a source tree that was never built), :data:`FALLBACK` says why and one
``RuntimeWarning`` is issued at import, so the slower scanner is never used unknowingly; set
``THINKPARSE_NO_EXTENSIONS=1`` to choose pure Python and silence it.  Type checkers always read
the pure-Python signatures.

:class:`ScannerProtocol` is the one declaration of a scanner's public interface: code outside
the two scanner modules uses only these methods and properties, never private state.
"""

from __future__ import annotations

import platform
import warnings
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
        FALLBACK = (
            f"thinkparse is using the pure-Python scanner: the compiled one is not available "
            f"({exc}). It behaves identically but is slower. Build it with 'pip install .' "
            "(and run from outside the source tree) or 'python setup.py build_ext --inplace'; "
            "set THINKPARSE_NO_EXTENSIONS=1 to choose pure Python and silence this"
        )
        warnings.warn(FALLBACK, RuntimeWarning, stacklevel=2)
    else:
        IMPLEMENTATION = "cython"
