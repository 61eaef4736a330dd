"""The public scanner-side signatures are real types: a user's script is checked by ``mypy
--strict`` inside the suite, and the misuses a type checker can see are rejected (A1).

``mypy`` comes with the ``lint`` extra; without it the check is skipped with the reason.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from thinkparse._presets import PRESETS, PresetName

ROOT = Path(__file__).resolve().parent.parent

USER_SCRIPT = '''\
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Optional
from thinkparse import PresetName
from thinkparse import Delta, Split, ThinkScanner, aiter_think, iter_think, split_think, strip_think

scanner = ThinkScanner(tags=("think",), max_tentative=None, preset="qwen3")
delta: Delta = scanner.feed("x")
visible: str = delta.visible
inside: bool = scanner.in_reasoning
orphan: Optional[int] = scanner.orphan_at
split: Split = split_think("x", start_in_reasoning="auto", delimiters=[("[T]", "[/T]")])
deltas: Iterator[Delta] = iter_think(["a"], tags="think")
answer: str = strip_think("x", preset="deepseek-r1", max_tentative=100)
family: PresetName = "granite"

async def run(chunks: AsyncIterator[str]) -> list[Delta]:
    return [d async for d in aiter_think(chunks, code_aware=False)]


ThinkScanner(max_tentative="big")
ThinkScanner(preset="no-such-preset")
ThinkScanner(start_in_reasoning="auto")
split_think(b"bytes")
scanner.in_reasoning = True
iter_think(["a"], code_aware="yes")
split_think("x", delimiters=[("only-open",)])
split_think("x", tags=5)
'''

#: (line, error code, a fragment of the message) for every line mypy must reject.
EXPECTED = [
    (22, "arg-type", 'Argument "max_tentative" to "ThinkScanner" has incompatible type "str"'),
    (23, "arg-type", 'Argument "preset" to "ThinkScanner" has incompatible type'),
    (24, "arg-type", 'Argument "start_in_reasoning" to "ThinkScanner" has incompatible type'),
    (25, "arg-type", 'Argument 1 to "split_think" has incompatible type "bytes"; expected "str"'),
    (26, "misc", 'Property "in_reasoning" defined in "ThinkScanner" is read-only'),
    (27, "arg-type", 'Argument "code_aware" to "iter_think" has incompatible type "str"'),
    (28, "list-item", 'List item 0 has incompatible type "tuple[str]"'),
    (29, "arg-type", 'Argument "tags" to "split_think" has incompatible type "int"'),
]

_LINE = re.compile(r"^user\.py:(\d+): error: (.*)  \[([a-z-]+)\]$")


def test_preset_name_lists_every_preset() -> None:
    # behaviour.md#presets: the Literal of preset names is the PRESETS table's keys
    assert set(get_args(PresetName)) == set(PRESETS)


def test_user_script_under_mypy_strict(tmp_path: Path) -> None:
    # behaviour.md#a1: typed public signatures; the script's good lines pass, the bad ones fail
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[lint]')")
    (tmp_path / "user.py").write_text(USER_SCRIPT)
    env = dict(os.environ, MYPYPATH=str(ROOT))
    proc = subprocess.run(
        [
            sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--no-incremental",
            "--cache-dir", os.devnull, "--python-version", "3.10", "user.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    errors = []
    for line in proc.stdout.splitlines():
        match = _LINE.match(line)
        assert match, f"unexpected mypy output: {line!r}"
        errors.append((int(match.group(1)), match.group(3), match.group(2)))
    assert [(n, code) for n, code, _ in errors] == [(n, code) for n, code, _ in EXPECTED]
    for (_, _, message), (_, _, fragment) in zip(errors, EXPECTED):
        assert fragment in message
