"""Build script: compiles the Cython scanner in ``src_ext/`` into ``thinkparse._scanner_c``.

Environment (SPEC section 9):

* ``THINKPARSE_NO_EXTENSIONS=1`` -- build a pure-Python install, compile nothing.
* ``THINKPARSE_REQUIRE_EXTENSIONS=1`` -- a failed compile is an error instead of a fallback.

On PyPy and other non-CPython interpreters nothing is compiled.  When compilation fails (no
compiler, no Cython, no headers) the build prints one warning and installs pure Python.
Extensions are wrapped by hand rather than with ``Extension(optional=True)`` because
``cythonize()`` drops that flag.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import sys
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _load_env() -> ModuleType:
    """``thinkparse/_env.py`` loaded by path: the package itself is not importable yet."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "thinkparse", "_env.py")
    spec = importlib.util.spec_from_file_location("_thinkparse_env", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"thinkparse: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_env = _load_env()
NO_EXTENSIONS = _env.flag(_env.NO_EXTENSIONS)
REQUIRE_EXTENSIONS = _env.flag(_env.REQUIRE_EXTENSIONS)
CPYTHON = platform.python_implementation() == "CPython"

FALLBACK_WARNING = (
    "WARNING: thinkparse: the compiled scanner could not be built ({reason}); "
    "installing the pure-Python scanner, which behaves identically but is slower. "
    "Set THINKPARSE_REQUIRE_EXTENSIONS=1 to make this an error."
)


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to pure Python unless extensions are required."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            self._fail(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        if REQUIRE_EXTENSIONS:
            raise
        print(FALLBACK_WARNING.format(reason=f"{type(exc).__name__}: {exc}"), file=sys.stderr)


def _extensions() -> list[Extension]:
    if NO_EXTENSIONS:
        return []
    if not CPYTHON:
        if REQUIRE_EXTENSIONS:
            raise SystemExit("thinkparse: THINKPARSE_REQUIRE_EXTENSIONS=1 but this is not CPython")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError as exc:
        if REQUIRE_EXTENSIONS:
            raise SystemExit(
                f"thinkparse: Cython is required to compile the scanner: {exc}"
            ) from exc
        print(FALLBACK_WARNING.format(reason="Cython is not installed"), file=sys.stderr)
        return []
    compile_args = [] if sys.platform == "win32" else ["-O3"]
    ext = Extension(
        "thinkparse._scanner_c",
        ["src_ext/_scanner_c.pyx"],
        include_dirs=["src_ext"],
        depends=["src_ext/_search.h"],
        extra_compile_args=compile_args,
    )
    try:
        return list(
            cythonize(
                [ext],
                compiler_directives={
                    "language_level": 3,
                    "boundscheck": False,
                    "wraparound": False,
                    "cdivision": True,
                    "initializedcheck": False,
                    "embedsignature": True,
                    "embedsignature.format": "python",
                },
                quiet=True,
            )
        )
    except Exception as exc:
        if REQUIRE_EXTENSIONS:
            raise
        print(FALLBACK_WARNING.format(reason=f"Cython failed: {exc}"), file=sys.stderr)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
