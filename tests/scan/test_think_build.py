"""Build and first run (build rules): flags read in one place, the fallback to pure Python is
never silent, the sdist ships every source of the compiled scanner."""

from __future__ import annotations

import os
import subprocess
import sys
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
