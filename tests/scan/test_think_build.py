"""Build and first run (build rules): flags read in one place, the fallback to pure Python is
never silent, a pure-Python install chosen at install is, the sdist ships every source of the
compiled scanner.

The install tests build real wheels from a copy of the source tree with the running Python's
setuptools and Cython (``pip wheel --no-build-isolation``: no network) and install each into a
throwaway virtual environment, then import and run it from outside the tree.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from thinkparse import _env

ROOT = Path(__file__).resolve().parents[2]

_BLOCK_COMPILED = """
import sys
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name == "thinkparse._scanner_c":
            raise ImportError("blocked for the test")
        return None
sys.meta_path.insert(0, _Block())
import thinkparse, thinkparse.scan._think
print(thinkparse.IMPLEMENTATION)
"""


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", False), ("0", False), ("false", False), (" No ", False), ("1", True), ("yes", True)],
)
def test_flag_values(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool) -> None:
    # behaviour.md#build: one reading of every THINKPARSE_* flag
    monkeypatch.setenv("THINKPARSE_TEST_FLAG", value)
    assert _env.flag("THINKPARSE_TEST_FLAG") is expected
    monkeypatch.delenv("THINKPARSE_TEST_FLAG")
    assert _env.flag("THINKPARSE_TEST_FLAG") is False


def _run(env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("THINKPARSE_")}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-W", "default", "-c", _BLOCK_COMPILED],
        capture_output=True, text=True, env=env, timeout=60, cwd=ROOT,
    )


def test_unasked_fallback_warns_once() -> None:
    # behaviour.md#build: a CPython without the compiled scanner says so, once, on stderr
    if sys.implementation.name != "cpython":
        pytest.skip("only CPython compiles the scanner")
    proc = _run({})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "python\n"
    assert proc.stderr.count("thinkparse is using the pure-Python scanner") == 1
    assert "blocked for the test" in proc.stderr


def test_unbuilt_source_tree_says_how_to_build() -> None:
    # behaviour.md#build: run from a clone nobody built, the warning names the in-place build
    if sys.implementation.name != "cpython":
        pytest.skip("only CPython compiles the scanner")
    if (ROOT / "thinkparse" / "_build.json").exists():
        pytest.skip("this source tree holds a build record (a pure-Python in-place build)")
    proc = _run({})
    assert "python setup.py build_ext --inplace" in proc.stderr


def test_asked_for_pure_python_is_silent() -> None:
    # S5: THINKPARSE_NO_EXTENSIONS=1 selects pure Python without a word
    proc = _run({"THINKPARSE_NO_EXTENSIONS": "1"})
    assert proc.returncode == 0, proc.stderr
    assert (proc.stdout, proc.stderr) == ("python\n", "")


def test_sdist_manifest_ships_the_header() -> None:
    # behaviour.md#build: the sdist holds the .pyx and the C header it includes
    manifest = (ROOT / "MANIFEST.in").read_text()
    assert "recursive-include src_ext *.pyx *.pxd *.h" in manifest
    assert (ROOT / "src_ext" / "_search.h").is_file()
    assert 'cdef extern from "_search.h"' in (ROOT / "src_ext" / "_scanner_c.pyx").read_text()


def test_build_requirements_allow_the_license_field() -> None:
    # behaviour.md#build: the SPDX string form of project.license needs setuptools 77 or later
    text = (ROOT / "pyproject.toml").read_text()
    assert 'license = "MIT"' in text
    assert '"setuptools>=77"' in text


# --- real installs ------------------------------------------------------------------------------
#: What a copy of the source tree leaves out: build products and what the wheel never holds.
_NOT_SOURCES = shutil.ignore_patterns(
    ".git", "build", "dist", "site", "*.egg-info", "__pycache__", "*.so", "*.pyd", "_build.json",
    ".*_cache", ".hypothesis", ".benchmarks", ".venv", "tests", "benchmarks", "fuzz", "docs")
_EXAMPLE = ROOT / "examples" / "reasoning-block.txt"


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("THINKPARSE_", "PYTHON", "PIP_"))}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONWARNINGS="default", **extra)
    return env


def _build_wheel(tmp: Path, **env: str) -> tuple[Path, str]:
    """A wheel of a copy of the tree, and everything the build printed (``pip wheel -v``)."""
    if sys.implementation.name != "cpython" or os.name != "posix":
        pytest.skip("the install tests build with a C toolchain on a POSIX CPython")
    for module in ("pip", "setuptools", "Cython"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (the test extra brings it)")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=_NOT_SOURCES)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-build-isolation", "--no-deps",
         "--no-index", "--wheel-dir", str(tmp / "dist"), str(src)],
        capture_output=True, text=True, env=_clean_env(**env), timeout=900,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = (tmp / "dist").glob("thinkparse-*.whl")
    return wheel, proc.stdout + proc.stderr


def _install(tmp: Path, wheel: Path) -> Path:
    """A throwaway virtual environment with only the wheel installed; its ``bin`` folder."""
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "-q",
         "--no-deps", "--no-index", str(wheel)],
        check=True, capture_output=True, env=_clean_env(), timeout=300,
    )
    return bin_dir


def _in_venv(tmp: Path, bin_dir: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command of the environment, run from outside the source tree."""
    return subprocess.run([str(bin_dir / argv[0]), *argv[1:]], capture_output=True, text=True,
                          env=_clean_env(), cwd=tmp, timeout=120)


_STATE = ("import thinkparse, importlib.util as u; from thinkparse.scan import _scanner as s; "
          "print(thinkparse.IMPLEMENTATION, u.find_spec('thinkparse._scanner_c') is None, "
          "s.FALLBACK)")


def test_pure_python_install_chosen_at_install_is_silent(tmp_path: Path) -> None:
    # behaviour.md#build: THINKPARSE_NO_EXTENSIONS=1 pip install . -- the installed copy imports
    # and runs without a warning, although the flag is not set when it runs
    wheel, build_output = _build_wheel(tmp_path, THINKPARSE_NO_EXTENSIONS="1")
    assert "WARNING: thinkparse" not in build_output
    bin_dir = _install(tmp_path, wheel)
    state = _in_venv(tmp_path, bin_dir, "python", "-c", _STATE)
    assert (state.stdout, state.stderr) == ("python True None\n", "")
    version = _in_venv(tmp_path, bin_dir, "thinkparse", "--version")
    assert (version.stdout.endswith("(scanner: python)\n"), version.stderr) == (True, "")
    run = _in_venv(tmp_path, bin_dir, "thinkparse", str(_EXAMPLE))
    assert (run.stdout, run.stderr) == ("Final balance increased by 12 SOL.\n", "")


def test_fallback_not_chosen_warns_once_at_install(tmp_path: Path) -> None:
    # behaviour.md#build: no C compiler -- the build warns once, saying what is missing and how
    # to build (not merely to install again); the installed copy then imports without a warning
    # and says why it runs pure Python
    wheel, build_output = _build_wheel(tmp_path, CC="/bin/false")
    assert build_output.count("WARNING: thinkparse: the compiled scanner could not be built") == 1
    assert "install a C compiler and the Python headers" in build_output
    assert "--no-cache-dir" in build_output
    bin_dir = _install(tmp_path, wheel)
    state = _in_venv(tmp_path, bin_dir, "python", "-c", _STATE)
    assert state.stderr == ""
    assert state.stdout.startswith("python True the compiled scanner could not be built at "
                                   "install (CompileError: ")
    run = _in_venv(tmp_path, bin_dir, "thinkparse", str(_EXAMPLE))
    assert (run.stdout, run.stderr) == ("Final balance increased by 12 SOL.\n", "")
