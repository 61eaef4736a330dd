"""Build script: compiles the Cython scanner in ``src_ext/`` into ``thinkparse._scanner_c``.

Environment (docs/behaviour.md#build; flags read by thinkparse/_env.py):

* ``THINKPARSE_NO_EXTENSIONS=1`` -- build a pure-Python install, compile nothing.
* ``THINKPARSE_REQUIRE_EXTENSIONS=1`` -- a failed compile is an error instead of a fallback.

On PyPy and other non-CPython interpreters nothing is compiled.  When compilation fails (no
compiler, no Cython, no headers) the build prints one warning saying what is missing and how to
build, and installs pure Python.  Extensions are wrapped by hand rather than with
``Extension(optional=True)`` because ``cythonize()`` drops that flag.

**The build record.**  Every build writes ``thinkparse/_build.json`` beside the package it builds
(the wheel's copy, or the source tree's for an editable install or ``build_ext --inplace``):
``{"scanner": "cython" | "python", "chosen": bool, "reason": str}``.  It is how an installed copy
knows, at import, that its pure-Python scanner is what the build produced: chosen on purpose
(``THINKPARSE_NO_EXTENSIONS=1``, or an interpreter that compiles nothing), or the fallback of a
failed compile that the build already warned about.  ``thinkparse.scan._scanner`` reads it only
when the compiled scanner cannot be imported; then no record (a source tree nobody built) and a
record that says ``"cython"`` (a compiled module that went missing or does not load) are the cases
that warn at import.  Decisions:

* An in-place build that compiled the scanner removes a record left in the source tree by an
  earlier pure-Python build, so the tree reads as built (the ``.so``) or unbuilt (nothing), as
  before; the record is never committed (``.gitignore``) and is not shipped in the sdist.
* pip shows a build's output only with ``-v`` (and ``python -m build`` always), so the fallback
  warning may go unseen at install; ``thinkparse --version`` and ``thinkparse.IMPLEMENTATION``
  then name the pure-Python scanner, and ``thinkparse.scan._scanner.FALLBACK`` holds the reason.
* The warning names what is missing (Cython, or a C compiler and the Python headers) and the
  command that builds again without pip's cached pure-Python wheel; it does not say to run the
  same install again.
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import sys
from types import ModuleType
from typing import Optional

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_env() -> ModuleType:
    """``thinkparse/_env.py`` loaded by path: the package itself is not importable yet."""
    path = os.path.join(HERE, "thinkparse", "_env.py")
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

#: The build record's file name, inside ``thinkparse/`` (read by thinkparse/scan/_scanner.py).
RECORD = "_build.json"

#: How to get the compiled scanner, by what was missing.
HOW_TO_BUILD = {
    "cython": "install Cython 3 in the build environment (pip install 'Cython>=3.0'), or build "
              "with pip's default build isolation, which installs it",
    "compiler": "install a C compiler and the Python headers (Debian/Ubuntu: apt-get install gcc "
                "python3-dev; Fedora: dnf install gcc python3-devel; macOS: xcode-select "
                "--install; Windows: Microsoft C++ Build Tools)",
}

FALLBACK_WARNING = (
    "WARNING: thinkparse: the compiled scanner could not be built ({reason}); "
    "installing the pure-Python scanner, which behaves identically but is slower. "
    "To build it, {how}, then install thinkparse again without pip's cached wheel "
    "(pip install --force-reinstall --no-cache-dir --no-deps thinkparse, or '.' for a clone). "
    "THINKPARSE_NO_EXTENSIONS=1 chooses pure Python without this warning; "
    "THINKPARSE_REQUIRE_EXTENSIONS=1 makes it an error."
)


_warned = False


def _warn_fallback(reason: str, missing: str) -> None:
    """Print the fallback warning, once per build (setup.py also runs for metadata only)."""
    global _warned
    if not _warned:
        _warned = True
        print(FALLBACK_WARNING.format(reason=reason, how=HOW_TO_BUILD[missing]), file=sys.stderr)


def _write_record(package_dir: str, scanner: str, *, chosen: bool, reason: str) -> None:
    """Write the build record into ``package_dir`` (the built or in-place ``thinkparse/``)."""
    os.makedirs(package_dir, exist_ok=True)
    record = {"scanner": scanner, "chosen": chosen, "reason": reason}
    with open(os.path.join(package_dir, RECORD), "w", encoding="utf-8") as f:
        json.dump(record, f)
        f.write("\n")


#: What the build will produce, decided when the extensions are listed (``_extensions``):
#: ``(scanner, chosen, reason)``, and what was missing for a fallback (a key of HOW_TO_BUILD).
#: ``build_ext`` replaces it when compiling fails.
PLAN: tuple[str, bool, str] = ("cython", False, "")
PLAN_MISSING: Optional[str] = None


def _record_plan(package_dir: str) -> None:
    """Write the planned record; a planned fallback warns here, in a build, not for metadata."""
    scanner, chosen, reason = PLAN
    if PLAN_MISSING is not None:
        _warn_fallback(reason, PLAN_MISSING)
    _write_record(package_dir, scanner, chosen=chosen, reason=reason)


class RecordingBuildPy(build_py):
    """``build_py`` that writes the build record with what the build plans to produce.

    ``build_ext`` runs after it and rewrites the record when compiling fails.
    """

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # the package is imported from the source tree
            package_dir = os.path.join(HERE, self.get_package_dir("thinkparse"))
        else:
            package_dir = os.path.join(self.build_lib, "thinkparse")
        _record_plan(package_dir)


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to pure Python unless extensions are required."""

    failure: Optional[str] = None

    def run(self) -> None:
        self.failure = None
        try:
            super().run()
        except Exception as exc:
            self._fail(exc)
        self._record()

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        if REQUIRE_EXTENSIONS:
            raise
        self.failure = f"{type(exc).__name__}: {exc}"
        _warn_fallback(self.failure, "compiler")

    def _record(self) -> None:
        package_dir = os.path.dirname(self.get_ext_fullpath("thinkparse._scanner_c"))
        if self.failure is not None:
            _write_record(package_dir, "python", chosen=False, reason=self.failure)
        elif not self.extensions:
            _record_plan(package_dir)
        elif self.inplace:
            # The compiled module is in the tree now: drop a pure-Python record left there.
            stale = os.path.join(package_dir, RECORD)
            if os.path.exists(stale):
                os.remove(stale)
        else:
            _write_record(package_dir, "cython", chosen=False, reason="")


def _pure(chosen: bool, reason: str, missing: Optional[str] = None) -> list[Extension]:
    global PLAN, PLAN_MISSING
    PLAN, PLAN_MISSING = ("python", chosen, reason), missing
    return []


def _extensions() -> list[Extension]:
    if NO_EXTENSIONS:
        return _pure(True, f"{_env.NO_EXTENSIONS}=1 at build time")
    if not CPYTHON:
        if REQUIRE_EXTENSIONS:
            raise SystemExit("thinkparse: THINKPARSE_REQUIRE_EXTENSIONS=1 but this is not CPython")
        return _pure(True, f"{platform.python_implementation()} compiles no extension")
    try:
        from Cython.Build import cythonize
    except ImportError as exc:
        if REQUIRE_EXTENSIONS:
            raise SystemExit(
                f"thinkparse: Cython is required to compile the scanner: {exc}"
            ) from exc
        return _pure(False, "Cython is not installed", "cython")
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
        return _pure(False, f"Cython failed: {exc}", "cython")


setup(
    ext_modules=_extensions(),
    cmdclass={"build_py": RecordingBuildPy, "build_ext": OptionalBuildExt},
)
