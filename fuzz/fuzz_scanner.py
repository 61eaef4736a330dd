"""Coverage-guided fuzzing with atheris (``pip install atheris``); see fuzz/README.md.

    python fuzz/fuzz_scanner.py scanner -atheris_runs=200000
    python fuzz/fuzz_scanner.py normalize -max_total_time=600

The first argument picks the target (``scanner``: compiled vs pure-Python differential;
``normalize``: the provider normalisers); the rest are libFuzzer's options.
"""

from __future__ import annotations

import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

with atheris.instrument_imports():
    import _cases


def main() -> None:
    target = sys.argv.pop(1) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "scanner"
    case = {"scanner": _cases.scanner_case, "normalize": _cases.normalize_case}[target]
    atheris.Setup(sys.argv, case)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
