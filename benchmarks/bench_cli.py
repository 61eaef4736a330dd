"""CLI throughput on JSON Lines provider responses (>= 50 MB/s, peak < 150 MB; C6 --jobs).

Generates about 60 MB of OpenAI-compatible chat completion records (``reasoning_content``,
``reasoning``, inline ``<think>`` tags and plain answers, about 1 KB each) in a temporary
directory, runs the command on it a few times with standard output to ``/dev/null``, and prints
the best throughput and the peak resident memory of the command (``ru_maxrss`` of the child,
each run measured from its own wrapper process).  For scale it also runs a floor: a bare loop
doing only ``json.loads`` + ``json.dumps`` per line, and reports the single-process ratio to it
(target >= 1.0x) and the ``--jobs 2`` speed-up over ``--jobs 1`` (target >= 1.7x on two free
cores).  The load average is printed first: on a shared machine the ratios are only as good as
the cores the runs actually got (CPU seconds are shown next to wall seconds).

Usage::

    python benchmarks/bench_cli.py                 # python -m thinkparse, source tree first
    python benchmarks/bench_cli.py --installed     # the `thinkparse` executable on PATH
    python benchmarks/bench_cli.py --size 120 --runs 5
    python benchmarks/bench_cli.py --size 200 --runs 3     # the C6 measurement
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RSS_WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,\n"
    "                    stdin=subprocess.DEVNULL).returncode\n"
    "t = time.perf_counter() - t\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "kib = u.ru_maxrss\n"
    "print(rc, t, kib * (1 if sys.platform == 'darwin' else 1024), u.ru_utime + u.ru_stime)\n"
)

FLOOR = (
    "import json, sys\n"
    "out = sys.stdout\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for line in f:\n"
    "        m = json.loads(line)['choices'][0]['message']\n"
    "        out.write(json.dumps({'visible': m.get('content'),\n"
    "                              'reasoning': m.get('reasoning_content')}) + '\\n')\n"
)

REASONING = (
    "The user wants the total cost. Unit price 12.50, quantity 4, so 50.00 before tax; "
    "tax at 8% adds 4.00, total 54.00. Check: 54 / 4 = 13.50 per unit including tax. "
)


def records(size: int) -> bytes:
    """About ``size`` bytes of JSON Lines, four record styles in turn (deterministic)."""
    parts: list[bytes] = []
    total = i = 0
    while total < size:
        message: dict[str, object] = {"role": "assistant"}
        style = i % 4
        answer = f"The total is 54.00 (order {i}), i.e. 13.50 per unit including tax."
        if style == 0:  # DeepSeek, SGLang, llama.cpp, Fireworks ...
            message.update(content=answer, reasoning_content=REASONING * 3)
        elif style == 1:  # vLLM >= 0.11, Groq, Cerebras, OpenRouter ...
            message.update(content=answer, reasoning=REASONING * 3)
        elif style == 2:  # raw mode: inline tags
            message.update(content=f"<think>\n{REASONING * 3}\n</think>\n\n{answer}")
        else:
            message.update(content=answer * 4)
        record = {
            "id": f"chatcmpl-{i:08d}",
            "object": "chat.completion",
            "created": 1735689600 + i,
            "model": "deepseek-reasoner",
            "choices": [
                {"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}
            ],
            "usage": {
                "prompt_tokens": 48,
                "completion_tokens": 210,
                "total_tokens": 258,
                "completion_tokens_details": {"reasoning_tokens": 150},
            },
        }
        line = json.dumps(record).encode() + b"\n"
        parts.append(line)
        total += len(line)
        i += 1
    return b"".join(parts)


def measure(command: list[str], env: dict[str, str]) -> tuple[int, float, int, float]:
    proc = subprocess.run(
        [sys.executable, "-c", RSS_WRAPPER, *command],
        capture_output=True,
        env=env,
        check=True,
    )
    rc, seconds, rss, cpu = proc.stdout.split()
    return int(rc), float(seconds), int(rss), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=float, default=60, help="MB of JSON Lines (default 60)")
    parser.add_argument("--runs", type=int, default=3, help="runs, best kept (default 3)")
    parser.add_argument(
        "--installed", action="store_true", help="run the `thinkparse` executable on PATH"
    )
    args = parser.parse_args()

    env = dict(os.environ)
    # As an installed package runs: modules loaded from cached bytecode (the warm-up run below
    # writes it), not compiled from source at every start.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.installed:
        exe = shutil.which("thinkparse")
        if exe is None:
            raise SystemExit("no `thinkparse` on PATH")
        command = [exe]
    else:
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
        command = [sys.executable, "-m", "thinkparse"]

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        data = records(int(args.size * 1e6))
        path.write_bytes(data)
        mb = len(data) / 1e6
        lines = data.count(b"\n")
        del data
        subprocess.run([*command, str(path)], capture_output=True, env=env, check=True)
        impl = (
            subprocess.run([*command, "--version"], capture_output=True, env=env, check=True)
            .stdout.decode()
            .strip()
        )
        try:
            import msgspec  # noqa: F401

            fast = "msgspec installed"
        except ImportError:
            fast = "msgspec not installed"
        print(f"{impl}; {fast}; {mb:.1f} MB, {lines} records (~{mb * 1e6 / lines:.0f} B each)")
        print("load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))

        rows = [
            ("startup (--version)", [*command, "--version"], 0.0),
            ("thinkparse FILE", [*command, str(path)], mb),
            ("floor: loads+dumps", [sys.executable, "-c", FLOOR, str(path)], mb),
            ("--jobs 1", [*command, "--jobs", "1", str(path)], mb),
            ("--jobs 2", [*command, "--jobs", "2", str(path)], mb),
        ]
        print(f"{'what':<22} {'best s':>8} {'MB/s':>8} {'cpu s':>8} {'peak RSS MB':>12}")
        # Rounds interleave the commands, so a busy moment of the shared machine hits them all.
        best = {label: (float("inf"), 0.0) for label, _, _ in rows}
        peak = {label: 0 for label, _, _ in rows}
        for _ in range(args.runs):
            for label, cmd, _size in rows:
                rc, seconds, rss, used = measure(cmd, env)
                if rc != 0:
                    raise SystemExit(f"{label}: exit status {rc}")
                if seconds < best[label][0]:
                    best[label] = (seconds, used)
                peak[label] = max(peak[label], rss)
                time.sleep(0.2)
        best_of: dict[str, float] = {}
        for label, _cmd, size in rows:
            seconds, cpu = best[label]
            best_of[label] = seconds
            rate = f"{size / seconds:8.1f}" if size else f"{'-':>8}"
            print(f"{label:<22} {seconds:8.3f} {rate} {cpu:8.2f} {peak[label] / 1e6:12.1f}")
        floor = best_of["floor: loads+dumps"] / best_of["thinkparse FILE"]
        jobs = best_of["--jobs 1"] / best_of["--jobs 2"]
        print(f"single process / floor: {floor:.2f}x; --jobs 2 / --jobs 1: {jobs:.2f}x")
        print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
