"""Speed of the ``<think>`` scanner: both implementations side by side (performance targets).

Sections (``--section N``):

1. ``ThinkScanner.feed`` on a realistic 20 000-character stream cut into 1-, 4-, 16-character and
   64 KB chunks: ns per ``feed()`` call, next to SGLang's ``ReasoningParser`` (model ``qwen3``) on
   the same chunks when a Python with SGLang is given (``--peer-python``).
2. (reserved: section 2 of the targets list, the SGLang comparison, is part of table 1.)
3. One-shot throughput (``feed(text)`` + ``close()``, which is what ``split_think`` does, and
   ``split_think`` itself with the active scanner) on 10 MB documents, as a ratio to a memchr scan
   of the same string (``doc.find("\\x00")``) measured in the same run, every contender starting
   with the text out of the caches (a warm memchr is shown beside it).
4. Cost growth: ns per character at 40 KB and at 4 MB, realistic text and the adversarial inputs
   of S6, chunked (7 characters) and whole.

Every ratio is taken inside one run, with the contenders interleaved repeat by repeat, and each
figure is the minimum over the repeats (the machine is shared and noisy).  Only the feed loop and
``close()`` are timed; documents are generated and chunks cut beforehand, and the garbage collector
is off while timing, as in :mod:`timeit`.

SGLang runs in its own interpreter (``--peer-python``) through a small line protocol on
stdin/stdout, so this process never imports it.  Its parser module is imported alone: ``sglang``
and ``sglang.srt`` are registered as bare packages first, so the server's package ``__init__``
files (and their GPU dependencies) are never executed.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gc
import importlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
import types
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Optional, Sequence

import _docs

SGLANG_MISSING = "sglang not installed"
GROWTH_INPUTS = ("realistic", *_docs.ADVERSARIAL, *_docs.ZOO_ADVERSARIAL)
#: The preset of the zoo rows: one with terminators and answer wrappers (F2, F3).
ZOO_PRESET = "hunyuan"

# Targets of behaviour.md#performance.
TARGET_VS_SGLANG = {"python": 6.0, "cython": 25.0}
TARGET_VS_MEMCHR = {"realistic": 0.1, "tag-free prose": 0.5}
#: split_think on 10 MB with terminators and answer wrappers (the zoo issue's floor).
TARGET_ZOO_VS_MEMCHR = 0.15
TARGET_GROWTH = 2.0
TARGET_CHUNK = 4

#: ``cpu``: this thread's CPU time, which leaves out the time spent descheduled on a busy
#: machine; ``wall``: elapsed time.  Both in nanoseconds.
CLOCKS: dict[str, Callable[[], int]] = {"cpu": time.thread_time_ns, "wall": time.perf_counter_ns}
_clock_name = "cpu"


def set_clock(name: str) -> None:
    """Choose the clock of every timer (``"cpu"`` or ``"wall"``).

    Raises:
        ValueError: an unknown clock.
    """
    global _clock_name
    if name not in CLOCKS:
        raise ValueError(f"clock must be 'cpu' or 'wall', not {name!r}")
    _clock_name = name


# --------------------------------------------------------------------------------------------
# Timing primitives


def time_stream(cls: Any, chunks: Sequence[str], options: Optional[dict[str, Any]] = None) -> int:
    """Nanoseconds for feeding ``chunks`` to a fresh ``cls(**options)`` and closing it.

    Args:
        cls: a ``ThinkScanner`` class.
        chunks: the pre-cut chunks.
        options: keyword options for the scanner.

    Returns:
        Elapsed time of the feed loop plus ``close()`` (construction excluded).
    """
    scanner = cls(**(options or {}))
    feed = scanner.feed
    clock = CLOCKS[_clock_name]
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = clock()
        for chunk in chunks:
            feed(chunk)
        scanner.close()
        stop = clock()
    finally:
        if enabled:
            gc.enable()
    return stop - start


def time_one_shot(cls: Any, text: str) -> int:
    """Nanoseconds for what ``split_think`` does with ``cls``: one feed, close, join the parts."""
    clock = CLOCKS[_clock_name]
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = clock()
        scanner = cls()
        visible, reasoning = scanner.feed(text)
        visible2, reasoning2 = scanner.close()
        joined = (visible + visible2, reasoning + reasoning2)  # the joins split_think does
        stop = clock()
    finally:
        if enabled:
            gc.enable()
    del joined
    return stop - start


def time_call(fn: Callable[[str], object], text: str) -> int:
    """Nanoseconds for one ``fn(text)``."""
    clock = CLOCKS[_clock_name]
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = clock()
        fn(text)
        stop = clock()
    finally:
        if enabled:
            gc.enable()
    return stop - start


def memchr_scan(text: str) -> int:
    """The memchr baseline of section 8: search ``text`` for a character it does not hold."""
    return text.find("\x00")


#: Untimed rounds per contender before section 1 is timed under PyPy.
PYPY_WARMUP_ROUNDS = 200


def interleaved_min(
    contenders: dict[str, Callable[[], int]], repeats: int, budget_s: float = 5.0
) -> dict[str, int]:
    """Run each contender in turn, ``repeats`` rounds; the minimum time of each.

    A contender stops early once it has run twice and spent more than ``budget_s`` seconds, so a
    slow one cannot stretch the run; the others keep their rounds.

    Args:
        contenders: name -> a callable that runs once and returns nanoseconds.
        repeats: rounds, at least 1.
        budget_s: time after which a contender with two runs stops.

    Returns:
        name -> minimum nanoseconds.
    """
    best: dict[str, int] = {}
    spent = dict.fromkeys(contenders, 0)
    runs = dict.fromkeys(contenders, 0)
    budget_ns = int(budget_s * 1e9)
    for _ in range(max(1, repeats)):
        for name, run in contenders.items():
            if runs[name] >= 2 and spent[name] > budget_ns:
                continue
            ns = run()
            best[name] = min(ns, best.get(name, ns))
            spent[name] += ns
            runs[name] += 1
    return best


# --------------------------------------------------------------------------------------------
# Implementations and the peer


def load_implementations(which: str = "both") -> list[tuple[str, Any]]:
    """The scanner classes to measure: ``[(name, cls), ...]``.

    Args:
        which: ``"py"``, ``"c"`` or ``"both"``.

    Returns:
        ``("python", cls)`` and/or ``("cython", cls)``; with ``"both"`` a missing compiled
        module is left out (and said so on stderr).

    Raises:
        SystemExit: ``which == "c"`` and the compiled scanner is not built.
        ValueError: an unknown ``which``.
    """
    if which not in ("py", "c", "both"):
        raise ValueError(f"impl must be 'py', 'c' or 'both', not {which!r}")
    impls: list[tuple[str, Any]] = []
    if which in ("py", "both"):
        from thinkparse import _scanner_py

        impls.append(("python", _scanner_py.ThinkScanner))
    if which in ("c", "both"):
        try:
            compiled = importlib.import_module("thinkparse._scanner_c")
        except ImportError as exc:
            message = (
                f"compiled scanner not built ({exc}); "
                "build it with: python setup.py build_ext --inplace"
            )
            if which == "c":
                raise SystemExit(message) from exc
            print(f"note: {message}", file=sys.stderr)
        else:
            impls.append(("cython", compiled.ThinkScanner))
    return impls


class PeerWorker:
    """SGLang's reasoning parser, running in another interpreter (see ``--sglang-worker``).

    Attributes:
        skipped: why the peer is unavailable, or ``None`` when it runs.
        version: the SGLang version, when it runs.
    """

    def __init__(self, python: str) -> None:
        self.skipped: Optional[str] = None
        self.version = ""
        self.module = ""
        self._proc: Optional[subprocess.Popen[str]] = None
        env = dict(os.environ)
        env.update(
            TRANSFORMERS_VERBOSITY="error",
            TRANSFORMERS_NO_ADVISORY_WARNINGS="1",
            TOKENIZERS_PARALLELISM="false",
        )
        try:
            self._proc = subprocess.Popen(
                [python, os.path.abspath(__file__), "--sglang-worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
            )
        except OSError as exc:
            self.skipped = f"peer python {python!r} not runnable ({exc.strerror})"
            return
        hello = self._recv()
        if "skipped" in hello:
            self.skipped = str(hello["skipped"])
            self.close()
        else:
            self.version = str(hello.get("version", "?"))
            self.module = str(hello.get("module", "?"))

    def _send(self, message: dict[str, Any]) -> None:
        if self._proc is None or self._proc.stdin is None:
            raise RuntimeError("the peer worker is not running")
        self._proc.stdin.write(json.dumps(message) + "\n")
        self._proc.stdin.flush()

    def _recv(self) -> dict[str, Any]:
        if self._proc is None or self._proc.stdout is None:
            raise RuntimeError("the peer worker is not running")
        line = self._proc.stdout.readline()
        if not line:
            return {"skipped": "peer worker exited without answering"}
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"peer worker: {reply['error']}")
        return reply

    def load(self, key: str, chunks: Sequence[str]) -> dict[str, Any]:
        """Hand ``chunks`` to the worker under ``key``; returns its untimed output summary."""
        self._send({"op": "load", "key": key, "chunks": list(chunks)})
        return self._recv()

    def run(self, key: str) -> int:
        """Time one pass of the parser over the chunks loaded under ``key`` (nanoseconds)."""
        self._send({"op": "run", "key": key, "clock": _clock_name})
        return int(self._recv()["ns"])

    def close(self) -> None:
        """Stop the worker."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None and proc.stdin is not None:
            try:
                proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def _load_sglang() -> tuple[Any, str]:
    """Import SGLang's ``ReasoningParser`` without running the server package's ``__init__``."""
    spec = importlib.util.find_spec("sglang")
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(SGLANG_MISSING)
    root = next(iter(spec.submodule_search_locations))
    for name, path in (("sglang", root), ("sglang.srt", os.path.join(root, "srt"))):
        if name not in sys.modules:
            package = types.ModuleType(name)
            package.__path__ = [path]
            sys.modules[name] = package
    for module_name in ("sglang.srt.parser.reasoning_parser", "sglang.srt.reasoning_parser"):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and module_name.startswith(exc.name):
                continue
            raise LookupError(f"sglang's reasoning parser is not importable ({exc})") from exc
        return module.ReasoningParser, module_name
    raise LookupError("sglang installed, but no reasoning_parser module was found")


def sglang_worker(stdin: IO[str], stdout: IO[str]) -> None:
    """The ``--sglang-worker`` loop: one JSON request per line in, one JSON reply per line out."""
    real_stdout, sys.stdout = sys.stdout, sys.stderr  # imports must not write to the protocol
    try:
        parser_cls, module_name = _load_sglang()
    except LookupError as exc:
        stdout.write(json.dumps({"skipped": str(exc)}) + "\n")
        stdout.flush()
        return
    finally:
        sys.stdout = real_stdout
    try:
        from importlib.metadata import version

        sglang_version = version("sglang")
    except Exception:
        sglang_version = "?"
    stdout.write(json.dumps({"version": sglang_version, "module": module_name}) + "\n")
    stdout.flush()
    loaded: dict[str, list[str]] = {}
    for line in stdin:
        request = json.loads(line)
        op = request.get("op")
        try:
            if op == "quit":
                break
            if op == "load":
                chunks = loaded[request["key"]] = request["chunks"]
                parser = parser_cls(model_type="qwen3", stream_reasoning=True)
                normal, reasoning = [], []
                for chunk in chunks:
                    r, n = parser.parse_stream_chunk(chunk)
                    reasoning.append(r or "")
                    normal.append(n or "")
                end = getattr(parser, "parse_stream_end", None)
                if end is not None:
                    r, n = end()
                    reasoning.append(r or "")
                    normal.append(n or "")
                reply: dict[str, Any] = {
                    "normal": len("".join(normal)),
                    "reasoning": len("".join(reasoning)),
                }
            elif op == "run":
                chunks = loaded[request["key"]]
                parser = parser_cls(model_type="qwen3", stream_reasoning=True)
                feed = parser.parse_stream_chunk
                end = getattr(parser, "parse_stream_end", None)
                clock = CLOCKS[request.get("clock", "cpu")]
                gc.disable()
                start = clock()
                for chunk in chunks:
                    feed(chunk)
                if end is not None:
                    end()
                stop = clock()
                gc.enable()
                reply = {"ns": stop - start}
            else:
                reply = {"error": f"unknown op {op!r}"}
        except Exception as exc:
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


# --------------------------------------------------------------------------------------------
# Tables


@dataclass
class Verdict:
    """One target of section 8 and how the run measured against it."""

    label: str
    measured: float
    target: float
    higher_is_better: bool = True

    @property
    def passed(self) -> bool:
        """Whether ``measured`` meets ``target``."""
        if self.higher_is_better:
            return self.measured >= self.target
        return self.measured <= self.target

    def cell(self) -> str:
        """``"31.2x (>= 25x) PASS"``."""
        op = ">=" if self.higher_is_better else "<="
        word = "PASS" if self.passed else "FAIL"
        return f"{_ratio(self.measured)} ({op} {self.target:g}x) {word}"


@dataclass
class Table:
    """A measured table: printed as Markdown."""

    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)

    def render(self) -> str:
        """The table as Markdown text, notes below it."""
        widths = [len(h) for h in self.headers]
        for row in self.rows:
            widths = [max(w, len(c)) for w, c in zip(widths, row)]

        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"

        out = [f"### {self.title}", "", line(self.headers)]
        out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        out.extend(line(row) for row in self.rows)
        if self.notes:
            out.append("")
            out.extend(f"- {note}" for note in self.notes)
        return "\n".join(out)


def _ratio(x: float) -> str:
    return f"{x:.2f}x" if x < 10 else f"{x:.1f}x"


def _ns(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:,.2f} ms"
    if x >= 1e4:
        return f"{x / 1e3:,.1f} us"
    return f"{x:,.1f} ns"


def _chunk_label(size: int) -> str:
    return f"{size // 1024} KB" if size >= 1024 and size % 1024 == 0 else str(size)


def _size_label(n: int) -> str:
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000} M"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000} K"
    return str(n)


def _outputs(
    cls: Any, chunks: Sequence[str], options: Optional[dict[str, Any]] = None
) -> tuple[str, str]:
    scanner = cls(**(options or {}))
    deltas = [scanner.feed(chunk) for chunk in chunks]
    deltas.append(scanner.close())
    return "".join(d[0] for d in deltas), "".join(d[1] for d in deltas)


def _minor_faults() -> int:
    try:
        import resource
    except ImportError:  # not on Windows
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


#: Bytes read before each cold run: several times any last-level cache of the machines this
#: runs on (32 MB on the 2-core AMD EPYC of benchmarks/RESULTS.md), so the text is in memory only.
EVICT_BYTES = 256 * 1024 * 1024
_evict_buffer: Optional[bytearray] = None


def evict_caches() -> None:
    """Read :data:`EVICT_BYTES` of other memory, so the next run finds nothing in the caches."""
    global _evict_buffer
    if _evict_buffer is None:
        _evict_buffer = bytearray(b"\x01") * EVICT_BYTES
    _evict_buffer.find(b"\x00")


class _Prepared:
    """A contender that starts with ``text`` warm (read untimed) or cold (other memory read
    untimed), and counts the page faults of its run."""

    def __init__(self, run: Callable[[], int], text: str, cold: bool = False) -> None:
        self.run = run
        self.text = text
        self.cold = cold
        self.faults: Optional[int] = None

    def __call__(self) -> int:
        if self.cold:
            evict_caches()
        else:
            memchr_scan(self.text)
        before = _minor_faults()
        ns = self.run()
        faults = _minor_faults() - before
        self.faults = faults if self.faults is None else min(self.faults, faults)
        return ns


# --------------------------------------------------------------------------------------------
# Sections


def bench_stream(
    impls: Sequence[tuple[str, Any]],
    *,
    n_chars: int = 20_000,
    chunk_sizes: Sequence[int] = (1, 4, 16, 65536),
    repeats: int = 15,
    peer: Optional[PeerWorker] = None,
    options: Optional[dict[str, Any]] = None,
) -> Table:
    """Section 1 (and 2): ns per ``feed()`` call at several chunk sizes, SGLang alongside.

    Args:
        impls: ``(name, cls)`` pairs from :func:`load_implementations`.
        n_chars: length of the realistic document.
        chunk_sizes: chunk lengths to cut it into.
        repeats: rounds per chunk size (the minimum is kept).
        peer: a running SGLang worker, or ``None`` / a skipped one.
        options: the scanner options (``None``: the defaults).

    Returns:
        The table, with a verdict per implementation at 4-character chunks when SGLang ran.
    """
    doc = _docs.realistic_document(n_chars)
    live_peer = peer if peer is not None and peer.skipped is None else None
    names = [name for name, _ in impls]
    headers = ["chunk", "feed calls"] + [f"{n} ns/call" for n in names]
    if "python" in names and "cython" in names:
        headers.append("cython speed-up")
    headers.append("sglang ns/call")
    headers += [f"vs sglang: {n}" for n in names]
    table = Table(
        f"1. ThinkScanner.feed, realistic {n_chars:,}-character stream "
        f"(marker every {_docs.marker_spacing(doc):.0f} chars), "
        + (f"options {options}" if options else "default options"),
        headers,
    )
    for size in chunk_sizes:
        chunks = _docs.split_chunks(doc, size)
        contenders: dict[str, Callable[[], int]] = {
            name: functools.partial(time_stream, cls, chunks, options) for name, cls in impls
        }
        key = f"stream-{size}-{bool(options)}"
        if live_peer is not None:
            summary = live_peer.load(key, chunks)
            contenders["sglang"] = functools.partial(live_peer.run, key)
            if size == TARGET_CHUNK:
                table.notes.append(
                    f"sglang {live_peer.version} ({live_peer.module}, qwen3) released "
                    f"{summary['reasoning']:,} reasoning + {summary['normal']:,} normal characters"
                )
        if platform.python_implementation() == "PyPy":
            # A tracing JIT compiles the feed loop only after it has run a while: warm it up
            # untimed, as one does for any JIT, so the figures are the steady state.
            for name, _ in impls:
                for _ in range(PYPY_WARMUP_ROUNDS):
                    contenders[name]()
        best = interleaved_min(contenders, repeats)
        per_call = {name: ns / len(chunks) for name, ns in best.items()}
        row = [_chunk_label(size), f"{len(chunks):,}"] + [_ns(per_call[n]) for n in names]
        if "python" in names and "cython" in names:
            row.append(_ratio(per_call["python"] / per_call["cython"]))
        if "sglang" in per_call:
            row.append(_ns(per_call["sglang"]))
            for name in names:
                ratio = per_call["sglang"] / per_call[name]
                if size == TARGET_CHUNK:
                    verdict = Verdict(
                        f"{name} vs sglang, {size}-char chunks"
                        + (f", {options}" if options else ""),
                        ratio,
                        TARGET_VS_SGLANG[name],
                    )
                    table.verdicts.append(verdict)
                    row.append(verdict.cell())
                else:
                    row.append(_ratio(ratio))
        else:
            row += ["skipped"] + ["-"] * len(names)
        table.rows.append(row)
    if live_peer is None:
        reason = peer.skipped if peer is not None else "no --peer-python given"
        table.notes.append(f"sglang column skipped: {reason}")
    reference = _outputs(impls[0][1], [doc], options) if impls else ("", "")
    table.notes.append(
        f"thinkparse released {len(reference[1]):,} reasoning + {len(reference[0]):,} visible "
        "characters"
    )
    for name, cls in impls:
        for size in chunk_sizes:
            if _outputs(cls, _docs.split_chunks(doc, size), options) != reference:
                table.notes.append(
                    f"WARNING: {name} at {size}-char chunks differs from the one-shot result"
                )
    table.notes.append("ns/call = (feed loop + close()) / feed calls; minimum of the repeats")
    return table


def bench_one_shot(
    impls: Sequence[tuple[str, Any]],
    *,
    n_chars: int = 10_000_000,
    repeats: int = 5,
) -> Table:
    """Section 3: one-shot throughput as a ratio to a memchr scan of the same string.

    Args:
        impls: ``(name, cls)`` pairs from :func:`load_implementations`.
        n_chars: length of each document.
        repeats: rounds (the minimum is kept).

    Returns:
        The table, with a verdict for the compiled scanner on each document.
    """
    import thinkparse

    active = thinkparse.IMPLEMENTATION
    docs = (
        ("realistic", _docs.realistic_document(n_chars)),
        ("tag-free prose", _docs.tag_free_prose(n_chars)),
    )
    table = Table(
        f"3. One-shot on {_size_label(n_chars)} characters, ratio to memchr (doc.find('\\x00'))",
        ["document", "scan", "time", "M chars/s", "page faults", "ratio to memchr"],
    )
    for doc_name, text in docs:
        runs: dict[str, Callable[[], int]] = {
            "memchr": functools.partial(time_call, memchr_scan, text)
        }
        for name, cls in impls:
            runs[name] = functools.partial(time_one_shot, cls, text)
        runs["split_think"] = functools.partial(time_call, thinkparse.split_think, text)
        runs["split_think zoo"] = functools.partial(
            time_call, functools.partial(thinkparse.split_think, preset=ZOO_PRESET), text
        )
        # Every contender starts with the text out of the caches (a document just read or
        # received): on a machine whose last-level cache holds the whole text, a warm memchr
        # measures the cache's bandwidth instead of memory's. The warm memchr is shown too.
        prepared = {name: _Prepared(run, text, cold=True) for name, run in runs.items()}
        prepared["memchr (warm)"] = _Prepared(runs["memchr"], text)
        # The pure-Python scanner is ~40x slower and churns caches and the allocator; it gets
        # rounds of its own so it does not run just before a compiled contender.
        slow = {k: v for k, v in prepared.items() if k == "python"}
        fast = {k: v for k, v in prepared.items() if k != "python"}
        best = interleaved_min(fast, repeats, budget_s=8.0)
        if slow:
            best.update(interleaved_min(slow, repeats, budget_s=8.0))
        labels = [
            ("memchr", "memchr: text.find('\\x00')"),
            ("memchr (warm)", "memchr, text in the caches"),
        ]
        labels += [(name, f"{name}: feed(text) + close()") for name, _ in impls]
        labels.append(("split_think", f"split_think (active: {active})"))
        labels.append(("split_think zoo", f"split_think, preset={ZOO_PRESET!r} (F2, F3)"))
        for key, label in labels:
            ns = best[key]
            ratio = best["memchr"] / ns
            compiled = key == "cython" or (key.startswith("split_think") and active == "cython")
            if key == "memchr":
                cell = "1 (baseline)"
            elif key == "memchr (warm)":
                cell = f"{ratio:.2f}x (not the baseline)"
            elif compiled:
                target = TARGET_VS_MEMCHR[doc_name]
                if key == "split_think zoo":
                    target = TARGET_ZOO_VS_MEMCHR
                verdict = Verdict(f"{label}, {doc_name}", ratio, target)
                table.verdicts.append(verdict)
                cell = verdict.cell()
            else:
                cell = _ratio(ratio) if ratio >= 0.01 else f"{ratio:.4f}x"
            faults = prepared[key].faults
            table.rows.append(
                [
                    doc_name,
                    label,
                    _ns(ns),
                    f"{len(text) / ns * 1e3:,.0f}",
                    "?" if faults is None else f"{faults:,}",
                    cell,
                ]
            )
    spacing = _docs.marker_spacing(docs[0][1])
    table.notes.append(
        f"realistic: a backtick or '<' every {spacing:.0f} characters, two <think> blocks; "
        "tag-free prose: no '<', backtick or '~', an LF every ~80 characters"
    )
    table.notes.append("ratio = memchr time / scanner time (speed relative to memchr)")
    table.notes.append(
        f"each timed run is preceded by an untimed read of {EVICT_BYTES >> 20} MB of other "
        "memory, so every contender starts with the text out of the caches (the warm memchr row: "
        "after an untimed pass over the text); page faults = fewest minor page faults in one "
        "timed run (fresh memory for the result)"
    )
    return table


def bench_growth(
    impls: Sequence[tuple[str, Any]],
    *,
    small: int = 40_000,
    large: int = 4_000_000,
    chunk: int = 7,
    repeats: int = 10,
    budget_s: float = 4.0,
    inputs: Sequence[str] = GROWTH_INPUTS,
) -> Table:
    """Section 4: ns per character at ``small`` and ``large`` sizes; the growth must stay < 2x.

    Args:
        impls: ``(name, cls)`` pairs from :func:`load_implementations`.
        small: the small size in characters.
        large: the large size in characters.
        chunk: chunk length of the chunked mode.
        repeats: rounds; each measures the small and the large text once.
        budget_s: seconds after which a size that has run twice stops repeating.
        inputs: names from :data:`GROWTH_INPUTS`.

    Returns:
        The table, one verdict per input, implementation and mode.
    """
    table = Table(
        f"4. Cost growth, ns per character at {_size_label(small)} and {_size_label(large)}",
        [
            "input",
            "scanner",
            "mode",
            f"ns/char @{_size_label(small)}",
            f"ns/char @{_size_label(large)}",
            "growth",
        ],
    )
    for input_name in inputs:
        options: dict[str, Any] = {}
        if input_name == "realistic":
            gen = _docs.realistic_document
        elif input_name in _docs.ZOO_ADVERSARIAL:
            gen, options = _docs.ZOO_ADVERSARIAL[input_name]
        else:
            gen = _docs.ADVERSARIAL[input_name]
        texts = {n: gen(n) for n in (small, large)}
        for mode in (f"chunked {chunk}", "whole"):
            payloads = {
                n: (_docs.split_chunks(t, chunk) if mode != "whole" else [t])
                for n, t in texts.items()
            }
            for name, cls in impls:
                best = interleaved_min(
                    {
                        str(n): functools.partial(time_stream, cls, payloads[n], options)
                        for n in texts
                    },
                    repeats,
                    budget_s,
                )
                per_char = {n: best[str(n)] / n for n in texts}
                verdict = Verdict(
                    f"growth {input_name}, {name}, {mode}",
                    per_char[large] / per_char[small],
                    TARGET_GROWTH,
                    higher_is_better=False,
                )
                table.verdicts.append(verdict)
                table.rows.append(
                    [
                        input_name,
                        name,
                        mode,
                        f"{per_char[small]:.2f}",
                        f"{per_char[large]:.2f}",
                        verdict.cell(),
                    ]
                )
    table.notes.append("growth = ns/char at the large size / ns/char at the small size")
    reference = _docs.realistic_document(large)
    copies = interleaved_min(
        {str(n): functools.partial(time_call, _copy_text, reference[:n]) for n in (small, large)},
        repeats,
        budget_s,
    )
    table.notes.append(
        "memory floor, for reference: copying a string costs "
        f"{copies[str(small)] / small:.3f} ns/char at {_size_label(small)} and "
        f"{copies[str(large)] / large:.3f} at {_size_label(large)} "
        f"(growth {copies[str(large)] * small / (copies[str(small)] * large):.2f}x)"
    )
    return table


def _copy_text(text: str) -> str:
    return text + "."


# --------------------------------------------------------------------------------------------
# Command line


def _header(impls: Sequence[tuple[str, Any]], args: argparse.Namespace) -> str:
    import thinkparse

    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return "\n".join(
        [
            f"# thinkparse scanner benchmark ({'quick' if args.quick else 'full'} run)",
            "",
            f"- date: {now}",
            f"- python: {platform.python_implementation()} {platform.python_version()} "
            f"on {platform.machine()}, {os.cpu_count()} CPUs ({platform.platform()})",
            f"- thinkparse {thinkparse.__version__}, active scanner: {thinkparse.IMPLEMENTATION}; "
            f"measured: {', '.join(name for name, _ in impls) or 'none'}",
            f"- clock: {args.clock} ({'thread CPU time' if args.clock == 'cpu' else 'elapsed'})",
        ]
    )


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark from the command line.

    Args:
        argv: arguments (default ``sys.argv[1:]``).

    Returns:
        The exit status: 0 (targets that fail are reported, not fatal).
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats (< 1 min)")
    parser.add_argument("--impl", choices=("py", "c", "both"), default="both")
    parser.add_argument(
        "--section",
        type=int,
        action="append",
        choices=(1, 2, 3, 4),
        help="run only this section (repeatable); 2 is the SGLang column of 1",
    )
    parser.add_argument(
        "--peer-python",
        default=os.environ.get("THINKPARSE_BENCH_PEER_PYTHON", sys.executable),
        help="a Python that has sglang installed (default: $THINKPARSE_BENCH_PEER_PYTHON, "
        "else this interpreter)",
    )
    parser.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="cpu",
        help="cpu: thread CPU time (default; robust on a shared machine); wall: elapsed time",
    )
    parser.add_argument("--sglang-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.sglang_worker:
        sglang_worker(sys.stdin, sys.stdout)
        return 0

    set_clock(args.clock)
    sections = sorted(set(args.section or (1, 3, 4)))
    impls = load_implementations(args.impl)
    print(_header(impls, args), flush=True)
    tables: list[Table] = []

    if 1 in sections or 2 in sections:
        peer = PeerWorker(args.peer_python)
        if peer.skipped == SGLANG_MISSING:
            print(f"\nskipped: {SGLANG_MISSING} (in {args.peer_python})", flush=True)
        try:
            for options in (None, {"preset": ZOO_PRESET}):
                tables.append(
                    bench_stream(impls, repeats=5 if args.quick else 15, peer=peer,
                                 options=options)
                )
                print("\n" + tables[-1].render(), flush=True)
        finally:
            peer.close()
    if 3 in sections:
        tables.append(bench_one_shot(impls, repeats=3 if args.quick else 15))
        print("\n" + tables[-1].render(), flush=True)
    if 4 in sections:
        if args.quick:
            table = bench_growth(impls, large=400_000, repeats=5, budget_s=1.0)
        else:
            table = bench_growth(impls, repeats=15)
        tables.append(table)
        print("\n" + table.render(), flush=True)

    verdicts = [v for t in tables for v in t.verdicts]
    failed = [v for v in verdicts if not v.passed]
    print(f"\n### Summary: {len(verdicts) - len(failed)} of {len(verdicts)} targets met")
    for v in failed:
        print(f"- FAIL {v.label}: {v.cell()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
